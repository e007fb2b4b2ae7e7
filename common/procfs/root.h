// Where /proc and /sys are read: the live machine, or a fake tree under a
// directory (tests, benches, `--root DIR`). Every reader of kernel files
// (knobs, sampler, runner fingerprint, topology sysfs distances, boot_id)
// takes one Root and builds its paths through it, so a fake-root run never
// touches the real box (docs/architecture.md "Runner safety").
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace schedrig::procfs {

class Root {
 public:
  // The live machine: paths are the kernel's own ("/proc/stat").
  static Root live();

  // A fake tree: path("proc/stat") is DIR/proc/stat. DIR is made absolute
  // and lexically normal; a DIR that normalizes to "/" is the live machine.
  // Throws std::invalid_argument for an empty DIR.
  static Root under(const std::filesystem::path& dir);

  // The root a `--root` value or a stored root names: "" is the live
  // machine, anything else under(text). The inverse of flag_text().
  static Root from_flag(std::string_view text);

  bool is_live() const { return dir_ == "/"; }

  // "/" for the live machine, else the fake tree's absolute directory.
  const std::filesystem::path& dir() const { return dir_; }

  // The absolute path of the kernel path `rel` under this root. Leading
  // slashes are ignored: path("/proc/stat") == path("proc/stat");
  // path("") is dir().
  std::filesystem::path path(std::string_view rel) const;

  // "" for the live machine, else dir() (what from_flag() reads back).
  std::string flag_text() const;

  // For messages: "the live machine" or "the fake tree under DIR".
  std::string describe() const;

  friend bool operator==(const Root& a, const Root& b) { return a.dir_ == b.dir_; }
  friend bool operator!=(const Root& a, const Root& b) { return !(a == b); }

 private:
  explicit Root(std::filesystem::path dir) : dir_(std::move(dir)) {}
  std::filesystem::path dir_;
};

}  // namespace schedrig::procfs
