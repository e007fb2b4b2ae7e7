// `run --out F` without touching F before the run starts (pending_file.h,
// file_sink.h), and one agent per state dir (state_lock.h).
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "agent/session/file_sink.h"
#include "agent/session/pending_file.h"
#include "agent/session/state_lock.h"
#include "common/cli_error.h"
#include "common/envelope_codec.h"
#include "common/offline_file.h"
#include "tests/support/run_command.h"

namespace schedrig::agent {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The names in `dir`, sorted.
std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(PendingFile, LeavesTheFileAloneUntilCommitThenReplacesIt) {
  TempDir dir;
  const std::string out = dir.file("run.schedrig");
  std::ofstream(out) << "the earlier run";
  PendingFile f(out);
  EXPECT_EQ(fs::path(f.temp_path()).parent_path(), fs::path(dir.path()));
  EXPECT_EQ(fs::path(f.temp_path()).filename().string().rfind(".run.schedrig.", 0), 0u)
      << f.temp_path();
  f.write("new ");
  EXPECT_EQ(read_file(out), "the earlier run");
  struct stat st {};
  ASSERT_EQ(::stat(f.temp_path().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  f.commit();
  EXPECT_TRUE(f.committed());
  f.write("bytes");
  EXPECT_EQ(read_file(out), "new bytes");
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"run.schedrig"});
}

TEST(PendingFile, NotCommittedIsRemovedAndTheFileKept) {
  TempDir dir;
  const std::string out = dir.file("run.schedrig");
  std::ofstream(out) << "keep me";
  {
    PendingFile f(out);
    f.write("a stub");
    EXPECT_TRUE(fs::exists(f.temp_path()));
  }
  EXPECT_EQ(read_file(out), "keep me");
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"run.schedrig"});
}

TEST(PendingFile, RefusesADirectoryOrAMissingParent) {
  TempDir dir;
  try {
    PendingFile f(dir.path());
    ADD_FAILURE() << "a directory was taken for a file";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write " + dir.path() + ": Is a directory");
  }
  try {
    PendingFile f(dir.file("no/such/run.schedrig"));
    ADD_FAILURE() << "a missing directory was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write " + dir.file("no/such/run.schedrig")),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos)
        << e.what();
  }
}

v1::Envelope hello() {
  v1::Envelope env;
  env.mutable_hello()->set_hostname("box");
  return env;
}

TEST(FileSink, APlanRejectedBeforeRunStartedLeavesOutAsItWas) {
  TempDir dir;
  const std::string out = dir.file("run.schedrig");
  std::ofstream(out) << "the earlier run";
  std::ostringstream progress;
  {
    FileSink sink(out, AgentIdentity{"box", "boot", "inst"}, progress);
    sink.write(hello());
  }
  EXPECT_EQ(read_file(out), "the earlier run");
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"run.schedrig"});
}

TEST(FileSink, RunStartedPutsTheStreamInPlace) {
  TempDir dir;
  const std::string out = dir.file("run.schedrig");
  std::ofstream(out) << "the earlier run";
  std::ostringstream progress;
  FileSink sink(out, AgentIdentity{"box", "boot", "inst"}, progress);
  sink.write(hello());
  v1::RunStarted started;
  started.set_run_id("run-1");
  sink.run_started(started);
  v1::RunFinished finished;
  finished.set_run_id("run-1");
  sink.run_finished(finished);

  std::stringstream file(read_file(out));
  OfflineReader reader(file);
  EXPECT_EQ(reader.version(), kOfflineFormatVersion);
  std::vector<std::string> kinds;
  while (auto bytes = reader.next()) {
    DecodeResult d = decode_envelope(*bytes);
    ASSERT_TRUE(d.envelope) << d.error;
    EXPECT_EQ(d.envelope->seq(), kinds.size() + 1);
    EXPECT_EQ(d.envelope->instance_id(), "inst");
    kinds.push_back(body_name(*d.envelope));
  }
  EXPECT_EQ(kinds, (std::vector<std::string>{"hello", "run_started", "run_finished"}));
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"run.schedrig"});
}

// Runs `f`, expecting CliError; returns it.
template <typename F>
CliError cli_error_of(F f) {
  try {
    f();
  } catch (const CliError& e) {
    return e;
  }
  ADD_FAILURE() << "no CliError";
  return CliError(ErrorKind::kFailed, "");
}

TEST(StateDirLock, ASecondHolderIsRefusedNamingTheDirAndPid) {
  TempDir dir;
  {
    StateDirLock first(dir.path());
    EXPECT_EQ(read_file(dir.file("agent.lock")), "");  // the pid comes from the kernel
    const CliError e = cli_error_of([&] { StateDirLock second(dir.path()); });
    EXPECT_EQ(e.exit_code(), 3);
    EXPECT_EQ(std::string(e.what()),
              "state dir " + dir.path() + " is in use by another schedrig-agent (pid " +
                  std::to_string(::getpid()) + "; lock " + dir.file("agent.lock") +
                  "): run when it ends, or give this one its own --state-dir (runs still never "
                  "overlap: they share the machine's run lock)");
  }
  StateDirLock again(dir.path());  // released with its holder
  struct stat st {};
  ASSERT_EQ(::stat(dir.file("agent.lock").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
}

TEST(StateDirLock, ALinkAsTheLockIsRefused) {
  TempDir dir;
  fs::create_symlink(dir.file("elsewhere"), dir.file("agent.lock"));
  const CliError e = cli_error_of([&] { StateDirLock lock(dir.path()); });
  EXPECT_EQ(e.exit_code(), 2);
  EXPECT_NE(std::string(e.what()).find("cannot open lock " + dir.file("agent.lock")),
            std::string::npos)
      << e.what();
  EXPECT_FALSE(fs::exists(dir.file("elsewhere")));
}

}  // namespace
}  // namespace schedrig::agent
