// Which binary runs for a tool name. Plans arrive over the network at a
// root process, so they never name a path: the agent's own configuration
// does (its `tools:` map, Debian's paths by default), and a binary is only
// run when nobody but root could have put it there or changed it.
#pragma once

#include <string>

namespace schedrig::tools {

// `path` with every link resolved (realpath(3)), after checking that it is
// absolute, that the file is a regular file, executable, owned by root and
// not writable by group or others, and that every directory from / down to
// it is owned by root and not writable by group or others (so no other user
// can swap it between this check and the exec). Throws ToolArgsError naming
// `tool`, the path, what is wrong and the fix, e.g. "schbench: binary
// /home/u/schbench: owned by uid 1000, not root (install it root-owned and
// name it in the agent config's tools: map)".
std::string trusted_tool_binary(const std::string& tool, const std::string& path);

// The same checks for a file a trusted program reads (a kernel image and
// initrd for kexec, agent/boot): `executable` false skips the mode's x bit,
// and errors say "file" ("kexec image: file /boot/vmlinuz-x: ...").
std::string trusted_root_file(const std::string& tool, const std::string& path, bool executable);

}  // namespace schedrig::tools
