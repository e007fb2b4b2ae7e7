// The systemd units and maintainer scripts the Debian packages ship
// (packaging/, docs/provisioning.md): every unit passes `systemd-analyze
// verify` with no warning (run on copies whose ExecStart names this build's
// binaries, since verify checks that the binary exists; systemd is not PID 1
// here and verify needs no running manager), and each unit keeps the
// promises issue #19 makes of it.
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/support/run_command.h"

namespace schedrig {
namespace {

namespace fs = std::filesystem;
using testing::run_command;

const fs::path kUnits = fs::path(SCHEDRIG_SOURCE_DIR) / "packaging/systemd";

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// KEY -> every value given to it, across sections (what these tests ask).
std::multimap<std::string, std::string> unit_keys(const std::string& name) {
  std::multimap<std::string, std::string> keys;
  std::istringstream in(slurp(kUnits / name));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#' || line[0] == '[') continue;
    const auto eq = line.find('=');
    if (eq != std::string::npos) keys.emplace(line.substr(0, eq), line.substr(eq + 1));
  }
  return keys;
}

std::string value(const std::multimap<std::string, std::string>& keys, const std::string& key) {
  const auto it = keys.find(key);
  return it == keys.end() ? "<unset>" : it->second;
}

// `text` with every "/usr/bin/schedrig" naming this build's binaries.
std::string with_build_binaries(std::string text) {
  const std::string from = "/usr/bin/schedrig";
  const std::string to = testing::bin("schedrig");
  for (auto at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

TEST(SystemdUnits, EveryUnitPassesSystemdAnalyzeVerifyWithoutAWarning) {
  testing::TempDir dir;
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(kUnits)) {
    names.push_back(e.path().filename().string());
    std::ofstream(dir.file(names.back())) << with_build_binaries(slurp(e.path()));
  }
  ASSERT_EQ(names.size(), 4u);
  for (const auto& name : names) {
    const auto r = run_command("cd " + dir.path() + " && systemd-analyze verify ./" + name);
    EXPECT_EQ(r.exit_code, 0) << name << ":\n" << r.output;
    EXPECT_EQ(r.output, "") << name << ": verify warned";
  }
}

TEST(SystemdUnits, VerifyCatchesAnUnknownOptionAndAMissingBinary) {
  testing::TempDir dir;  // the check above can fail: shown on a broken copy
  std::ofstream(dir.file("a.service"))
      << with_build_binaries(slurp(kUnits / "schedrig-serve.service")) << "ProtectFoo=yes\n";
  EXPECT_NE(run_command("cd " + dir.path() + " && systemd-analyze verify ./a.service").output, "");
  std::string missing = slurp(kUnits / "schedrig-serve.service");
  missing.replace(missing.find("/usr/bin/schedrig"), 17, "/nonexistent/schedrig");
  std::ofstream(dir.file("c.service")) << missing;
  EXPECT_NE(run_command("cd " + dir.path() + " && systemd-analyze verify ./c.service").exit_code,
            0);
}

TEST(SystemdUnits, TheAgentRunsAsRootWithItsConfigAndKeepsKnobWritesPossible) {
  const auto k = unit_keys("schedrig-agent.service");
  EXPECT_EQ(value(k, "ExecStart"),
            "/usr/bin/schedrig-agent connect --config /etc/schedrig/agent.yaml");
  EXPECT_EQ(value(k, "User"), "<unset>");  // root
  EXPECT_EQ(value(k, "Restart"), "always");
  EXPECT_NE(value(k, "After").find("network-online.target"), std::string::npos);
  EXPECT_NE(value(k, "After").find("sys-kernel-debug.mount"), std::string::npos);
  EXPECT_EQ(value(k, "StateDirectory"), "schedrig");
  EXPECT_EQ(value(k, "StateDirectoryMode"), "0700");
  EXPECT_EQ(value(k, "TasksMax"), "infinity");  // fork storms
  // Each of these would stop a knob write or a workload.
  for (const char* forbidden :
       {"ProtectKernelTunables", "RestrictRealtime", "PrivateDevices", "CapabilityBoundingSet",
        "SystemCallFilter", "CPUQuota", "AllowedCPUs", "MemoryMax", "DynamicUser"})
    EXPECT_EQ(k.count(forbidden), 0u) << forbidden;
  EXPECT_EQ(value(k, "ProtectSystem"), "full");  // never strict: the state dir, the run lock
}

TEST(SystemdUnits, ServeAndTheNightRunAsTheSchedrigUserWithStateDirsOfTheirOwn) {
  const auto serve = unit_keys("schedrig-serve.service");
  EXPECT_EQ(value(serve, "User"), "schedrig");
  EXPECT_EQ(value(serve, "StateDirectory"), "schedrig-serve");
  EXPECT_EQ(value(serve, "ExecStart"), "/usr/bin/schedrig serve --config /etc/schedrig/serve.yaml");
  EXPECT_EQ(value(serve, "NoNewPrivileges"), "yes");
  EXPECT_EQ(value(serve, "ProtectSystem"), "strict");
  const auto night = unit_keys("schedrig-nightly.service");
  EXPECT_EQ(value(night, "User"), "schedrig");
  EXPECT_EQ(value(night, "StateDirectory"), "schedrig-nightly");
  EXPECT_NE(value(night, "ExecStart").find("--lab /etc/schedrig/lab.yaml --nights "),
            std::string::npos);
  const auto timer = unit_keys("schedrig-nightly.timer");
  EXPECT_EQ(value(timer, "Persistent"), "true");
  EXPECT_NE(value(timer, "OnCalendar"), "<unset>");
}

TEST(MaintainerScripts, ParseAsPosixShell) {
  const fs::path debian = fs::path(SCHEDRIG_SOURCE_DIR) / "packaging/debian";
  int scripts = 0;
  for (const auto& pkg : fs::directory_iterator(debian)) {
    for (const auto& f : fs::directory_iterator(pkg.path())) {
      if (f.path().filename() == "conffiles") continue;
      ++scripts;
      const auto r = run_command("sh -n " + f.path().string());
      EXPECT_EQ(r.exit_code, 0) << f.path() << r.output;
      EXPECT_TRUE((fs::status(f.path()).permissions() & fs::perms::owner_exec) != fs::perms::none)
          << f.path();
    }
  }
  EXPECT_EQ(scripts, 6);
}

}  // namespace
}  // namespace schedrig
