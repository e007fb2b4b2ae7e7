// Whose spool to believe (docs/architecture.md "Spool"; issue #13 review):
// a spool dir another user owns or may write is refused, a FIFO or link of
// a segment's name is set aside (never opened blocking), a segment another
// user owns is skipped, and instances this agent never replays are set
// aside as *.orphan so they cannot fill the bound.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "agent/spool/spool.h"
#include "agent/spool/spool_error.h"
#include "tests/agent/spool/spool_envelopes.h"
#include "tests/support/run_command.h"

namespace schedrig::spool {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): the test envelopes
namespace fs = std::filesystem;

const std::string kSegName =
    "seg-00000000000000000001-" + kInstanceA + "-00000000000000000001.spool";

// The SpoolError opening `dir` throws ("" when none).
std::string open_error(const std::string& dir) {
  try {
    Spool spool(dir);
  } catch (const SpoolError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    return e.what();
  }
  return "";
}

TEST(SpoolTrust, ADirWritableByOthersIsRefusedNamingModeAndFix) {
  schedrig::testing::TempDir tmp;
  const std::string dir = tmp.file("spool");
  { Spool spool(dir); }
  ASSERT_EQ(::chmod(dir.c_str(), 0777), 0);
  const std::string why = open_error(dir);
  EXPECT_NE(why.find(dir), std::string::npos) << why;
  EXPECT_NE(why.find("mode 0777"), std::string::npos) << why;
  EXPECT_NE(why.find("chown root and chmod 0700"), std::string::npos) << why;
  ASSERT_EQ(::chmod(dir.c_str(), 0750), 0);
  EXPECT_EQ(open_error(dir), "");
}

TEST(SpoolTrust, ADirOfAnotherUserIsRefusedNamingTheOwner) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to chown";
  schedrig::testing::TempDir tmp;
  const std::string dir = tmp.file("spool");
  { Spool spool(dir); }
  ASSERT_EQ(::chown(dir.c_str(), 4242, 4242), 0);
  const std::string why = open_error(dir);
  EXPECT_NE(why.find("owned by uid 4242"), std::string::npos) << why;
}

TEST(SpoolTrust, AFifoOfASegmentNameIsSetAsideNotOpened) {
  schedrig::testing::TempDir tmp;
  const std::string dir = tmp.file("spool");
  { Spool spool(dir); }
  ASSERT_EQ(::mkfifo((dir + "/" + kSegName).c_str(), 0600), 0);
  Spool spool(dir);  // hung in open() before
  EXPECT_TRUE(fs::exists(fs::symlink_status(dir + "/" + kSegName + ".bad")));
  EXPECT_TRUE(segment_files(dir).empty());
  ASSERT_EQ(spool.recovery_notes().size(), 1u);
  EXPECT_NE(spool.recovery_notes()[0].what.find("a FIFO"), std::string::npos);
  EXPECT_EQ(spool.append(hello(kInstanceB, 1)).outcome, AppendOutcome::kStored);
}

TEST(SpoolTrust, ALinkOfASegmentNameIsSetAsideNotFollowed) {
  schedrig::testing::TempDir tmp;
  const std::string dir = tmp.file("spool");
  {
    Spool spool(tmp.file("elsewhere"));
    spool.append(hello(kInstanceA, 1));
  }
  { Spool spool(dir); }
  const std::string target = tmp.file("elsewhere") + "/" + segment_files(tmp.file("elsewhere"))[0];
  fs::create_symlink(target, dir + "/" + kSegName);
  Spool spool(dir);  // exited 1 (ELOOP) before
  EXPECT_TRUE(fs::is_symlink(dir + "/" + kSegName + ".bad"));
  EXPECT_TRUE(spool.pending().empty());
}

TEST(SpoolTrust, ASegmentOfAnotherUserIsSkipped) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to chown";
  schedrig::testing::TempDir tmp;
  const std::string dir = tmp.file("spool");
  {
    Spool spool(dir);
    spool.append(hello(kInstanceA, 1));
    spool.append(result(kInstanceA, 2));
  }
  const std::string seg = dir + "/" + segment_files(dir)[0];
  ASSERT_EQ(::chown(seg.c_str(), 4242, 4242), 0);
  Spool spool(dir);
  EXPECT_TRUE(spool.pending().empty());  // not replayed under this agent's token
  ASSERT_EQ(spool.recovery_notes().size(), 1u);
  EXPECT_NE(spool.recovery_notes()[0].what.find("owned by uid 4242"), std::string::npos);
  EXPECT_EQ(segment_files(dir).size(), 1u);  // left for a person
  EXPECT_EQ(spool.append(hello(kInstanceB, 1)).outcome, AppendOutcome::kStored);
}

