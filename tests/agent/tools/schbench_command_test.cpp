// schbench_command: a case's schbench args as schedrig runs them
// (agent/tools/schbench_command.h).
#include "agent/tools/schbench_command.h"

#include <gtest/gtest.h>

#include "agent/tools/tool_argv.h"
#include "agent/tools/tool_error.h"

namespace schedrig::tools {
namespace {

using namespace std::chrono_literals;
using Strings = std::vector<std::string>;

ToolRunSpec run_on(std::vector<int> cpus, std::chrono::nanoseconds d = 4s, bool json = false) {
  return {std::move(cpus), d, json};
}

Strings command(const std::string& args, const ToolRunSpec& run) {
  return schbench_command(split_tool_args("schbench", args), run);
}

std::string error_of(const std::string& args, const ToolRunSpec& run) {
  try {
    command(args, run);
  } catch (const ToolArgsError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SchbenchCommand, TheSeedsArgsWithAutoPinningInsideThePlacement) {
  // The seed: schbench -L -m 4 -M auto -t 256 -n 0 -s 0, here on PUs 8-15.
  EXPECT_EQ(command("-L -m 4 -M auto -t 256 -n 0 -s 0", run_on({8, 9, 10, 11, 12, 13, 14, 15})),
            (Strings{"-L", "-m", "4", "-t", "256", "-n", "0", "-s", "0", "-M", "8-11", "-W", "8-15",
                     "-r", "4"}));
  // -W auto alone pins the message threads too, as schbench does.
  EXPECT_EQ(command("-m 2 --worker-cpus=auto", run_on({3, 1, 2, 0}, 2500ms, true)),
            (Strings{"-m", "2", "-M", "0-1", "-W", "0-3", "-r", "3", "-j", "-"}));
}

TEST(SchbenchCommand, ExplicitCpusMustLieInsideThePlacement) {
  EXPECT_EQ(command("-M 1 -W 2-3", run_on({0, 1, 2, 3})),
            (Strings{"-M", "1", "-W", "2-3", "-r", "4"}));
  EXPECT_EQ(command("--message-cpus=0,1", run_on({0, 1})), (Strings{"-M", "0-1", "-r", "4"}));
  EXPECT_EQ(error_of("-M 0 -W 4-7", run_on({0, 1, 2, 3})),
            "schbench: argument '-W': CPU 4 is outside the placement's cpulist 0-3");
  EXPECT_NE(error_of("-M x", run_on({0})).find("schbench: argument '-M': "), std::string::npos);
  EXPECT_EQ(error_of("-M 4 -m 8 -M auto", run_on({0, 1, 2, 3})),
            "schbench: argument '-M auto': 8 message threads need 8 PUs; the placement has 4 "
            "(0-3)");
}

TEST(SchbenchCommand, RefusesWhatSchedrigOwnsNamingIt) {
  EXPECT_EQ(error_of("-r 30", run_on({0})),
            "schbench: argument '-r': the run time is schedrig's (the plan's duration_s); leave "
            "it out");
  EXPECT_EQ(error_of("--run=30", run_on({0})),
            "schbench: argument '--run=30': the run time is schedrig's (the plan's duration_s); "
            "leave it out");
  EXPECT_EQ(error_of("-j /etc/cron.d/x", run_on({0})),
            "schbench: argument '-j': output files are schedrig's; it reads schbench's report "
            "itself");
  EXPECT_EQ(error_of("-LC", run_on({0})),
            "schbench: argument '-LC': a calibration run is not a benchmark run");
  EXPECT_EQ(error_of("--help", run_on({0})), "schbench: argument '--help': not a benchmark run");
  EXPECT_EQ(error_of("-m 0", run_on({0})),
            "schbench: argument '-m': '0': must be a whole number in [1, 16384]");
  EXPECT_EQ(error_of("-q", run_on({0})),
            "schbench: argument '-q': -q is not an option schedrig lets this tool take");
}

// A plan cannot start more tasks than the built-in workload may (pid_max).
TEST(SchbenchCommand, ThreadsAreBounded) {
  EXPECT_EQ(error_of("-m 65536 -t 1000000", run_on({0})),
            "schbench: argument '-m': '65536': must be a whole number in [1, 16384]");
  EXPECT_EQ(error_of("-m 4 -t 8000", run_on({0})),
            "schbench: arguments -m 4 -t 8000 make 32004 tasks: at most 16384");
  EXPECT_EQ(error_of("-m 4 -t 4095", run_on({0})), "(no error)");
}

TEST(SchbenchCommand, TheRunTimeIsTheWindowInWholeSecondsAtLeastOne) {
  EXPECT_EQ(command("", run_on({0}, 100ms)), (Strings{"-r", "1"}));
  EXPECT_EQ(command("", run_on({0}, 30s)), (Strings{"-r", "30"}));
  EXPECT_EQ(command("--split 50 -p 4096", run_on({0}, 30s)),
            (Strings{"--split", "50", "-p", "4096", "-r", "30"}));
}

}  // namespace
}  // namespace schedrig::tools
