#include "common/procfs/root.h"

#include <stdexcept>

namespace schedrig::procfs {

namespace fs = std::filesystem;

Root Root::live() { return Root(fs::path("/")); }

Root Root::under(const fs::path& dir) {
  if (dir.empty()) throw std::invalid_argument("procfs root: empty directory (use Root::live())");
  fs::path normal = fs::absolute(dir).lexically_normal();
  // "/tmp/x/" normalizes to "/tmp/x/": drop the empty last element.
  if (normal.has_relative_path() && !normal.has_filename()) normal = normal.parent_path();
  return Root(normal);
}

Root Root::from_flag(std::string_view text) {
  return text.empty() ? live() : under(fs::path(text));
}

fs::path Root::path(std::string_view rel) const {
  while (!rel.empty() && rel.front() == '/') rel.remove_prefix(1);
  if (rel.empty()) return dir_;
  return dir_ / fs::path(rel);
}

std::string Root::flag_text() const { return is_live() ? std::string() : dir_.string(); }

std::string Root::describe() const {
  return is_live() ? std::string("the live machine") : "the fake tree under " + dir_.string();
}

}  // namespace schedrig::procfs
