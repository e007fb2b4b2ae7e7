#include "agent/tools/hackbench_command.h"

#include <fmt/format.h>

#include "agent/tools/tool_options.h"

namespace schedrig::tools {
namespace {

// hackbench.c's long options (rt-tests 2.4).
const std::vector<OptionSpec> kHackbenchOptions = {
    {'f', "fds", true},      {'F', "fifo", false},   {'g', "groups", true}, {'h', "help", false},
    {'l', "loops", true},    {'p', "pipe", false},   {'i', "inet", false},  {'s', "datasize", true},
    {'T', "threads", false}, {'P', "process", false}};

std::string owned_reason(char option) {
  switch (option) {
    case 'l':
      return fmt::format(
          "the loop count is schedrig's (each run passes {} loops; runs repeat until the window "
          "closes); leave it out",
          kHackbenchLoops);
    case 'F':
      return "a SCHED_FIFO main thread: scheduling policy is the plan's to set, never a tool's";
    case 'h':
      return "not a benchmark run";
    default:
      return "";
  }
}

}  // namespace

std::vector<std::string> hackbench_command(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  const std::vector<GivenOption> given = read_options("hackbench", args, kHackbenchOptions);
  // Each group: fds senders and fds receivers (hackbench's defaults 10 and 20).
  const long groups = option_number("hackbench", given, 'g', 1, kMaxToolTasks, 10);
  const long fds = option_number("hackbench", given, 'f', 1, kMaxToolTasks, 20);
  check_task_count("hackbench", fmt::format("-g {} -f {}", groups, fds), groups * fds * 2LL);
  for (const GivenOption& o : given) {
    if (const std::string why = owned_reason(o.spec->short_name); !why.empty()) {
      refuse_argument("hackbench", o.word, why);
    }
    append_option(out, o);
  }
  out.insert(out.end(), {"-l", std::to_string(kHackbenchLoops)});
  return out;
}

}  // namespace schedrig::tools
