// `schedrig token new|list` as a user runs them: the token alone on stdout,
// the note on stderr, a 0600 file serve can load, exit 2 for bad input.
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/auth/token.h"
#include "common/auth/token_set.h"
#include "tests/common/auth/private_files.h"
#include "tests/support/run_command.h"

namespace schedrig {
namespace {

using testing::bin;
using testing::file_mode;
using testing::read_file;
using testing::run_command;
using testing::TempDir;
using testing::write_file;

// Runs `schedrig ARGS` with stderr to DIR/stderr; output is stdout alone.
testing::CommandResult schedrig(const TempDir& dir, const std::string& args) {
  std::string command = "(";
  command.append(bin("schedrig")).append(" ").append(args).append(" 2>").append(dir.file("stderr"));
  return run_command(command + ")");
}

TEST(TokenCli, NewPrintsOnlyTheTokenAndAppendsItsHash) {
  TempDir dir;
  const std::string f = dir.file("tokens");
  const auto agent = schedrig(dir, "token new --agent box1 --tokens " + f);
  ASSERT_EQ(agent.exit_code, 0) << agent.output << read_file(dir.file("stderr"));
  ASSERT_EQ(agent.output.size(), 65u) << agent.output;
  const std::string token = agent.output.substr(0, 64);
  EXPECT_EQ(token.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(agent.output.back(), '\n');
  EXPECT_EQ(read_file(dir.file("stderr")),
            "added agent box1 to " + f + "; this token is shown once\n");
  EXPECT_EQ(file_mode(f), 0600);
  EXPECT_EQ(read_file(f), "agent box1 " + auth::token_sha256_hex(token) + "\n");

  const auto op = schedrig(dir, "token new --operator alice --tokens " + f);
  ASSERT_EQ(op.exit_code, 0) << read_file(dir.file("stderr"));
  const auto set = auth::TokenSet::load_file(f);
  EXPECT_EQ(set.authenticate(token), (auth::Principal{auth::Role::kAgent, "box1"}));
  EXPECT_EQ(set.authenticate(op.output.substr(0, 64)),
            (auth::Principal{auth::Role::kOperator, "alice"}));
}

TEST(TokenCli, ListShowsRolesAndNamesNeverHashes) {
  TempDir dir;
  const std::string f = dir.file("tokens");
  ASSERT_EQ(schedrig(dir, "token new --agent box1 --tokens " + f).exit_code, 0);
  ASSERT_EQ(schedrig(dir, "token new --operator alice --tokens " + f).exit_code, 0);
  const auto text = schedrig(dir, "token list --tokens " + f);
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_EQ(text.output, "agent box1\noperator alice\n");
  const auto json = schedrig(dir, "token list --json --tokens " + f);
  EXPECT_EQ(json.exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(json.output),
            nlohmann::json::parse(R"({"tokens":[{"role":"agent","name":"box1"},
                                                {"role":"operator","name":"alice"}]})"));
}

TEST(TokenCli, BadInputExitsTwoNamingTheProblem) {
  TempDir dir;
  const std::string f = dir.file("tokens");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"token new --agent box1 --operator alice --tokens " + f,
       "schedrig: error: give --agent ID or --operator NAME, not both\n"},
      {"token new --tokens " + f, "schedrig: error: give --agent ID or --operator NAME\n"},
      {"token new --agent 'box 1' --tokens " + f,
       "schedrig: error: invalid name 'box 1': 1..128 chars of A-Z a-z 0-9 . _ -, the first a "
       "letter or digit\n"},
      {"token new --operator a/b --tokens " + f,
       "schedrig: error: invalid name 'a/b': 1..128 chars of A-Z a-z 0-9 . _ -, the first a "
       "letter or digit\n"},
  };
  for (const auto& [args, message] : cases) {
    const auto r = schedrig(dir, args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(r.output, "") << args;
    EXPECT_EQ(read_file(dir.file("stderr")), message) << args;
  }
  EXPECT_EQ(file_mode(f), -1);  // nothing created

  write_file(f, "# readable by all\n", 0644);
  const auto open = schedrig(dir, "token new --agent box1 --tokens " + f);
  EXPECT_EQ(open.exit_code, 2);
  EXPECT_EQ(open.output, "");
  EXPECT_EQ(read_file(dir.file("stderr")),
            "schedrig: error: " + f + ": mode 0644 gives group or others access; chmod 600 it\n");
  EXPECT_EQ(read_file(f), "# readable by all\n");
  const auto list = schedrig(dir, "token list --tokens " + f);
  EXPECT_EQ(list.exit_code, 2);
}

TEST(TokenCli, OutWritesTheTokenToANew0600FileAndNothingToStdout) {
  TempDir dir;
  const std::string f = dir.file("tokens");
  const std::string out = dir.file("box1.token");
  const auto r = schedrig(dir, "token new --agent box1 --tokens " + f + " --out " + out);
  ASSERT_EQ(r.exit_code, 0) << read_file(dir.file("stderr"));
  EXPECT_EQ(r.output, "");
  EXPECT_EQ(read_file(dir.file("stderr")),
            "added agent box1 to " + f + "; the token is in " + out + " (0600)\n");
  EXPECT_EQ(file_mode(out), 0600);
  const std::string token = auth::read_token_file(out);  // the agent's own reader takes it
  EXPECT_EQ(auth::TokenSet::load_file(f).authenticate(token),
            (auth::Principal{auth::Role::kAgent, "box1"}));
}

TEST(TokenCli, OutNeverOverwritesAFileOrFollowsALinkAndAddsNoTokenThen) {
  TempDir dir;
  const std::string f = dir.file("tokens");
  ASSERT_EQ(schedrig(dir, "token new --operator alice --tokens " + f).exit_code, 0);
  const std::string tokens_before = read_file(f);
  const std::string existing = dir.file("old.token");
  write_file(existing, "keep me\n");
  auto r = schedrig(dir, "token new --agent box1 --tokens " + f + " --out " + existing);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(read_file(dir.file("stderr")), "schedrig: error: --out " + existing +
                                               ": cannot create it: File exists (it is never "
                                               "overwritten)\n");
  EXPECT_EQ(read_file(existing), "keep me\n");
  EXPECT_EQ(read_file(f), tokens_before);  // no token made for a file it could not write

  const std::string link = dir.file("planted.token");
  std::filesystem::create_symlink(dir.file("victim"), link);
  r = schedrig(dir, "token new --agent box1 --tokens " + f + " --out " + link);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(dir.file("victim")));
  EXPECT_EQ(read_file(f), tokens_before);
}

