// A case's `args:` string split into argv words the way a POSIX shell splits
// a simple command's words (XCU 2.2 "Quoting", 2.6.5 "Field Splitting"), but
// with nothing else a shell does: no expansion ($, `, ~, globs), no
// redirection, no command separators. Those characters are kept literally,
// and the words go to execve(2), never to a shell.
#pragma once

#include <string>
#include <vector>

namespace schedrig::tools {

// Bounds on a case's `args`: a plan arrives over the network at a root process.
inline constexpr std::size_t kMaxToolArgsBytes = 4096;
inline constexpr std::size_t kMaxToolArgs = 256;

// `args` split at unquoted blanks (space, tab); '...' keeps everything
// literally, "..." keeps everything but \" and \\ (a backslash before any
// other character stays), and an unquoted backslash keeps the next character.
// "" and '' make an empty word. Throws ToolArgsError naming `tool` for an
// unterminated quote, a trailing backslash, a control character (newline
// included) or NUL, more than kMaxToolArgsBytes bytes or kMaxToolArgs words.
std::vector<std::string> split_tool_args(const std::string& tool, const std::string& args);

}  // namespace schedrig::tools
