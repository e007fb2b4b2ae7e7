// One-shot reads of a small kernel file (sysfs, procfs, debugfs, a fake
// tree): open, one bounded pread pass, close, through FileReader, so the
// same O_NOFOLLOW, size bound and errno reporting apply everywhere.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "common/procfs/file_reader.h"

namespace schedrig::procfs {

// The whole text of `path`. Throws ReadError (common/procfs/read_error.h)
// naming the path and the errno: ENOENT, EACCES, ELOOP for a symlink, EFBIG
// for a file over `max_bytes`.
std::string read_small_file(const std::filesystem::path& path,
                            std::size_t max_bytes = FileReader::kDefaultMaxBytes);

// As read_small_file, but nullopt on failure with the errno in `*err` (when
// given; 0 on success).
std::optional<std::string> try_read_small_file(
    const std::filesystem::path& path, int* err = nullptr,
    std::size_t max_bytes = FileReader::kDefaultMaxBytes);

// `text` up to its first '\n' (all of it when there is none).
std::string_view first_line(std::string_view text);

}  // namespace schedrig::procfs
