// stress_ng_command: stress-ng's args read conservatively, what schedrig
// owns refused by name or by any getopt_long prefix, --taskset inside the
// placement (agent/tools/stress_ng_command.h).
#include <gtest/gtest.h>

#include "agent/tools/stress_ng_command.h"
#include "agent/tools/tool_argv.h"
#include "agent/tools/tool_error.h"

namespace schedrig::tools {
namespace {

using namespace std::chrono_literals;
using Strings = std::vector<std::string>;

ToolRunSpec spec(std::vector<int> cpus, std::chrono::nanoseconds d = 10s,
                 std::string dir = "/tmp/schedrig-stress-ng-abc") {
  ToolRunSpec s;
  s.cpus = std::move(cpus);
  s.duration = d;
  s.work_dir = std::move(dir);
  return s;
}

Strings command(const std::string& args, const ToolRunSpec& run = spec({0, 1, 2, 3})) {
  return stress_ng_command(split_tool_args("stress-ng", args), run);
}

std::string error_of(const std::string& args, const ToolRunSpec& run = spec({0, 1, 2, 3})) {
  try {
    command(args, run);
  } catch (const ToolArgsError& e) {
    return e.what();
  }
  return "(no error)";
}

const Strings kTail = {"--timeout", "10s", "--metrics-brief", "--temp-path",
                       "/tmp/schedrig-stress-ng-abc"};

Strings with_tail(Strings head) {
  head.insert(head.end(), kTail.begin(), kTail.end());
  return head;
}

TEST(StressNgCommand, TheSeedsForkStormPassesThroughAndSchedrigAddsTimeMetricsAndTempPath) {
  EXPECT_EQ(command("--fork 4 --fork-max 16"), with_tail({"--fork", "4", "--fork-max", "16"}));
  EXPECT_EQ(command("-f 4 --fork-vm"), with_tail({"-f", "4", "--fork-vm"}));
  EXPECT_EQ(command("-c4 -kM --cpu-method=matrixprod"),
            with_tail({"-c4", "-kM", "--cpu-method=matrixprod"}));
  // A value taken from the next word is never read as an option.
  EXPECT_EQ(command("-x -t"), with_tail({"-x", "-t"}));
  EXPECT_EQ(command("--nice -5"), with_tail({"--nice", "-5"}));
}

TEST(StressNgCommand, TheTimeoutIsTheWindowInWholeSecondsAtLeastOne) {
  EXPECT_EQ(command("--fork 1", spec({0}, 2500ms, "")),
            (Strings{"--fork", "1", "--timeout", "3s", "--metrics-brief"}));
  EXPECT_EQ(command("--fork 1", spec({0}, 10ms, ""))[3], "1s");
}

TEST(StressNgCommand, RefusesWhatSchedrigOwnsByNameByLetterAndByPrefix) {
  EXPECT_EQ(error_of("--fork 4 -t 5"),
            "stress-ng: argument '-t': the run time is schedrig's (the plan's duration_s); "
            "leave it out");
  EXPECT_EQ(error_of("--timeout=5"),
            "stress-ng: argument '--timeout=5': the run time is schedrig's (the plan's "
            "duration_s); leave it out");
  EXPECT_EQ(error_of("--time 5"),
            "stress-ng: argument '--time': it could name --timeout (getopt_long takes a unique "
            "prefix): the run time is schedrig's (the plan's duration_s); leave it out");
  EXPECT_EQ(error_of("-kt5"),
            "stress-ng: argument '-kt5': -t: the run time is schedrig's (the plan's duration_s); "
            "leave it out");
  EXPECT_NE(error_of("--yaml /etc/cron.d/x").find("output, log and job files are schedrig's"),
            std::string::npos);
  EXPECT_NE(error_of("--log-f=/root/.bashrc").find("it could name --log-file"), std::string::npos);
  EXPECT_NE(error_of("-Y out").find("-Y: output, log"), std::string::npos);
  EXPECT_NE(error_of("-j job").find("-j: output, log"), std::string::npos);
  EXPECT_NE(error_of("--temp-path /").find("output, log and job files"), std::string::npos);
  EXPECT_NE(error_of("--fork 2 -q").find("'-q': it changes the report schedrig reads"),
            std::string::npos);
  EXPECT_NE(error_of("--seq 4").find("could name --sequential"), std::string::npos);
  EXPECT_NE(error_of("-a 1").find("not one benchmark run"), std::string::npos);
  EXPECT_NE(error_of("--fork 1 --sched fifo").find("scheduling policy is not the tool's"),
            std::string::npos);
  EXPECT_NE(error_of("--fork 1 --sched-prio 50").find("scheduling policy"), std::string::npos);
  EXPECT_NE(error_of("--ignite-cpu").find("kernel controls"), std::string::npos);
  EXPECT_NE(error_of("--mbind 1").find("membind"), std::string::npos);
  // A prefix of a refused option is refused even when stress-ng would call
  // it ambiguous: the safe side.
  EXPECT_NE(error_of("--t 5").find("could name --timeout"), std::string::npos);
}

TEST(StressNgCommand, RefusesUnknownLettersMissingValuesAndOperands) {
  EXPECT_EQ(error_of("-Z"), "stress-ng: argument '-Z': -Z is not a stress-ng option");
  EXPECT_EQ(error_of("--fork 1 -c"), "stress-ng: argument '-c': no value follows it");
  EXPECT_EQ(error_of("--fork 1 -- --timeout 5"),
            "stress-ng: argument '--': stress-ng takes no operands");
}

TEST(StressNgCommand, TasksetMustLieInsideThePlacement) {
  EXPECT_EQ(command("--fork 2 --taskset 1,2", spec({0, 1, 2, 3}, 1s, "")),
            (Strings{"--fork", "2", "--taskset", "1-2", "--timeout", "1s", "--metrics-brief"}));
  EXPECT_EQ(command("--fork 2 --tasks=2-3", spec({2, 3}, 1s, ""))[3], "2-3");
  EXPECT_EQ(error_of("--fork 2 --taskset 0-7", spec({4, 5, 6, 7})),
            "stress-ng: argument '--taskset': CPU 0 is outside the placement's cpulist 4-7");
  EXPECT_EQ(error_of("--fork 2 --taskset"), "stress-ng: argument '--taskset': no cpulist");
  EXPECT_NE(error_of("--fork 2 --taskset=odd").find("stress-ng: argument '--taskset=odd': "),
            std::string::npos);
}

}  // namespace
}  // namespace schedrig::tools
