// A kernel (or fake-tree) file that could not be opened or read. Carries
// the path and the errno so callers decide on errno_value(), never on the
// message; the kind is ErrorKind::kUnreachable (a kernel facility cannot be
// reached: docs/architecture.md "Command lines").
#pragma once

#include <string>

#include "common/error.h"

namespace schedrig::procfs {

class ReadError : public schedrig::Error {
 public:
  // what(): "cannot read PATH: DETAIL", DETAIL being `detail` or, when that
  // is empty, strerror(err) and the errno name ("No such file or directory
  // (ENOENT)").
  ReadError(std::string path, int err, const std::string& detail = {});

  const std::string& path() const { return path_; }
  int errno_value() const { return errno_; }

 private:
  std::string path_;
  int errno_;
};

// "strerror(err) (ENAME)", e.g. "Permission denied (EACCES)".
std::string errno_text(int err);

}  // namespace schedrig::procfs
