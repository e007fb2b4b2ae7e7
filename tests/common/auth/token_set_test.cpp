// common/auth/token_set.h: the tokens file (good and bad lines with their
// numbers, bounds, rotation), authenticate, add, append_new_token.
#include "common/auth/token_set.h"

#include <unistd.h>

#include <gtest/gtest.h>

#include "common/auth/token.h"
#include "common/error.h"
#include "tests/common/auth/private_files.h"
#include "tests/support/run_command.h"

namespace schedrig::auth {
namespace {

using testing::file_mode;
using testing::read_file;
using testing::TempDir;
using testing::write_file;

// The message of the schedrig::Error(kUsage) that `f` throws.
template <typename F>
std::string refusal(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    return e.what();
  }
  ADD_FAILURE() << "accepted";
  return "";
}

std::string line(const char* role, const char* name, const std::string& token) {
  return std::string(role) + " " + name + " " + token_sha256_hex(token) + "\n";
}

TEST(TokenSet, LoadsCommentsBlankLinesCrlfAndTabs) {
  TempDir dir;
  const std::string f = dir.file("tokens");
  write_file(f, "# schedrig tokens\n\n" + line("agent", "box1", "t-box1") + "   # indented\n" +
                    "operator\talice\t" + token_sha256_hex("t-alice") + "\r\n \n");
  const TokenSet set = TokenSet::load_file(f);
  EXPECT_EQ(set.size(), 2u);
  EXPECT_EQ(set.authenticate("t-box1"), (Principal{Role::kAgent, "box1"}));
  EXPECT_EQ(set.authenticate("t-alice"), (Principal{Role::kOperator, "alice"}));
  EXPECT_EQ(set.principals(),
            (std::vector<Principal>{{Role::kAgent, "box1"}, {Role::kOperator, "alice"}}));
}

TEST(TokenSet, AuthenticateWrongEmptyAndOtherRole) {
  TokenSet set;
  set.add(Role::kAgent, "box1", "agent-secret");
  set.add(Role::kOperator, "box1", "operator-secret");  // same name, other role
  EXPECT_EQ(set.authenticate("agent-secret"), (Principal{Role::kAgent, "box1"}));
  EXPECT_EQ(set.authenticate("operator-secret"), (Principal{Role::kOperator, "box1"}));
  EXPECT_EQ(set.authenticate("agent-secreT"), std::nullopt);
  EXPECT_EQ(set.authenticate(""), std::nullopt);
  EXPECT_EQ(set.authenticate(token_sha256_hex("agent-secret")),
            std::nullopt);  // the hash is no token
  EXPECT_EQ(TokenSet().authenticate("agent-secret"), std::nullopt);
}

TEST(TokenSet, SeveralTokensPerNameForRotation) {
  TempDir dir;
  const std::string f = dir.file("tokens");
  write_file(f, line("agent", "box1", "old") + line("agent", "box1", "new"));
  const TokenSet set = TokenSet::load_file(f);
  EXPECT_EQ(set.size(), 2u);
  EXPECT_EQ(set.authenticate("old"), (Principal{Role::kAgent, "box1"}));
  EXPECT_EQ(set.authenticate("new"), (Principal{Role::kAgent, "box1"}));
}

TEST(TokenSet, BadLinesNameFileLineAndReason) {
  TempDir dir;
  const std::string f = dir.file("tokens");
  const std::string good = line("agent", "box1", "t1");
  const std::string hash = token_sha256_hex("t2");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"agent box2\n", ":2: expected 'agent|operator NAME SHA256HEX', got 2 fields"},
      {"agent box2 " + hash + " extra\n",
       ":2: expected 'agent|operator NAME SHA256HEX', got 4 fields"},
      {"admin box2 " + hash + "\n", ":2: unknown role 'admin' (agent or operator)"},
      {"Agent box2 " + hash + "\n", ":2: unknown role 'Agent' (agent or operator)"},
      {"agent -box2 " + hash + "\n",
       ":2: invalid name '-box2': 1..128 chars of A-Z a-z 0-9 . _ -, the first a letter or digit"},
      {"agent box2 " + hash.substr(1) + "\n",
       ":2: the hash is not 64 lowercase hex chars (sha256 of the token)"},
      {"agent box2 " + std::string(64, 'A') + "\n",
       ":2: the hash is not 64 lowercase hex chars (sha256 of the token)"},
      {"operator alice " + token_sha256_hex("t1") + "\n", ":2: the same hash as line 1"},
  };
  for (const auto& [bad, reason] : cases) {
    write_file(f, good + bad + good);
    EXPECT_EQ(refusal([&] { TokenSet::load_file(f); }), f + reason) << bad;
  }
}

