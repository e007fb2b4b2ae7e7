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
  EXPECT_EQ(command("--sem-sysv 2 --sem-sysv-ops 100 --switch=2 --seed -5 --metrics"),
            with_tail({"--sem-sysv", "2", "--sem-sysv-ops", "100", "--switch=2", "--seed", "-5",
                       "--metrics"}));
  EXPECT_EQ(command("--pipeherd 2 -kc 1"), with_tail({"--pipeherd", "2", "-kc", "1"}));
}

TEST(StressNgCommand, TheTimeoutIsTheWindowInWholeSecondsAtLeastOne) {
  EXPECT_EQ(command("--fork 1", spec({0}, 2500ms, "")),
            (Strings{"--fork", "1", "--timeout", "3s", "--metrics-brief"}));
  EXPECT_EQ(command("--fork 1", spec({0}, 10ms, ""))[3], "1s");
}

// Only the listed stressors and options pass: stress-ng has some two
// thousand options, among them ones that load code (--plugin-so), change
// scheduling policy (--softlockup, --schedpolicy), kernel state (--swap,
// --ramfs) or affinity (--affinity, --cache), touch devices (--dev).
TEST(StressNgCommand, OnlyTheAllowedStressorsAndOptionsPass) {
  const std::string not_allowed =
      "not an option schedrig lets stress-ng take (stressors and options: docs/workloads.md "
      "\"External tools\")";
  for (const char* args : {"--plugin 1 --plugin-so /tmp/evil.so",
                           "--softlockup 1",
                           "--schedpolicy 1",
                           "--schedmix 1",
                           "--swap 1",
                           "--ramfs 2",
                           "--loop 1",
                           "--dev 1",
                           "--dev-file /dev/sda",
                           "--affinity 1",
                           "--cache 1",
                           "--numa 1",
                           "--cyclic 1",
                           "--hrtimers 1",
                           "--sock 1",
                           "--vm 1",
                           "--thrash",
                           "--ionice-class realtime",
                           "--aggressive",
                           "--sched fifo",
                           "--mbind 1",
                           "--ignite-cpu",
                           "--pathological",
                           "--yaml out",
                           "--log-file f",
                           "--job j",
                           "--temp-path /",
                           "--sequential 4",
                           "--all 1",
                           "--class cpu",
                           "--fo 4",
                           "--forkk 4"}) {
    const std::string e = error_of(args);
    EXPECT_NE(e.find(not_allowed), std::string::npos) << args << ": " << e;
  }
  // The run time gets its own reason, in every spelling.
  for (const char* args : {"--fork 1 -t 5", "-kt5", "--timeout 5", "--time=5", "--tim 5"}) {
    EXPECT_NE(error_of(args).find("the run time is schedrig's (the plan's duration_s)"),
              std::string::npos)
        << args;
  }
  EXPECT_EQ(error_of("-q"),
            "stress-ng: argument '-q': -q is not an option schedrig lets stress-ng take");
  EXPECT_EQ(error_of("-?"),
            "stress-ng: argument '-?': -? is not an option schedrig lets stress-ng take");
}

// At most 16384 tasks: instances (0 = one per CPU) times each stressor's
// tasks per instance (its -max/-procs/-threads option, else stress-ng's
// default), summed over the stressors.
TEST(StressNgCommand, TasksAreBoundedAcrossStressorsAndTheirCountOptions) {
  EXPECT_EQ(error_of("--fork 1024 --fork-max 16000"),
            "stress-ng: arguments --fork 1024 make 16385024 tasks: at most 16384");
  EXPECT_EQ(error_of("--pthread 32"),  // stress-ng's default: 1024 pthreads a worker
            "stress-ng: arguments --pthread 32 make 32800 tasks: at most 16384");
  EXPECT_EQ(command("--pthread 4 --pthread-max 64")[0], "--pthread");
  EXPECT_EQ(error_of("-f 9000 -c 9000"),
            "stress-ng: arguments --cpu 9000 --fork 9000 make 27000 tasks: at most 16384");
  EXPECT_EQ(error_of("--sem 1 --sem-procs 65"),
            "stress-ng: argument '--sem-procs': '65': must be a whole number in [1, 64]");
  EXPECT_EQ(error_of("--fork=x"),
            "stress-ng: argument '--fork=x': 'x': must be a whole number in [0, 16384]");
}

TEST(StressNgCommand, OperandsAndMissingValuesAreRefused) {
  EXPECT_EQ(error_of("--fork 1 -c"), "stress-ng: argument '-c': no value follows it");
  EXPECT_EQ(error_of("--fork"), "stress-ng: argument '--fork': no value follows it");
  EXPECT_EQ(error_of("--fork 1 -- --timeout 5"),
            "stress-ng: argument '--': stress-ng takes no operands");
  EXPECT_EQ(error_of("--fork 1 --metrics extra"),
            "stress-ng: argument 'extra': not an option (operands are not taken)");
  EXPECT_EQ(error_of("--fork 1 --metrics=1"), "stress-ng: argument '--metrics=1': takes no value");
}

// Exact names only: a prefix a stressor's own option shares with another
// stressor or option (--matrix-3d, --cpu-online, --timer-slack) is refused.
TEST(StressNgCommand, NamesMustBeExact) {
  for (const char* args :
       {"--matrix-3d 1100", "--cpu-online 4", "--cpu-online-all", "--timer-slack 1000",
        "--fork-m 4", "--mutex 1", "--mutex-affinity", "--spawn 1", "--epoll 1", "--tasks=0"}) {
    EXPECT_NE(error_of(args).find("not an option schedrig lets stress-ng take"), std::string::npos)
        << args << ": " << error_of(args);
  }
}

TEST(StressNgCommand, TasksetMustLieInsideThePlacement) {
  EXPECT_EQ(command("--fork 2 --taskset 1,2", spec({0, 1, 2, 3}, 1s, "")),
            (Strings{"--fork", "2", "--taskset", "1-2", "--timeout", "1s", "--metrics-brief"}));
  EXPECT_EQ(command("--fork 2 --taskset=2-3", spec({2, 3}, 1s, ""))[3], "2-3");
  EXPECT_EQ(error_of("--fork 2 --taskset 0-7", spec({4, 5, 6, 7})),
            "stress-ng: argument '--taskset': CPU 0 is outside the placement's cpulist 4-7");
  EXPECT_EQ(error_of("--fork 2 --taskset"), "stress-ng: argument '--taskset': no value follows it");
  EXPECT_NE(error_of("--fork 2 --taskset=odd").find("stress-ng: argument '--taskset=odd': "),
            std::string::npos);
}

}  // namespace
}  // namespace schedrig::tools
