// STATE/current-run and the restart report (issue #13 contract 5): a run an
// earlier instance left unfinished is reported failed once, with the reason
// naming whether the box rebooted; the file goes once reported.
#include "agent/session/current_run.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "tests/support/run_command.h"

namespace schedrig::agent {
namespace {

namespace v1 = schedrig::v1;
using testing::TempDir;

TEST(CurrentRun, RoundTripsWithMode0600) {
  const TempDir dir;
  const std::string file = current_run_path(dir.path());
  EXPECT_EQ(file, dir.path() + "/current-run");
  EXPECT_FALSE(read_current_run(file));
  write_current_run(file, {"run-7", "inst-a", "boot-a"});
  struct stat st {};
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  const auto back = read_current_run(file);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->run_id, "run-7");
  EXPECT_EQ(back->instance_id, "inst-a");
  EXPECT_EQ(back->boot_id, "boot-a");
  remove_current_run(file);
  EXPECT_FALSE(std::filesystem::exists(file));
  remove_current_run(file);  // gone already: nothing to do
}

TEST(CurrentRun, AMalformedFileNamesNoRun) {
  const TempDir dir;
  const std::string file = current_run_path(dir.path());
  std::ofstream(file) << "run_id run-7\ninstance_id inst-a\n";  // torn: no boot_id
  EXPECT_FALSE(read_current_run(file));
}

// Reports through `send` what report_unfinished_run sends.
std::vector<v1::Envelope> report(const std::string& state_dir, const std::string& instance,
                                 const std::string& boot_now, std::string* run_id) {
  std::vector<v1::Envelope> sent;
  *run_id = report_unfinished_run(state_dir, instance, boot_now, [&](v1::Envelope env) {
    sent.push_back(std::move(env));
    return static_cast<std::uint64_t>(sent.size());
  });
  return sent;
}

TEST(CurrentRun, ANewInstanceReportsTheRunFailedWithTheBootIdReason) {
  for (const auto& [boot_now, reason] : {std::pair{"boot-a", "agent restarted; boot_id unchanged"},
                                         std::pair{"boot-b", "agent restarted; boot_id changed"}}) {
    const TempDir dir;
    write_current_run(current_run_path(dir.path()), {"run-7", "inst-a", "boot-a"});
    std::string run_id;
    const auto sent = report(dir.path(), "inst-b", boot_now, &run_id);
    EXPECT_EQ(run_id, "run-7");
    ASSERT_EQ(sent.size(), 1u);
    ASSERT_TRUE(sent[0].has_run_finished());
    EXPECT_EQ(sent[0].run_finished().run_id(), "run-7");
    EXPECT_EQ(sent[0].run_finished().status(), v1::STATUS_FAILED);
    EXPECT_EQ(sent[0].run_finished().reason(), reason);
    EXPECT_EQ(sent[0].run_finished().completed_iterations(), 0u);
    EXPECT_FALSE(std::filesystem::exists(current_run_path(dir.path())));
    EXPECT_TRUE(report(dir.path(), "inst-c", boot_now, &run_id).empty());  // once only
    EXPECT_EQ(run_id, "");
  }
}

TEST(CurrentRun, TheInstanceThatWroteItReportsNothing) {
  const TempDir dir;
  write_current_run(current_run_path(dir.path()), {"run-7", "inst-a", "boot-a"});
  std::string run_id;
  EXPECT_TRUE(report(dir.path(), "inst-a", "boot-a", &run_id).empty());
  EXPECT_TRUE(std::filesystem::exists(current_run_path(dir.path())));
}

}  // namespace
}  // namespace schedrig::agent