TEST(TokenCli, OutIsRemovedWhenTheTokenCannotBeAdded) {
  TempDir dir;
  const std::string out = dir.file("box.token");
  const auto r = schedrig(
      dir, "token new --agent 'bad name' --tokens " + dir.file("tokens") + " --out " + out);
  EXPECT_EQ(r.exit_code, 2) << read_file(dir.file("stderr"));
  EXPECT_FALSE(std::filesystem::exists(out));
}

// A tokens file that cannot take the whole line (here RLIMIT_FSIZE cuts the
// append short after the token file is written; ENOSPC does the same) is
// left as it was, not with half a line serve would refuse, and the token
// file, whose hash never went in, is removed.
TEST(TokenCli, OutAndTheTokensFileAreLeftAsTheyWereWhenTheAppendFails) {
  TempDir dir;
  const std::string f = dir.file("tokens");
  std::string comments;
  while (comments.size() < 1000) comments += "# padding the file close to the 1024-byte limit\n";
  comments.resize(1000);
  comments.back() = '\n';
  write_file(f, comments, 0600);
  const std::string out = dir.file("box1.token");
  const auto limited = run_command("(trap '' XFSZ; prlimit --fsize=1024 -- " + bin("schedrig") +
                                   " token new --agent box1 --tokens " + f + " --out " + out +
                                   " 2>" + dir.file("stderr") + ")");
  EXPECT_EQ(limited.exit_code, 2);
  EXPECT_NE(read_file(dir.file("stderr")).find(f + ": cannot write: File too large"),
            std::string::npos)
      << read_file(dir.file("stderr"));
  EXPECT_EQ(read_file(f), comments);
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace schedrig
