// read_options: a tool's argv as glibc getopt_long reads it (agent/tools/tool_options.h).
#include "agent/tools/tool_options.h"

#include <gtest/gtest.h>

#include "agent/tools/tool_error.h"

namespace schedrig::tools {
namespace {

const std::vector<OptionSpec> kSpecs = {{'m', "message-threads", true},
                                        {'M', "message-cpus", true},
                                        {'L', "no-locking", false},
                                        {'r', "runtime", true},
                                        {'R', "rps", true}};

// "name=value" per option, by its long name.
std::vector<std::string> read(const std::vector<std::string>& argv) {
  std::vector<std::string> out;
  for (const GivenOption& o : read_options("schbench", argv, kSpecs)) {
    out.push_back(std::string(o.spec->long_name) + "=" + o.value);
  }
  return out;
}

std::string error_of(const std::vector<std::string>& argv) {
  try {
    read_options("schbench", argv, kSpecs);
  } catch (const ToolArgsError& e) {
    return e.what();
  }
  return "(no error)";
}

using Strings = std::vector<std::string>;

TEST(ToolOptions, ShortLongClustersAndValuesAsGetoptLong) {
  EXPECT_EQ(read({"-m", "4", "-m4", "-Lm", "2", "-Lm8"}),
            (Strings{"message-threads=4", "message-threads=4", "no-locking=", "message-threads=2",
                     "no-locking=", "message-threads=8"}));
  EXPECT_EQ(read({"--message-threads=4", "--message-threads", "5", "--no-locking"}),
            (Strings{"message-threads=4", "message-threads=5", "no-locking="}));
  EXPECT_EQ(read({"-M", "auto", "--message-cpus=0-3"}),
            (Strings{"message-cpus=auto", "message-cpus=0-3"}));
  EXPECT_TRUE(read({}).empty());
  EXPECT_TRUE(read({"--"}).empty());
}

TEST(ToolOptions, AUniqueLongPrefixIsThatOption) {
  // getopt_long takes "--run=5" as --runtime: an adapter must see it as such.
  EXPECT_EQ(read({"--run=5"}), (Strings{"runtime=5"}));
  EXPECT_EQ(read({"--message-c", "1"}), (Strings{"message-cpus=1"}));
  EXPECT_EQ(error_of({"--message=4"}),
            "schbench: argument '--message=4': ambiguous: it begins more than one option's name");
  EXPECT_EQ(error_of({"--r=4"}),
            "schbench: argument '--r=4': ambiguous: it begins more than one option's name");
}

TEST(ToolOptions, RefusesWhatTheTableDoesNotAllow) {
  EXPECT_EQ(error_of({"-x"}),
            "schbench: argument '-x': -x is not an option schedrig lets this tool take");
  EXPECT_EQ(error_of({"-Lx"}),
            "schbench: argument '-Lx': -x is not an option schedrig lets this tool take");
  EXPECT_EQ(error_of({"--json=/etc/passwd"}),
            "schbench: argument '--json=/etc/passwd': not an option schedrig lets this tool take");
  EXPECT_EQ(error_of({"-m"}), "schbench: argument '-m': needs a value");
  EXPECT_EQ(error_of({"--runtime"}), "schbench: argument '--runtime': needs a value");
  EXPECT_EQ(error_of({"--no-locking=1"}), "schbench: argument '--no-locking=1': takes no value");
  EXPECT_EQ(error_of({"4"}), "schbench: argument '4': not an option (operands are not taken)");
  EXPECT_EQ(error_of({"-", "-L"}),
            "schbench: argument '-': not an option (operands are not taken)");
  EXPECT_EQ(error_of({"--", "-r", "5"}), "schbench: argument '-r': operands are not taken");
  EXPECT_EQ(error_of({"-\x1b[2J"}),
            "schbench: argument '-\\e[2J': -\\e is not an option schedrig lets this tool take");
}

TEST(ToolOptions, NamesOptionsLongFirst) {
  EXPECT_EQ(option_name(kSpecs[0]), "--message-threads");
  EXPECT_EQ(option_name(OptionSpec{'l', nullptr, true}), "-l");
}

}  // namespace
}  // namespace schedrig::tools
