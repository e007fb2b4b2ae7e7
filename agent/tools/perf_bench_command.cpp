#include "agent/tools/perf_bench_command.h"

#include <fmt/format.h>

#include "agent/tools/tool_options.h"

namespace schedrig::tools {
namespace {

// sched-messaging.c and sched-pipe.c option tables (6.1; -G and -n from later ones).
const std::vector<OptionSpec> kMessagingOptions = {{'g', "group", true},
                                                   {'l', "nr_loops", true},
                                                   {'p', "pipe", false},
                                                   {'t', "thread", false},
                                                   {'h', "help", false}};
const std::vector<OptionSpec> kPipeOptions = {{'l', "loop", true},
                                              {'T', "threaded", false},
                                              {'G', "cgroups", true},
                                              {'n', "nonblocking", false},
                                              {'h', "help", false}};

std::string owned_reason(char option, int loops) {
  switch (option) {
    case 'l':
      return fmt::format(
          "the loop count is schedrig's (each run does {}; runs repeat until the window closes); "
          "leave it out",
          loops);
    case 'G':
      return "where the tasks run is the placement's, not a cgroup's";
    case 'h':
      return "not a benchmark run";
    default:
      return "";
  }
}

}  // namespace

std::vector<std::string> perf_bench_command(const std::vector<std::string>& args) {
  const std::string bench = args.empty() ? "" : args[0];
  if (bench != "messaging" && bench != "pipe") {
    refuse_argument("perf-bench-sched", bench,
                    "the first argument names the benchmark: messaging or pipe");
  }
  const bool pipe = bench == "pipe";
  const int loops = pipe ? kPerfPipeLoops : kPerfMessagingLoops;
  std::vector<std::string> out = {"bench", "sched", bench};
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  const std::vector<GivenOption> given =
      read_options("perf-bench-sched", rest, pipe ? kPipeOptions : kMessagingOptions);
  if (!pipe) {  // messaging: 20 senders and 20 receivers a group, 10 groups by default
    const long groups = option_number("perf-bench-sched", given, 'g', 1, kMaxToolTasks, 10);
    check_task_count("perf-bench-sched", "-g " + std::to_string(groups), groups * 40LL);
  }
  for (const GivenOption& o : given) {
    if (const std::string why = owned_reason(o.spec->short_name, loops); !why.empty()) {
      refuse_argument("perf-bench-sched", o.word, why);
    }
    append_option(out, o);
  }
  out.insert(out.end(), {"-l", std::to_string(loops)});
  return out;
}

}  // namespace schedrig::tools
