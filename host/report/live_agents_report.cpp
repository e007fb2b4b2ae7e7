#include "host/report/live_agents_report.h"

#include <fmt/format.h>

#include "host/report/format.h"
#include "host/report/text_table.h"

namespace schedrig::report {
namespace {

using Align = TextTable::Align;

// How much of a run id tables show: enough to name it (`RUN` takes a prefix).
constexpr std::size_t kShortRunId = 8;

std::string count_or_dash(unsigned n) { return n ? std::to_string(n) : "-"; }

}  // namespace

std::string agent_activity(const LiveAgent& agent) {
  std::string activity = agent.state;
  if (agent.state == "running" && !agent.run_id.empty()) {
    activity += fmt::format(" {}", agent.run_id.substr(0, kShortRunId));
    if (!agent.waiting.empty()) activity += ", " + agent.waiting;
  }
  if (agent.queued) activity += fmt::format(", {} queued", agent.queued);
  return activity;
}

void print_live_agents_table(const std::vector<LiveAgent>& agents, std::ostream& out) {
  TextTable table({{"AGENT"},
                   {"LINK"},
                   {"ACTIVITY"},
                   {"KERNEL"},
                   {"PUS", Align::kRight},
                   {"ALLOWED", Align::kRight},
                   {"PEER"},
                   {"LAST SEEN"}});
  for (const auto& a : agents) {
    table.add_row({a.agent_id, a.connected ? "connected" : "offline", agent_activity(a),
                   dash_if_empty(a.kernel_release), count_or_dash(a.pus),
                   count_or_dash(a.allowed_pus), dash_if_empty(a.peer),
                   format_utc(a.last_seen_ns)});
  }
  table.print(out);
}

}  // namespace schedrig::report
