#include "common/procfs/read_file.h"

namespace schedrig::procfs {

std::string read_small_file(const std::filesystem::path& path, std::size_t max_bytes) {
  FileReader f(path, max_bytes);
  return std::string(f.read_or_throw());
}

std::optional<std::string> try_read_small_file(const std::filesystem::path& path, int* err,
                                               std::size_t max_bytes) {
  FileReader f(path, max_bytes);
  std::string_view text;
  const bool ok = f.read(text);
  if (err) *err = ok ? 0 : f.error();
  if (!ok) return std::nullopt;
  return std::string(text);
}

std::string_view first_line(std::string_view text) { return text.substr(0, text.find('\n')); }

}  // namespace schedrig::procfs
