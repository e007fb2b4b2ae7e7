#include "common/plan/plan_yaml.h"

#include "common/cpulist.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "common/labels.h"
#include "common/plan/quiet.h"
#include "common/plan/schedule.h"
#include "common/plan/yaml_load.h"
#include "common/sample_rate.h"
#include "common/yaml_line.h"

namespace schedrig {
namespace {

// Bounds on what a plan may hold, checked before anything is expanded: YAML
// aliases let a small file name one big map from many places (an "alias
// bomb"), so every map and list is bounded where it is read.
constexpr std::size_t kMaxMapEntries = 256;  // keys of any one map (params, sysctl, labels)
constexpr std::size_t kMaxListItems = 1024;  // cases, variants, features

using v1::Plan;

// 1-based line of `node`, 0 when yaml-cpp has no mark for it.
// Carries the file name so every error names file, line and key, and the
// optional line map every key seen goes into.
class Reader {
 public:
  Reader(std::string source, PlanLines* lines) : source_(std::move(source)), lines_(lines) {}

  [[noreturn]] void fail(const YAML::Node& at, const std::string& key,
                         const std::string& why) const {
    throw PlanError(source_, yaml_line(at), key, "", why);
  }

  // Notes that `key` is at `node`'s line (when a line map is kept).
  void note(const YAML::Node& node, const std::string& key) const {
    if (lines_) lines_->lines[key] = yaml_line(node);
  }

  // Checks a map node: it is a map, has no duplicate or unknown keys.
  void check_map(const YAML::Node& node, const std::string& key,
                 const std::set<std::string>& allowed) const {
    if (!node.IsMap()) fail(node, key, "must be a map");
    if (node.size() > kMaxMapEntries) {
      fail(node, key, fmt::format("has {} entries; at most {}", node.size(), kMaxMapEntries));
    }
    std::set<std::string> seen;
    for (const auto& kv : node) {
      if (!kv.first.IsScalar()) fail(kv.first, key, "keys must be plain names");
      const std::string name = kv.first.as<std::string>();
      const std::string path = key.empty() ? name : key + "." + name;
      if (!seen.insert(name).second) fail(kv.first, path, "appears twice");
      note(kv.first, path);
      if (!allowed.empty() && !allowed.count(name)) {
        fail(kv.first, path,
             fmt::format("is not known (known keys: {})", fmt::join(allowed, ", ")));
      }
    }
  }

  std::string scalar(const YAML::Node& node, const std::string& key) const {
    if (!node.IsScalar()) fail(node, key, "must be a single value");
    return node.Scalar();
  }

  template <typename T>
  T number(const YAML::Node& node, const std::string& key, T lo, T hi) const {
    std::string text = scalar(node, key);
    T value{};
    try {
      value = node.as<T>();
    } catch (const YAML::Exception&) {
      fail(node, key, fmt::format("'{}' is not a number", text));
    }
    if (!(value >= lo && value <= hi)) {
      fail(node, key, fmt::format("{} is out of range [{}, {}]", text, lo, hi));
    }
    return value;
  }

  // `true` or `false` (YAML's other spellings of a bool are refused).
  bool boolean(const YAML::Node& node, const std::string& key) const {
    const std::string text = scalar(node, key);
    if (text == "true") return true;
    if (text == "false") return false;
    fail(node, key, fmt::format("'{}' is not true or false", text));
  }

  std::uint64_t seconds_ns(const YAML::Node& node, const std::string& key, double lo) const {
    double s = number<double>(node, key, lo, 7 * 86400.0);
    return static_cast<std::uint64_t>(s * 1e9 + 0.5);
  }

  template <typename Map>
  void string_map(const YAML::Node& node, const std::string& key, Map* out) const {
    check_map(node, key, {});
    for (const auto& kv : node) {
      std::string name = kv.first.as<std::string>();
      (*out)[name] = scalar(kv.second, key + "." + name);
    }
  }

  const std::string& source() const { return source_; }

