#include "host/nightly/lab_file.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "common/auth/token.h"
#include "common/cli_error.h"
#include "common/kernel_name.h"
#include "common/parse_whole.h"
#include "common/plan/plan_yaml.h"
#include "common/printable.h"
#include "common/yaml_line.h"
#include "host/nightly/night_files.h"

namespace schedrig::nightly {
namespace {

class Reader {
 public:
  explicit Reader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const YAML::Node& at, const std::string& key,
                         const std::string& why) const {
    throw CliError(ErrorKind::kUsage,
                   fmt::format("{}:{}: key '{}': {}", path_, yaml_line(at), key, why));
  }
  std::string scalar(const YAML::Node& n, const std::string& key) const {
    if (!n.IsScalar()) fail(n, key, "not a single value");
    return n.Scalar();
  }
  std::vector<std::string> list(const YAML::Node& n, const std::string& key,
                                std::size_t max) const {
    if (n.IsScalar()) return {n.Scalar()};
    if (!n.IsSequence() || n.size() == 0) fail(n, key, "want a list");
    if (n.size() > max) fail(n, key, fmt::format("{} items; at most {}", n.size(), max));
    std::vector<std::string> out;
    for (std::size_t i = 0; i < n.size(); ++i)
      out.push_back(scalar(n[i], fmt::format("{}[{}]", key, i)));
    return out;
  }
  double number(const YAML::Node& n, const std::string& key, double lo, double hi) const {
    const auto v = try_parse_whole<double>(scalar(n, key));
    if (!v || !(*v >= lo && *v <= hi))
      fail(n, key, fmt::format("'{}' is not a number in {}..{}", printable(n.Scalar()), lo, hi));
    return *v;
  }
  bool boolean(const YAML::Node& n, const std::string& key) const {
    const std::string v = scalar(n, key);
    if (v == "true" || v == "on" || v == "yes") return true;
    if (v == "false" || v == "off" || v == "no") return false;
    fail(n, key, fmt::format("'{}' is not true or false", printable(v)));
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

void check_keys(const Reader& r, const YAML::Node& n, const std::string& key,
                std::initializer_list<const char*> known) {
  for (const auto& kv : n) {
    const std::string k = kv.first.Scalar();
    if (std::none_of(known.begin(), known.end(), [&](const char* x) { return k == x; })) {
      std::string names;
      for (const char* x : known) names += (names.empty() ? "" : ", ") + std::string(x);
      r.fail(kv.first, printable(key.empty() ? k : key + "." + k),
             fmt::format("unknown key (known: {})", names));
    }
  }
}

std::vector<AgentSelector> read_agents(const Reader& r, const YAML::Node& n) {
  if (!n.IsSequence() || n.size() == 0)
    r.fail(n, "agents", "want a list of agent ids or selectors");
  if (n.size() > kMaxLabAgents)
    r.fail(n, "agents", fmt::format("{} entries; at most {}", n.size(), kMaxLabAgents));
  std::vector<AgentSelector> out;
  for (std::size_t i = 0; i < n.size(); ++i) {
    const std::string key = fmt::format("agents[{}]", i);
    AgentSelector s;
    s.line = yaml_line(n[i]);
    if (n[i].IsScalar()) {
      s.id = n[i].Scalar();
      if (!auth::valid_principal_name(s.id)) r.fail(n[i], key, auth::invalid_name_reason(s.id));
    } else if (n[i].IsMap() && n[i].size() > 0) {
      check_keys(r, n[i], key, {"arch", "hostname"});
      for (const auto& kv : n[i]) {
        const std::string v = r.scalar(kv.second, key + "." + kv.first.Scalar());
        s.match[kv.first.Scalar()] = kv.first.Scalar() == "arch" ? canonical_arch(v) : v;
      }
    } else {
      r.fail(n[i], key, "want an agent id or a selector such as {arch: arm64}");
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::vector<std::string> read_kernels(const Reader& r, const YAML::Node& n) {
  if (n.IsScalar() && n.Scalar() == "current") return {};
  std::vector<std::string> out = r.list(n, "kernels", kMaxLabKernels);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::string key = fmt::format("kernels[{}]", i);
    if (!valid_kernel_name(out[i]))
      r.fail(n.IsSequence() ? n[i] : n, key,
             fmt::format("'{}' is not a kernel name ([A-Za-z0-9._-], 1..64 bytes; `kernels: "
                         "current` alone for the running one)",
                         printable(out[i])));
    if (!seen.insert(out[i]).second) r.fail(n[i], key, fmt::format("'{}' given twice", out[i]));
  }
  return out;
}

std::vector<LabPlan> read_plans(const Reader& r, const YAML::Node& n) {
  const std::vector<std::string> paths = r.list(n, "plans", kMaxLabPlans);
  const std::filesystem::path dir = std::filesystem::path(r.path()).parent_path();
  std::vector<LabPlan> out;
  std::set<std::string> names;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    std::string p = paths[i];
    const YAML::Node& at = n.IsSequence() ? n[i] : n;
    const std::string key = fmt::format("plans[{}]", i);
    if (!p.empty() && p.front() != '/') p = (dir / p).lexically_normal().string();
    const std::string name = std::filesystem::path(p).filename().string();
    if (name == "selftest" || !names.insert(name).second)
      r.fail(at, key,
             fmt::format("'{}': a night tells its plans apart by file name, and this one is "
                         "taken{}",
                         printable(name), name == "selftest" ? " (by the selftest)" : ""));
    try {
      std::string yaml = read_bounded_file(p, kMaxPlanFileBytes);
      parse_plan_yaml(yaml, p);
      out.push_back({p, name, std::move(yaml)});
    } catch (const PlanError& e) {
      r.fail(at, key, printable(e.what()));
    } catch (const CliError& e) {
      r.fail(at, key, printable(e.what()));
    }
  }
  return out;
}

void read_baseline(const Reader& r, const YAML::Node& n, LabFile& lab) {
  if (n.IsScalar() && n.Scalar() == "last_good") return;
  if (!n.IsMap() || !n["kernel"]) r.fail(n, "baseline", "want `last_good` or {kernel: NAME}");
  check_keys(r, n, "baseline", {"kernel"});
  lab.baseline_kernel = r.scalar(n["kernel"], "baseline.kernel");
  if (std::find(lab.kernels.begin(), lab.kernels.end(), lab.baseline_kernel) == lab.kernels.end())
    r.fail(n["kernel"], "baseline.kernel",
           fmt::format("'{}' is not one of the night's kernels", printable(lab.baseline_kernel)));
}

void read_gates(const Reader& r, const YAML::Node& n, LabFile& lab) {
  if (!n.IsMap()) r.fail(n, "gates", "want {metric: NAME, threshold_pct: P}");
  check_keys(r, n, "gates", {"metric", "threshold_pct"});
  if (n["metric"]) lab.gate_metric = r.scalar(n["metric"], "gates.metric");
  if (n["threshold_pct"]) {
    lab.gate_threshold_pct = r.number(n["threshold_pct"], "gates.threshold_pct", 0, 1000);
    lab.gate_threshold_given = true;
  }
}

}  // namespace

std::string canonical_arch(const std::string& arch) {
  if (arch == "arm64") return "aarch64";
  if (arch == "amd64") return "x86_64";
  return arch;
}

LabFile load_lab_file(const std::string& path) {
  const Reader r(path);
  YAML::Node root;
  try {
    root = YAML::Load(read_bounded_file(path, kMaxPlanFileBytes));
  } catch (const YAML::ParserException& e) {
    throw CliError(ErrorKind::kUsage,
                   fmt::format("{}:{}: YAML syntax: {}", path, e.mark.line + 1, e.msg));
  }
  if (!root.IsMap())
    throw CliError(ErrorKind::kUsage, fmt::format("{}: not a mapping of keys", path));
  check_keys(r, root, "",
             {"agents", "kernels", "plans", "boots_per_kernel", "baseline", "gates", "selftest"});
  LabFile lab;
  lab.path = path;
  for (const char* required : {"agents", "kernels", "plans"}) {
    if (!root[required]) r.fail(root, required, "is required");
  }
  lab.agents = read_agents(r, root["agents"]);
  lab.kernels = read_kernels(r, root["kernels"]);
  lab.plans = read_plans(r, root["plans"]);
  if (root["boots_per_kernel"]) {
    lab.boots_per_kernel = static_cast<unsigned>(
        r.number(root["boots_per_kernel"], "boots_per_kernel", 2, kMaxBootsPerKernel));
    if (r.number(root["boots_per_kernel"], "boots_per_kernel", 2, kMaxBootsPerKernel) !=
        lab.boots_per_kernel)
      r.fail(root["boots_per_kernel"], "boots_per_kernel", "want a whole number");
  }
  if (lab.boots_per_kernel == 2)
    lab.notes.push_back(
        "boots_per_kernel 2: a boot-level verdict needs the two boots of each kernel to agree "
        "closely (docs/statistics.md \"Boots\"); 3 is the default");
  if (root["baseline"]) {
    read_baseline(r, root["baseline"], lab);
  } else if (!lab.kernels.empty()) {
    lab.baseline_kernel = lab.kernels.front();  // the first kernel listed
  }
  if (root["gates"]) read_gates(r, root["gates"], lab);
  if (root["selftest"]) lab.selftest = r.boolean(root["selftest"], "selftest");
  return lab;
}

}  // namespace schedrig::nightly
