// Test-only FUSE filesystem that behaves like the kernel's sched features
// file (kernel/sched/debug.c): reading gives one line of every feature as
// NAME or NO_NAME; each write(2) of one token (NAME or NO_NAME) flips one
// feature; an unknown token is EINVAL. The file reports size 0, so it is
// served with direct_io. Mounted over a regular file (the root node is the
// file itself).
//
//   fake_sched_features MOUNTPOINT
// Environment: FAKE_FEATURES="A NO_B C" (initial state), FAKE_MODE=normal |
// ignore (accept writes, change nothing) | eperm (refuse opens for writing),
// FAKE_WRITES=FILE (the number of accepted write(2) calls is kept there).
#define FUSE_USE_VERSION 35
#include <fuse.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::mutex g_mu;
std::vector<std::pair<std::string, bool>> g_features;  // kernel order
std::string g_mode = "normal";
std::string g_writes_file;
long g_writes = 0;

std::string render() {
  std::string out;
  for (const auto& [name, on] : g_features) out += (on ? "" : "NO_") + name + " ";
  return out + "\n";
}

int fs_getattr(const char* path, struct stat* st, fuse_file_info*) {
  if (std::strcmp(path, "/") != 0) return -ENOENT;
  std::memset(st, 0, sizeof *st);
  st->st_mode = S_IFREG | 0644;
  st->st_nlink = 1;
  st->st_size = 0;  // like the kernel's seq_file
  return 0;
}

int fs_open(const char* path, fuse_file_info* fi) {
  if (std::strcmp(path, "/") != 0) return -ENOENT;
  if ((fi->flags & O_ACCMODE) != O_RDONLY && g_mode == "eperm") return -EPERM;
  fi->direct_io = 1;
  return 0;
}

int fs_read(const char*, char* buf, size_t size, off_t off, fuse_file_info*) {
  std::lock_guard lock(g_mu);
  std::string text = render();
  if (off >= static_cast<off_t>(text.size())) return 0;
  size_t n = std::min(size, text.size() - static_cast<size_t>(off));
  std::memcpy(buf, text.data() + off, n);
  return static_cast<int>(n);
}

int fs_write(const char*, const char* buf, size_t size, off_t, fuse_file_info*) {
  std::lock_guard lock(g_mu);
  std::string token(buf, size);
  while (!token.empty() && (token.back() == '\n' || token.back() == ' ')) token.pop_back();
  bool on = token.rfind("NO_", 0) != 0;
  std::string name = on ? token : token.substr(3);
  auto it =
      std::find_if(g_features.begin(), g_features.end(), [&](auto& f) { return f.first == name; });
  if (it == g_features.end()) return -EINVAL;
  ++g_writes;
  if (!g_writes_file.empty()) std::ofstream(g_writes_file, std::ios::trunc) << g_writes << "\n";
  if (g_mode != "ignore") it->second = on;
  return static_cast<int>(size);
}

int fs_truncate(const char*, off_t, fuse_file_info*) { return 0; }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: FAKE_FEATURES='A NO_B' %s MOUNTPOINT\n", argv[0]);
    return 2;
  }
  std::istringstream in(std::getenv("FAKE_FEATURES") ? std::getenv("FAKE_FEATURES") : "");
  for (std::string t; in >> t;) {
    bool on = t.rfind("NO_", 0) != 0;
    g_features.emplace_back(on ? t : t.substr(3), on);
  }
  if (const char* m = std::getenv("FAKE_MODE")) g_mode = m;
  if (const char* w = std::getenv("FAKE_WRITES")) g_writes_file = w;
  fuse_operations ops{};
  ops.getattr = fs_getattr;
  ops.open = fs_open;
  ops.read = fs_read;
  ops.write = fs_write;
  ops.truncate = fs_truncate;
  char* args[] = {argv[0],
                  const_cast<char*>("-f"),
                  const_cast<char*>("-s"),
                  const_cast<char*>("-o"),
                  const_cast<char*>("default_permissions"),
                  argv[1]};
  return fuse_main(6, args, &ops, nullptr);
}
