#include "host/nightly/night_agents.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/cli_error.h"
#include "common/printable.h"

namespace schedrig::nightly {
namespace {

NightAgent agent_of(const nlohmann::json& a) {
  NightAgent out;
  out.agent_id = a.value("agent_id", "");
  out.hostname = a.value("hostname", "");
  out.arch = canonical_arch(a.value("arch", ""));
  out.kernel_release = a.value("kernel_release", "");
  out.boot_id = a.value("boot_id", "");
  out.connected = a.value("connected", false);
  for (const auto& k : a.value("kernels", nlohmann::json::array())) {
    out.kernels[k.value("name", "")] = {k.value("release", ""), k.value("hook", "")};
  }
  return out;
}

bool matches(const AgentSelector& s, const NightAgent& a) {
  for (const auto& [key, value] : s.match) {
    if ((key == "arch" ? a.arch : a.hostname) != value) return false;
  }
  return true;
}

[[noreturn]] void refuse(ErrorKind kind, const LabFile& lab, int line, const std::string& why) {
  throw CliError(kind, fmt::format("{}:{}: {}", lab.path, line, why));
}

void check_kernels(const LabFile& lab, const AgentSelector& s, const NightAgent& a) {
  for (const std::string& k : lab.kernels) {
    if (a.kernels.count(k)) continue;
    std::vector<std::string> names;
    for (const auto& [name, _] : a.kernels) names.push_back(printable(name));
    refuse(ErrorKind::kUsage, lab, s.line,
           fmt::format("agent {} does not list kernel '{}' (its config lists: {})",
                       printable(a.agent_id), k,
                       names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "))));
  }
}

}  // namespace

std::vector<NightAgent> resolve_night_agents(const LabFile& lab, const nlohmann::json& agents) {
  std::vector<NightAgent> known;
  try {
    for (const auto& a : agents.at("agents")) known.push_back(agent_of(a));
  } catch (const nlohmann::json::exception& e) {  // not the server's own answer
    throw CliError(ErrorKind::kUnreachable,
                   fmt::format("the server's agent list is not as expected: {}", e.what()));
  }
  std::vector<NightAgent> out;
  const auto add = [&](const AgentSelector& s, const NightAgent& a) {
    check_kernels(lab, s, a);
    if (std::none_of(out.begin(), out.end(),
                     [&](const auto& o) { return o.agent_id == a.agent_id; }))
      out.push_back(a);
  };
  for (const AgentSelector& s : lab.agents) {
    if (!s.id.empty()) {
      auto it = std::find_if(known.begin(), known.end(),
                             [&](const auto& a) { return a.agent_id == s.id; });
      if (it == known.end())
        refuse(ErrorKind::kUsage, lab, s.line,
               fmt::format("agent {}: the server does not know it", s.id));
      if (!it->connected)
        refuse(ErrorKind::kUnreachable, lab, s.line,
               fmt::format("agent {} is not connected", s.id));
      add(s, *it);
      continue;
    }
    std::size_t n = 0;
    for (const NightAgent& a : known) {
      if (a.connected && matches(s, a)) {
        add(s, a);
        ++n;
      }
    }
    if (n == 0) {
      std::vector<std::string> want;
      for (const auto& [k, v] : s.match) want.push_back(k + ": " + printable(v));
      refuse(ErrorKind::kUsage, lab, s.line,
             fmt::format("no connected agent matches {{{}}}", fmt::join(want, ", ")));
    }
  }
  return out;
}

}  // namespace schedrig::nightly
