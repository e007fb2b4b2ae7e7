// Reading and writing one knob file the way the kernel expects: a single
// read of a small text value, a single write(2) of one value or token.
#pragma once

#include <string>

namespace schedrig::knobs {

// The file's text with trailing white space removed, read through the
// shared bounded O_NOFOLLOW reader (common/procfs/read_file.h). Throws
// KnobUnavailable naming the path and the errno (EINVAL: not a regular file).
std::string read_knob_file(const std::string& path);

// One open(O_WRONLY|O_NONBLOCK|O_NOFOLLOW) of a regular file and one
// write(2) of `text`. Throws KnobUnavailable naming the path, the text and
// the errno (EPERM under lockdown, EINVAL for a value the kernel refuses or
// a file that is not regular, e.g. a FIFO).
void write_knob_file(const std::string& path, const std::string& text);

// Whether the file can be opened for reading and for writing (nothing is
// written; opened O_NONBLOCK, so a FIFO never blocks); `errno_value` is the
// first failure's errno, 0 when both work, EINVAL for a file that is not
// regular.
struct Access {
  bool readable = false;
  bool writable = false;
  int errno_value = 0;
};
Access probe_access(const std::string& path);

}  // namespace schedrig::knobs