 private:
  std::string source_;
  PlanLines* lines_;
};

v1::Order parse_order(const Reader& r, const YAML::Node& node) {
  std::string s = r.scalar(node, "order");
  if (s == "interleaved") return v1::ORDER_INTERLEAVED;
  if (s == "blocked") return v1::ORDER_BLOCKED;
  if (s == "shuffled") return v1::ORDER_SHUFFLED;
  r.fail(node, "order", fmt::format("'{}' is not one of interleaved, blocked, shuffled", s));
}

// `iterations: N`, or `iterations: {min, max, stop: verdict, delta_pct}`:
// rounds from min to max, stopping once every case's verdicts are settled
// (common/stats/sequential.h). Plan.iterations is N or max.
void parse_iterations(const Reader& r, const YAML::Node& node, Plan& plan) {
  if (!node) {
    plan.set_iterations(5);
    return;
  }
  if (!node.IsMap()) {
    plan.set_iterations(r.number<unsigned>(node, "iterations", 1, 100000));
    return;
  }
  r.check_map(node, "iterations", {"min", "max", "stop", "delta_pct"});
  for (const char* key : {"min", "max", "stop"}) {
    if (!node[key]) r.fail(node, fmt::format("iterations.{}", key), "is required");
  }
  const std::string stop = r.scalar(node["stop"], "iterations.stop");
  if (stop != "verdict")
    r.fail(node["stop"], "iterations.stop", fmt::format("'{}' is not verdict", stop));
  v1::IterationStop& rule = *plan.mutable_iteration_stop();
  rule.set_min(r.number<unsigned>(node["min"], "iterations.min", 3, kMaxSequentialRounds));
  rule.set_max(r.number<unsigned>(node["max"], "iterations.max", rule.min(), kMaxSequentialRounds));
  rule.set_delta_pct(node["delta_pct"]
                         ? r.number<double>(node["delta_pct"], "iterations.delta_pct", 0.1, 50)
                         : 2.0);
  plan.set_iterations(rule.max());
}

// What `stop: verdict` needs of the rest of the plan: a baseline and a
// variant to pair with it, round by round (interleaved order).
void check_iteration_stop(const Reader& r, const YAML::Node& root, const Plan& plan) {
  if (plan.iteration_stop().min() == 0) return;
  if (plan.variants_size() < 2)
    r.fail(root["iterations"], "iterations.stop",
           "verdict needs variants: a baseline and at least one variant to judge against it");
  if (plan.order() != v1::ORDER_INTERLEAVED)
    r.fail(root["order"], "order",
           "must be interleaved with iterations.stop: verdict (each round pairs the variants)");
}

std::string default_case_name(const v1::Case& c) {
  std::set<std::string> keys;
  for (const auto& [k, v] : c.params()) keys.insert(k + "=" + v);
  return keys.empty() ? c.workload() : fmt::format("{}:{}", c.workload(), fmt::join(keys, ","));
}

// `gate: {metric, threshold_pct}`: what `--fail-on regression` judges for the
// case (docs/architecture.md "Plan files"); metric a non-empty name, the
// threshold 0..1000 %.
void parse_gate(const Reader& r, const YAML::Node& node, const std::string& key, v1::Gate* g) {
  r.check_map(node, key, {"metric", "threshold_pct"});
  if (node["metric"]) {
    g->set_metric(r.scalar(node["metric"], key + ".metric"));
    if (g->metric().empty()) r.fail(node["metric"], key + ".metric", "must not be empty");
  }
  if (node["threshold_pct"]) {
    g->set_threshold_pct(r.number<double>(node["threshold_pct"], key + ".threshold_pct", 0, 1000));
  }
}

void parse_case(const Reader& r, const YAML::Node& node, const std::string& key, v1::Case* c) {
  r.check_map(node, key, {"name", "workload", "params", "placement", "membind", "gate"});
  if (!node["workload"]) r.fail(node, key + ".workload", "is required");
  c->set_workload(r.scalar(node["workload"], key + ".workload"));
  if (node["params"]) r.string_map(node["params"], key + ".params", c->mutable_params());
  c->set_placement(node["placement"] ? r.scalar(node["placement"], key + ".placement") : "all");
  if (node["membind"]) c->set_membind(r.scalar(node["membind"], key + ".membind"));
  if (node["gate"]) parse_gate(r, node["gate"], key + ".gate", c->mutable_gate());
  c->set_name(node["name"] ? r.scalar(node["name"], key + ".name") : default_case_name(*c));
}

void parse_variant(const Reader& r, const YAML::Node& node, const std::string& key,
                   v1::Variant* v) {
  r.check_map(node, key, {"name", "features", "sysctl", "debugfs", "antagonist"});
  if (!node["name"]) r.fail(node, key + ".name", "is required");
  v->set_name(r.scalar(node["name"], key + ".name"));
  if (const auto& f = node["features"]) {
    if (!f.IsSequence()) r.fail(f, key + ".features", "must be a list of feature names");
    if (f.size() > kMaxListItems) {
      r.fail(f, key + ".features",
             fmt::format("has {} items; at most {}", f.size(), kMaxListItems));
    }
    for (std::size_t i = 0; i < f.size(); ++i) {
      const std::string item_key = fmt::format("{}.features[{}]", key, i);
      r.note(f[i], item_key);
      v->add_features(r.scalar(f[i], item_key));
    }
  }
  if (node["sysctl"]) r.string_map(node["sysctl"], key + ".sysctl", v->mutable_sysctl());
  if (node["debugfs"]) r.string_map(node["debugfs"], key + ".debugfs", v->mutable_debugfs());
  if (const auto& a = node["antagonist"]) {
    const std::string akey = key + ".antagonist";
    r.check_map(a, akey, {"cpus", "duty_pct"});
    if (!a["duty_pct"]) r.fail(a, akey + ".duty_pct", "is required (1..100)");
    v->mutable_antagonist()->set_duty_pct(
        r.number<std::uint32_t>(a["duty_pct"], akey + ".duty_pct", 1, 100));
    if (a["cpus"]) {
      const std::string cpus = r.scalar(a["cpus"], akey + ".cpus");
      try {
        parse_cpulist(cpus);
      } catch (const std::invalid_argument& e) {
        r.fail(a["cpus"], akey + ".cpus", e.what());
      }
      v->mutable_antagonist()->set_cpus(cpus);
    }
  }
}

// `quiet: {retries, disturbance, other_cpu_pct}` (common/plan/quiet.h); absent
// keys stay unset (their defaults).
void parse_disturbance(const Reader& r, const YAML::Node& node, v1::QuietCheck& q) {
  if (node["retries"]) {
    q.set_retries(r.number<std::uint32_t>(node["retries"], "quiet.retries", 0, kMaxQuietRetries));
  }
  if (node["disturbance"]) q.set_disturbance(r.boolean(node["disturbance"], "quiet.disturbance"));
  if (node["other_cpu_pct"]) {
    q.set_other_cpu_pct(r.number<double>(node["other_cpu_pct"], "quiet.other_cpu_pct", 0.1, 100));
  }
}

// `quiet: {max_runnable, hold_s, timeout_s, retries, disturbance,
// other_cpu_pct}`; absent keys keep default_quiet_check()'s.
v1::QuietCheck parse_quiet(const Reader& r, const YAML::Node& node) {
  v1::QuietCheck q = default_quiet_check();
  if (!node) return q;
  r.check_map(node, "quiet",
              {"max_runnable", "hold_s", "timeout_s", "retries", "disturbance", "other_cpu_pct"});
  parse_disturbance(r, node, q);
  if (node["max_runnable"]) {
    q.set_max_runnable(r.number<unsigned>(node["max_runnable"], "quiet.max_runnable", 0, 100000));
  }
  if (node["hold_s"]) q.set_hold_s(r.number<double>(node["hold_s"], "quiet.hold_s", 0, 3600));
  if (node["timeout_s"]) {
    q.set_timeout_s(r.number<double>(node["timeout_s"], "quiet.timeout_s", 0, 3600));
  }
  return q;
}

// `starvation: {idle_after_pct, lookahead, wait_share_pct, idle_pct}`;
// absent keys stay 0 (the sampler's defaults).
v1::StarvationRule parse_starvation(const Reader& r, const YAML::Node& node) {
  v1::StarvationRule rule;
  if (!node) return rule;
  r.check_map(node, "starvation", {"idle_after_pct", "lookahead", "wait_share_pct", "idle_pct"});
  auto pct = [&](const char* key) {
    return r.number<double>(node[key], std::string("starvation.") + key, 0.001, 100);
  };
  if (node["idle_after_pct"]) rule.set_idle_after_pct(pct("idle_after_pct"));
  if (node["wait_share_pct"]) rule.set_wait_share_pct(pct("wait_share_pct"));
  if (node["idle_pct"]) rule.set_idle_pct(pct("idle_pct"));
  if (node["lookahead"]) {
    rule.set_lookahead(r.number<unsigned>(node["lookahead"], "starvation.lookahead", 1, 100));
  }
  return rule;
}

// `labels: {K: V}` within the API's bounds (common/labels.h).
void parse_labels(const Reader& r, const YAML::Node& node,
                  google::protobuf::Map<std::string, std::string>* out) {
  r.string_map(node, "labels", out);
  if (out->size() > kMaxLabels) {
    r.fail(node, "labels", fmt::format("has {} labels; at most {}", out->size(), kMaxLabels));
  }
  for (const auto& kv : node) {
    const std::string key = kv.first.as<std::string>();
    if (!label_fits(key, kv.second.Scalar()))
      r.fail(kv.first, "labels." + key, label_bounds_text());
  }
}

// Parses a list of named items, checking that names are unique.
template <typename Item, typename Parse>
void parse_list(const Reader& r, const YAML::Node& node, const std::string& key,
                google::protobuf::RepeatedPtrField<Item>* out, Parse parse) {
  if (!node.IsSequence() || node.size() == 0) r.fail(node, key, "must be a non-empty list");
  if (node.size() > kMaxListItems) {
    r.fail(node, key, fmt::format("has {} items; at most {}", node.size(), kMaxListItems));
  }
  std::set<std::string> names;
  for (std::size_t i = 0; i < node.size(); ++i) {
    std::string item_key = fmt::format("{}[{}]", key, i);
    r.note(node[i], item_key);
    Item* item = out->Add();
    parse(r, node[i], item_key, item);
    if (item->name().empty()) r.fail(node[i], item_key + ".name", "must not be empty");
    if (!names.insert(item->name()).second) {
      r.fail(node[i], item_key + ".name", fmt::format("'{}' is used twice", item->name()));
    }
  }
}

Plan parse_root(const Reader& r, const YAML::Node& root) {
  r.check_map(root, "",
              {"name", "iterations", "duration_s", "warmup_s", "cooldown_s", "order", "seed",
               "sample_hz", "quiet", "starvation", "labels", "cases", "variants"});
  Plan plan;
  plan.set_name(root["name"] ? r.scalar(root["name"], "name") : "unnamed");
  parse_iterations(r, root["iterations"], plan);
  if (!root["duration_s"]) r.fail(root, "duration_s", "is required");
  plan.set_duration_ns(r.seconds_ns(root["duration_s"], "duration_s", 0.001));
  plan.set_warmup_ns(root["warmup_s"] ? r.seconds_ns(root["warmup_s"], "warmup_s", 0) : 0);
  plan.set_cooldown_ns(root["cooldown_s"] ? r.seconds_ns(root["cooldown_s"], "cooldown_s", 0) : 0);
  plan.set_order(root["order"] ? parse_order(r, root["order"]) : v1::ORDER_INTERLEAVED);
  plan.set_seed(root["seed"] ? r.number<std::uint64_t>(root["seed"], "seed", 0, UINT64_MAX) : 1);
  if (root["sample_hz"]) {
    plan.set_sample_hz(r.number<double>(root["sample_hz"], "sample_hz", 0, kMaxSampleHz));
    const std::string problem = sample_hz_problem(plan.sample_hz());
    if (!problem.empty()) r.fail(root["sample_hz"], "sample_hz", problem);
  } else {
    plan.set_sample_hz(1);
  }
  *plan.mutable_quiet() = parse_quiet(r, root["quiet"]);
  *plan.mutable_starvation() = parse_starvation(r, root["starvation"]);
  if (root["labels"]) parse_labels(r, root["labels"], plan.mutable_labels());
  if (!root["cases"]) r.fail(root, "cases", "is required");
  parse_list(r, root["cases"], "cases", plan.mutable_cases(), parse_case);
  if (root["variants"]) {
    parse_list(r, root["variants"], "variants", plan.mutable_variants(), parse_variant);
  } else {
    plan.add_variants()->set_name("baseline");
  }
  check_iteration_stop(r, root, plan);
  const std::string too_long = schedule_size_problem(plan);
  if (!too_long.empty()) {
    r.fail(root["iterations"] ? root["iterations"] : root["cases"], "iterations", too_long);
  }
  return plan;
}

}  // namespace

v1::QuietCheck default_quiet_check() {
  v1::QuietCheck q;
  q.set_max_runnable(1);
  q.set_hold_s(1);
  q.set_timeout_s(10);
  return q;
}

Plan parse_plan_yaml(const std::string& text, const std::string& source, PlanLines* lines) {
  if (lines) lines->lines.clear();
  Reader reader(source, lines);
  const std::vector<YAML::Node> docs = load_yaml_documents(text, source);
  if (docs.size() > 1) {
    throw PlanError(source, yaml_line(docs[1]), "", "",
                    "a second YAML document ('---'); a plan file holds one");
  }
  YAML::Node root = docs.empty() ? YAML::Node() : docs.front();
  if (!root.IsMap()) throw PlanError(source, 0, "", "", "a plan must be a YAML map");
  return parse_root(reader, root);
}

Plan load_plan_file(const std::string& path, PlanLines* lines) {
  std::ifstream in(path);
  if (!in) throw PlanError(path, 0, "", "", fmt::format("cannot open: {}", std::strerror(errno)));
  std::stringstream text;
  text << in.rdbuf();
  return parse_plan_yaml(text.str(), path, lines);
}

std::string order_name(v1::Order order) {
  switch (order) {
    case v1::ORDER_BLOCKED:
      return "blocked";
    case v1::ORDER_SHUFFLED:
      return "shuffled";
    default:
      return "interleaved";
  }
}

}  // namespace schedrig
