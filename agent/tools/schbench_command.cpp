#include "agent/tools/schbench_command.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "agent/tools/tool_cpus.h"
#include "agent/tools/tool_error.h"
#include "agent/tools/tool_options.h"
#include "common/cpulist.h"

namespace schedrig::tools {
namespace {

// schbench.c long_options and option_string (master, 2024).
const std::vector<OptionSpec> kSchbenchOptions = {{'p', "pipe", true},
                                                  {'m', "message-threads", true},
                                                  {'M', "message-cpus", true},
                                                  {'W', "worker-cpus", true},
                                                  {'t', "threads", true},
                                                  {'r', "runtime", true},
                                                  {'R', "rps", true},
                                                  {'A', "auto-rps", true},
                                                  {'F', "cache_footprint", true},
                                                  {'C', "calibrate", false},
                                                  {'L', "no-locking", false},
                                                  {'n', "operations", true},
                                                  {'s', "sleep_usec", true},
                                                  {'w', "warmuptime", true},
                                                  {'i', "intervaltime", true},
                                                  {'z', "zerotime", true},
                                                  {'j', "json", true},
                                                  {'J', "jobname", true},
                                                  {'\0', "split", true},
                                                  {'\0', "help", false}};

[[noreturn]] void refuse(const GivenOption& o, const std::string& reason) {
  refuse_argument("schbench", o.word, reason);
}

// Why schedrig keeps option `o` to itself, or "".
std::string owned_reason(const GivenOption& o) {
  switch (o.spec->short_name) {
    case 'r':
      return "the run time is schedrig's (the plan's duration_s); leave it out";
    case 'j':
      return "output files are schedrig's; it reads schbench's report itself";
    case 'C':
      return "a calibration run is not a benchmark run";
    default:
      break;
  }
  if (o.spec->long_name == std::string("help")) return "not a benchmark run";
  return "";
}

}  // namespace

std::vector<std::string> schbench_command(const std::vector<std::string>& args,
                                          const ToolRunSpec& run) {
  std::vector<int> placement = run.cpus;
  std::sort(placement.begin(), placement.end());
  const std::vector<GivenOption> given = read_options("schbench", args, kSchbenchOptions);
  const bool auto_pin = std::any_of(given.begin(), given.end(), [](const GivenOption& o) {
    return (o.spec->short_name == 'M' || o.spec->short_name == 'W') && o.value == "auto";
  });
  const long m = option_number("schbench", given, 'm', 1, kMaxToolTasks, 1);
  // Its default -t is the CPU count over the message threads, at least 1.
  const long t = option_number("schbench", given, 't', 1, kMaxToolTasks,
                               std::max<long>(1, static_cast<long>(placement.size()) / m));
  check_task_count("schbench", fmt::format("-m {} -t {}", m, t), m * (t + 1LL));
  std::vector<std::string> out;
  for (const GivenOption& o : given) {
    if (const std::string why = owned_reason(o); !why.empty()) refuse(o, why);
    const char c = o.spec->short_name;
    if (c == 'M' || c == 'W') {
      if (!auto_pin)
        out.insert(out.end(),
                   {fmt::format("-{}", c), cpulist_inside("schbench", o.word, o.value, placement)});
      continue;
    }
    append_option(out, o);
  }
  if (auto_pin) {
    if (static_cast<std::size_t>(m) > placement.size()) {
      throw ToolArgsError(fmt::format(
          "schbench: argument '-M auto': {} message threads need {} PUs; the placement has {} ({})",
          m, m, placement.size(), format_cpulist(placement)));
    }
    out.insert(out.end(), {"-M", format_cpulist({placement.begin(), placement.begin() + m}), "-W",
                           format_cpulist(placement)});
  }
  out.insert(out.end(), {"-r", std::to_string(window_seconds(run))});
  if (run.schbench_json) out.insert(out.end(), {"-j", "-"});
  return out;
}

}  // namespace schedrig::tools
