// The store file, its -wal and -shm are created 0600 and a state dir we
// create is 0700, whatever the umask.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "common/cli_error.h"
#include "common/envelope_codec.h"
#include "common/state_dir.h"
#include "host/store/store.h"
#include "tests/host/store/sample_run.h"
#include "tests/host/store/temp_db.h"

namespace schedrig::store {
namespace {

using schedrig::testing::TempDir;

unsigned mode_of(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return 01000;  // missing
  return st.st_mode & 07777;
}

// Sets the umask for one scope.
class Umask {
 public:
  explicit Umask(mode_t mask) : old_(::umask(mask)) {}
  ~Umask() { ::umask(old_); }

 private:
  mode_t old_;
};

TEST(StoreFileMode, NewStoreAndItsWalAndShmAre0600) {
  for (mode_t mask : {mode_t{0}, mode_t{022}, mode_t{0277}}) {
    SCOPED_TRACE(mask);
    TempDir tmp;
    const std::string path = tmp.file("s.db");
    Umask umask(mask);
    Store store(path);
    const v1::Envelope hello = testing::sample_run()[0];
    store.ingest(hello, encode_envelope(hello));  // the -wal holds a commit now
    EXPECT_EQ(mode_of(path), 0600u);
    EXPECT_EQ(mode_of(path + "-wal"), 0600u);
    EXPECT_EQ(mode_of(path + "-shm"), 0600u);
  }
}

TEST(StoreFileMode, ExistingFileKeepsItsMode) {
  TempDir tmp;
  const std::string path = tmp.file("s.db");
  { Store store(path); }
  ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
  Store again(path);
  EXPECT_EQ(mode_of(path), 0640u);
}

TEST(StoreFileMode, SymbolicLinkIsRefused) {
  TempDir tmp;
  const std::string path = tmp.file("link.db");
  std::filesystem::create_symlink(tmp.file("elsewhere.db"), path);
  try {
    Store store(path);
    ADD_FAILURE() << "a store at a symbolic link opened";
  } catch (const StoreError& e) {
    EXPECT_EQ(e.reason(), StoreError::Reason::kCannotOpen);
    EXPECT_NE(std::string(e.what()).find("symbolic link"), std::string::npos) << e.what();
  }
  EXPECT_EQ(mode_of(tmp.file("elsewhere.db")), 01000u);  // nothing created through it
}

TEST(StoreFileMode, StateDirWeCreateIs0700) {
  TempDir tmp;
  const std::string dir = tmp.file("state/schedrig");
  {
    Umask umask(0);
    create_state_dir(dir);
  }
  EXPECT_EQ(mode_of(dir), 0700u);
  ASSERT_EQ(::chmod(dir.c_str(), 0750), 0);
  create_state_dir(dir);  // an existing dir is left alone
  EXPECT_EQ(mode_of(dir), 0750u);
  const std::string file = tmp.file("plain-file");
  { Store store(file); }
  EXPECT_THROW(create_state_dir(file), CliError);
  EXPECT_THROW(create_state_dir(file + "/sub"), CliError);
}

}  // namespace
}  // namespace schedrig::store