TEST(TokenSet, RefusesLinksFifosModesAndOversize) {
  TempDir dir;
  const std::string f = dir.file("tokens");
  write_file(f, line("agent", "box1", "t1"), 0644);
  EXPECT_EQ(refusal([&] { TokenSet::load_file(f); }),
            f + ": mode 0644 gives group or others access; chmod 600 it");
  write_file(f, line("agent", "box1", "t1"));
  const std::string link = dir.file("link");
  ASSERT_EQ(::symlink(f.c_str(), link.c_str()), 0);
  EXPECT_EQ(refusal([&] { TokenSet::load_file(link); }), link + ": is a symbolic link (refused)");
  EXPECT_EQ(refusal([&] { TokenSet::load_file(dir.path()); }),
            dir.path() + ": not a regular file (refused)");
  write_file(f, std::string(kMaxTokensFileBytes + 1, '#'));
  EXPECT_EQ(refusal([&] { TokenSet::load_file(f); }), f + ": larger than 1048576 bytes");
  write_file(f, std::string(kMaxTokensFileLines + 1, '\n'));
  EXPECT_EQ(refusal([&] { TokenSet::load_file(f); }), f + ": more than 100000 lines");
  write_file(f, std::string(kMaxTokensFileLines, '\n'));
  EXPECT_EQ(TokenSet::load_file(f).size(), 0u);
}

TEST(TokenSet, AddRefusesBadNamesEmptyAndRepeatedTokens) {
  TokenSet set;
  set.add(Role::kAgent, "box1", "t1");
  EXPECT_EQ(refusal([&] { set.add(Role::kAgent, "box 1", "t2"); }),
            "invalid name 'box 1': 1..128 chars of A-Z a-z 0-9 . _ -, the first a letter or digit");
  EXPECT_EQ(refusal([&] { set.add(Role::kAgent, "box2", ""); }), "empty token for box2");
  EXPECT_EQ(refusal([&] { set.add(Role::kOperator, "alice", "t1"); }),
            "operator alice: token already in the set");
  EXPECT_EQ(set.size(), 1u);
}

TEST(AppendNewToken, CreatesA0600FileAndAppends) {
  TempDir dir;
  const std::string f = dir.file("tokens");
  const std::string t1 = append_new_token(f, Role::kAgent, "box1");
  EXPECT_EQ(file_mode(f), 0600);
  EXPECT_EQ(read_file(f), line("agent", "box1", t1));
  const std::string t2 = append_new_token(f, Role::kOperator, "alice");
  const std::string t3 = append_new_token(f, Role::kAgent, "box1");  // rotation
  EXPECT_EQ(read_file(f),
            line("agent", "box1", t1) + line("operator", "alice", t2) + line("agent", "box1", t3));
  const TokenSet set = TokenSet::load_file(f);
  EXPECT_EQ(set.authenticate(t1), (Principal{Role::kAgent, "box1"}));
  EXPECT_EQ(set.authenticate(t2), (Principal{Role::kOperator, "alice"}));
  EXPECT_EQ(set.authenticate(t3), (Principal{Role::kAgent, "box1"}));
}

TEST(AppendNewToken, EndsAnUnterminatedLastLineFirst) {
  TempDir dir;
  const std::string f = dir.file("tokens");
  write_file(f, "# no newline");
  const std::string t = append_new_token(f, Role::kAgent, "box1");
  EXPECT_EQ(read_file(f), "# no newline\n" + line("agent", "box1", t));
}

TEST(AppendNewToken, RefusesOpenModesLinksBadFilesAndNames) {
  TempDir dir;
  const std::string f = dir.file("tokens");
  write_file(f, "# shared\n", 0644);
  EXPECT_EQ(refusal([&] { append_new_token(f, Role::kAgent, "box1"); }),
            f + ": mode 0644 gives group or others access; chmod 600 it");
  EXPECT_EQ(read_file(f), "# shared\n");
  const std::string target = dir.file("target");
  write_file(target, "");
  const std::string link = dir.file("link");
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
  EXPECT_EQ(refusal([&] { append_new_token(link, Role::kAgent, "box1"); }),
            link + ": is a symbolic link (refused)");
  EXPECT_EQ(read_file(target), "");
  write_file(f, "agent box1\n");
  EXPECT_EQ(refusal([&] { append_new_token(f, Role::kAgent, "box2"); }),
            f + ":1: expected 'agent|operator NAME SHA256HEX', got 2 fields");
  EXPECT_EQ(refusal([&] { append_new_token(dir.file("no/such/dir"), Role::kAgent, "box1"); }),
            dir.file("no/such/dir") + ": cannot open: No such file or directory");
  EXPECT_EQ(refusal([&] { append_new_token(dir.file("new"), Role::kAgent, "a/b"); }),
            "invalid name 'a/b': 1..128 chars of A-Z a-z 0-9 . _ -, the first a letter or digit");
  EXPECT_EQ(file_mode(dir.file("new")), -1);  // nothing created for a bad name
}

}  // namespace
}  // namespace schedrig::auth
