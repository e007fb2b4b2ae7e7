// A child's wait(2) status in words, for messages about a process that
// ended (waitpid(2): WIFEXITED, WIFSIGNALED).
#pragma once

#include <string>

namespace schedrig {

// "exited with 3" / "killed by signal 9 (Killed)" / "ended with status N".
std::string describe_status(int status);

}  // namespace schedrig