TEST(SpoolTrust, ASegmentWritableByOthersIsSetAsideNotReplayed) {
  schedrig::testing::TempDir tmp;
  const std::string dir = tmp.file("spool");
  {
    Spool spool(dir);
    spool.append(hello(kInstanceA, 1));
    spool.append(result(kInstanceA, 2));
  }
  const std::string name = segment_files(dir)[0];
  ASSERT_EQ(::chmod((dir + "/" + name).c_str(), 0666), 0);
  Spool spool(dir);
  EXPECT_TRUE(spool.pending().empty());  // another user could have rewritten what it says
  ASSERT_EQ(spool.recovery_notes().size(), 1u);
  EXPECT_NE(spool.recovery_notes()[0].what.find("mode 0666: writable by group or other"),
            std::string::npos)
      << spool.recovery_notes()[0].what;
  EXPECT_TRUE(fs::exists(dir + "/" + name + ".bad"));
  EXPECT_EQ(spool.append(hello(kInstanceB, 1)).outcome, AppendOutcome::kStored);
}

// `env` as agent `agent_id` stamps it.
v1::Envelope as_agent(v1::Envelope env, const std::string& agent_id) {
  env.set_agent_id(agent_id);
  return env;
}

std::vector<std::string> orphan_files(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".orphan") names.push_back(e.path().filename().string());
  return names;
}

TEST(SpoolTrust, AForeignInstanceFillingTheSpoolIsSetAsideAsOrphan) {
  schedrig::testing::TempDir tmp;
  const std::string dir = tmp.file("spool");
  SpoolOptions o;
  o.max_bytes = 1024 * 1024;
  {
    Spool spool(dir, o);  // agent box1 (the test envelopes' agent)
    spool.append(hello(kInstanceA, 1));
    std::uint64_t seq = 2;
    while (spool.append(result(kInstanceA, seq, 2000)).outcome == AppendOutcome::kStored) ++seq;
    ASSERT_GT(seq, 400u);
  }
  o.agent_id = "box2";
  Spool spool(dir, o);
  EXPECT_EQ(spool.append(as_agent(hello(kInstanceB, 1), "box2")).outcome, AppendOutcome::kStored);
  EXPECT_EQ(spool.append(as_agent(result(kInstanceB, 2), "box2")).outcome,
            AppendOutcome::kStored);  // the Topology's place
  const auto pending = spool.pending();
  ASSERT_EQ(pending.size(), 1u);
  EXPECT_EQ(pending[0].instance_id, kInstanceB);
  EXPECT_FALSE(orphan_files(dir).empty());
  for (const std::string& name : segment_files(dir))
    EXPECT_NE(name.find(kInstanceB), std::string::npos) << name;
  EXPECT_LT(spool.stats().bytes, 64u * 1024);  // the orphans are not counted
}

TEST(SpoolTrust, AnInstanceOfTheSameAgentIsKept) {
  schedrig::testing::TempDir tmp;
  const std::string dir = tmp.file("spool");
  SpoolOptions o;
  o.agent_id = "box1";
  {
    Spool spool(dir, o);
    spool.append(hello(kInstanceA, 1));
    spool.append(result(kInstanceA, 2));
  }
  Spool spool(dir, o);
  EXPECT_EQ(spool.pending().size(), 1u);
  EXPECT_TRUE(orphan_files(dir).empty());
}

TEST(SpoolTrust, AnInstanceWithoutItsHelloIsSetAsideAsOrphan) {
  schedrig::testing::TempDir tmp;
  const std::string dir = tmp.file("spool");
  SpoolOptions o;
  o.agent_id = "box1";
  {
    Spool spool(dir, o);
    spool.append(result(kInstanceA, 2));  // its Hello was lost
  }
  Spool spool(dir, o);
  EXPECT_TRUE(spool.pending().empty());
  EXPECT_EQ(orphan_files(dir).size(), 1u);
  EXPECT_TRUE(segment_files(dir).empty());
}

}  // namespace
}  // namespace schedrig::spool
