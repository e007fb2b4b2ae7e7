// trusted_tool_binary: only a root-owned binary in root-owned directories
// runs (agent/tools/tool_binary.h). The refusals need files owned by
// someone else: the test chowns its own files and skips unless run as root.
#include "agent/tools/tool_binary.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "agent/tools/tool_error.h"
#include "tests/agent/tools/root_owned_dir.h"

namespace schedrig::tools {
namespace {

namespace fs = std::filesystem;

std::string error_of(const std::string& path) {
  try {
    trusted_tool_binary("schbench", path);
  } catch (const ToolArgsError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ToolBinary, ADebianBinaryIsTrustedThroughItsLinks) {
  // /bin is a link to usr/bin on Debian 12: the resolved path is returned.
  EXPECT_EQ(trusted_tool_binary("sh", "/bin/sh"), fs::canonical("/bin/sh").string());
  EXPECT_EQ(trusted_tool_binary("true", "/usr/bin/true"), "/usr/bin/true");
}

TEST(ToolBinary, RelativeMissingAndNonFilesAreRefused) {
  EXPECT_EQ(error_of("schbench"), "schbench: binary schbench: not an absolute path");
  EXPECT_EQ(error_of(""), "schbench: binary : not an absolute path");
  EXPECT_EQ(error_of("/nonexistent/schbench"),
            "schbench: binary /nonexistent/schbench: No such file or directory (is it "
            "installed? docs/workloads.md \"External tools\")");
  EXPECT_EQ(error_of("/usr/bin"), "schbench: binary /usr/bin: not a regular file");
  EXPECT_EQ(error_of("/etc/passwd"), "schbench: binary /etc/passwd: not executable");
}

// A root-owned directory of its own under /run (root_owned_dir.h).
class ToolBinaryOwnership : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!root_.skip_reason().empty()) GTEST_SKIP() << root_.skip_reason();
    dir_ = root_.path();
    bin_ = root_.write_script("schbench", "#!/bin/sh\n");
  }
  testing::RootOwnedDir root_{"schedrig-tool-binary-test"};
  fs::path dir_;
  std::string bin_;
};

TEST_F(ToolBinaryOwnership, RootOwnedIsTrustedOtherwiseRefusedSayingWhy) {
  EXPECT_EQ(trusted_tool_binary("schbench", bin_), bin_);
  ASSERT_EQ(::chmod(bin_.c_str(), 0775), 0);
  EXPECT_EQ(error_of(bin_), "schbench: binary " + bin_ +
                                ": the file is writable by its group (mode 0775); install it "
                                "root-owned, mode 0755, and name it in the agent config");
  ASSERT_EQ(::chmod(bin_.c_str(), 0755), 0);
  ASSERT_EQ(::chown(bin_.c_str(), 65534, 65534), 0);
  EXPECT_EQ(error_of(bin_), "schbench: binary " + bin_ +
                                ": the file is owned by uid 65534, not root; install it "
                                "root-owned, mode 0755, and name it in the agent config");
  ASSERT_EQ(::chown(bin_.c_str(), 0, 0), 0);
  // A directory others can write lets them swap the binary.
  ASSERT_EQ(::chmod(dir_.c_str(), 01777), 0);
  EXPECT_EQ(error_of(bin_), "schbench: binary " + bin_ + ": directory " + dir_.string() +
                                " is writable by others (mode 1777); install it root-owned, "
                                "mode 0755, and name it in the agent config");
  ASSERT_EQ(::chmod(dir_.c_str(), 0755), 0);
  // A link to it from a world-writable place is judged by where it leads.
  const std::string link = (dir_ / "link").string();
  fs::create_symlink(bin_, link);
  EXPECT_EQ(trusted_tool_binary("schbench", link), bin_);
  // /tmp is world-writable (sticky): a binary there is refused.
  const std::string in_tmp = "/tmp/schbench-" + std::to_string(::getpid());
  fs::copy_file(bin_, in_tmp);
  ::chmod(in_tmp.c_str(), 0755);
  EXPECT_NE(error_of(in_tmp).find(": directory /tmp is writable by others (mode 1777)"),
            std::string::npos)
      << error_of(in_tmp);
  fs::remove(in_tmp);
}

}  // namespace
}  // namespace schedrig::tools
