#include "common/ids.h"

#include <sys/utsname.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <random>
#include <stdexcept>

#include <fmt/format.h>

#include "common/procfs/read_error.h"
#include "common/procfs/read_file.h"

namespace schedrig {
namespace {

// A UUID and its newline, with room to spare.
constexpr std::size_t kBootIdMaxBytes = 4096;

}  // namespace

std::string make_uuid_v4() {
  static thread_local std::mt19937_64 rng{[] {
    std::random_device rd;
    return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
  }()};
  std::uint64_t hi = rng();
  std::uint64_t lo = rng();
  hi = (hi & ~0xF000ULL) | 0x4000ULL;              // version 4
  lo = (lo & ~(0xC0ULL << 56)) | (0x80ULL << 56);  // variant 10
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", hi >> 32, (hi >> 16) & 0xFFFF,
                     hi & 0xFFFF, lo >> 48, lo & 0xFFFFFFFFFFFFULL);
}

bool is_uuid(const std::string& s) {
  if (s.size() != 36) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash != (s[i] == '-')) return false;
    if (!dash && !std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  return true;
}

std::string read_boot_id(const procfs::Root& root) {
  const auto path = root.path("proc/sys/kernel/random/boot_id");
  const std::string id(procfs::first_line(procfs::read_small_file(path, kBootIdMaxBytes)));
  if (id.empty()) throw procfs::ReadError(path.string(), ENODATA, "empty");
  return id;
}

static utsname uname_or_throw() {
  utsname u{};
  if (::uname(&u) != 0) throw std::runtime_error(fmt::format("uname: {}", std::strerror(errno)));
  return u;
}

std::string host_name() { return uname_or_throw().nodename; }

std::string kernel_release() { return uname_or_throw().release; }

// A fake tree's own copy of `rel`, when it has one.
static bool tree_has(const procfs::Root& root, const char* rel) {
  std::error_code ec;
  return !root.is_live() && std::filesystem::exists(root.path(rel), ec);
}

std::string kernel_release(const procfs::Root& root) {
  constexpr const char* kOsRelease = "proc/sys/kernel/osrelease";
  if (!tree_has(root, kOsRelease)) return kernel_release();
  const auto path = root.path(kOsRelease);
  const std::string release(procfs::first_line(procfs::read_small_file(path, kBootIdMaxBytes)));
  if (release.empty()) throw procfs::ReadError(path.string(), ENODATA, "empty");
  return release;
}

std::string current_boot_id(const procfs::Root& root) {
  return root.is_live() || tree_has(root, "proc/sys/kernel/random/boot_id") ? read_boot_id(root)
                                                                            : read_boot_id();
}

long long wall_clock_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace schedrig
