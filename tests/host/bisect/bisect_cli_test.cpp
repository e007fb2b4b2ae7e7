// `schedrig bisect-knobs` refuses bad input with exit 2 and a message that
// names the flag and the value, before any probe runs.
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "tests/support/run_command.h"

namespace schedrig {
namespace {

using testing::TempDir;

struct Result {
  int exit_code;
  std::string stderr_text;
};

Result bisect(const TempDir& dir, const std::string& args) {
  const auto r = testing::run_command("(SCHEDRIG_STATE_DIR=" + dir.file("state") + " " +
                                      testing::bin("schedrig") + " bisect-knobs --db " +
                                      dir.file("db") + " " + args + " 2>" + dir.file("err") + ")");
  std::ifstream in(dir.file("err"));
  return {r.exit_code, std::string(std::istreambuf_iterator<char>(in), {})};
}

TEST(BisectCli, BadInputIsExit2NamingTheFlagAndValue) {
  TempDir dir;
  const std::string plan = dir.file("p.yaml");
  std::ofstream(plan) << "duration_s: 0.1\ncases: [{workload: kv}, {workload: fork}]\n";
  auto r = bisect(dir, "--plan " + plan);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.stderr_text, "schedrig: error: " + plan + " has 2 cases: name one with --case\n");
  r = bisect(dir, "--plan " + plan + " --case nosuch");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.stderr_text,
            "schedrig: error: --case: the plan has no case 'nosuch' (it has: kv, fork)\n");
  r = bisect(dir, "--plan " + plan + " --case kv --max-iterations 2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.stderr_text,
            "schedrig: error: --min-iterations 5, --max-iterations 2, --delta 2: max 2: from min "
            "(5) to 200 pairs\n");
  r = bisect(dir, "--plan " + plan + " --case kv --target deadbeef");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.stderr_text.rfind("schedrig: error: --target deadbeef: 0 runs in ", 0), 0u)
      << r.stderr_text;
  r = bisect(dir, "--plan " + plan + " --case kv --target :flipped");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.stderr_text,
            "schedrig: error: --target :flipped: RUN[:VARIANT] starts with a run id or its prefix "
            "(lowercase hex and '-', 1-36 characters), not ''\n");
  r = bisect(dir, "--plan " + plan + " --case kv --target \"$(printf 'ab\\033[31m')\"");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.stderr_text.find("--target ab\\e[31m: RUN[:VARIANT]"), std::string::npos)
      << r.stderr_text;  // escaped once, never raw
  EXPECT_EQ(r.stderr_text.find('\x1b'), std::string::npos) << r.stderr_text;
  r = bisect(dir, "--plan " + plan + " --case kv --target ''");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.stderr_text.find("--target"), std::string::npos) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("empty"), std::string::npos) << r.stderr_text;
  r = bisect(dir, "--plan " + plan + " --case kv --state-dir ''");
  EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
  // A search that never started says nothing of the box, only the error.
  r = bisect(dir, "--plan " + plan + " --case kv --candidates NOSUCH_KNOB");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.stderr_text,
            "schedrig: error: --candidates NOSUCH_KNOB: not features, sysctls, tunables, all, or a "
            "knob this box has\n");
  r = bisect(dir, "--plan " + plan + " --case kv --agent /bin/true");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.stderr_text.find("/bin/true knobs list --json printed no knobs list"),
            std::string::npos)
      << r.stderr_text;
}

}  // namespace
}  // namespace schedrig
