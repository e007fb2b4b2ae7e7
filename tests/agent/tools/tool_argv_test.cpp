// split_tool_args: shell word splitting without a shell (agent/tools/tool_argv.h).
#include "agent/tools/tool_argv.h"

#include <gtest/gtest.h>

#include "agent/tools/tool_error.h"

namespace schedrig::tools {
namespace {

using Words = std::vector<std::string>;

std::string error_of(const std::string& args) {
  try {
    split_tool_args("schbench", args);
  } catch (const ToolArgsError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ToolArgv, SplitsAtBlanksLikeAShell) {
  EXPECT_EQ(split_tool_args("schbench", "-L -m 4 -M auto -t 256 -n 0 -s 0"),
            (Words{"-L", "-m", "4", "-M", "auto", "-t", "256", "-n", "0", "-s", "0"}));
  EXPECT_EQ(split_tool_args("x", "  a\t\tb  "), (Words{"a", "b"}));
  EXPECT_TRUE(split_tool_args("x", "").empty());
  EXPECT_TRUE(split_tool_args("x", " \t ").empty());
}

TEST(ToolArgv, QuotesAndBackslashesAreAShells) {
  EXPECT_EQ(split_tool_args("x", R"('a b' "c d" e\ f)"), (Words{"a b", "c d", "e f"}));
  EXPECT_EQ(split_tool_args("x", R"("say \"hi\" \\ \n")"), (Words{R"(say "hi" \ \n)"}));
  EXPECT_EQ(split_tool_args("x", R"('it''s' a"b"'c')"), (Words{"its", "abc"}));
  EXPECT_EQ(split_tool_args("x", R"('' "")"), (Words{"", ""}));
  EXPECT_EQ(split_tool_args("x", R"('\')"), (Words{"\\"}));  // no escape inside '...'
}

TEST(ToolArgv, ShellSyntaxIsKeptLiterally) {
  EXPECT_EQ(split_tool_args("x", "$(reboot) `id` ; rm -rf / | cat > /etc/x &"),
            (Words{"$(reboot)", "`id`", ";", "rm", "-rf", "/", "|", "cat", ">", "/etc/x", "&"}));
  EXPECT_EQ(split_tool_args("x", "~ * $HOME"), (Words{"~", "*", "$HOME"}));
}

TEST(ToolArgv, RefusesWhatCannotBeSplitNamingTheTool) {
  EXPECT_EQ(error_of("-m 'four"), "schbench: args: a ' quote is never closed");
  EXPECT_EQ(error_of("-m \"four"), "schbench: args: a \" quote is never closed");
  EXPECT_EQ(error_of("-m 4 \\"), "schbench: args: a backslash ends the arguments");
  EXPECT_EQ(error_of("-m 4\n-t 2"),
            "schbench: args: control character \\n at byte 4 in '-m 4\\n-t 2'");
  EXPECT_EQ(error_of(std::string("-m\0x", 4)),
            "schbench: args: control character \\x00 at byte 2 in '-m\\x00x'");
  // A C1 control (U+009B, CSI) is refused; other UTF-8 passes.
  EXPECT_NE(error_of("-J \xc2\x9b"
                     "2J")
                .find("control character"),
            std::string::npos);
  EXPECT_EQ(split_tool_args("schbench", "-J caf\xc3\xa9").size(), 2u);
  // A raw 8-bit CSI, an overlong form, a right-to-left override.
  for (const char* bad : {"-J \x9b"
                          "2J",
                          "-J \xe0\x82\x9b",
                          "-J a\xe2\x80\xae"
                          "b"}) {
    EXPECT_NE(error_of(bad).find("an invisible, bidi or ill-formed character"), std::string::npos)
        << error_of(bad);
  }
  EXPECT_EQ(split_tool_args("schbench", "-J 'a\tb' c\\ d").size(), 3u);
}

TEST(ToolArgv, BoundsBytesAndWords) {
  EXPECT_EQ(split_tool_args("x", std::string(kMaxToolArgsBytes, 'a')).size(), 1u);
  EXPECT_EQ(error_of(std::string(kMaxToolArgsBytes + 1, 'a')),
            "schbench: args: 4097 bytes; at most 4096");
  std::string many;
  for (std::size_t i = 0; i < kMaxToolArgs; ++i) many += "a ";
  EXPECT_EQ(split_tool_args("x", many).size(), kMaxToolArgs);
  EXPECT_EQ(error_of(many + "b"), "schbench: args: more than 256 arguments");
}

}  // namespace
}  // namespace schedrig::tools
