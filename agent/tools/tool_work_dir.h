// A tool run's private working directory: made with mkdtemp(3) (mode 0700,
// a fresh name nobody else can have planted) and removed with all it holds
// when the run ends, so no tool output or temporary file outlives it.
#pragma once

#include <string>

namespace schedrig::tools {

class ToolWorkDir {
 public:
  // Makes /tmp/schedrig-TOOL-XXXXXX (under $TMPDIR is not used: the agent's
  // environment is not trusted for this). Throws ToolRunError with errno.
  explicit ToolWorkDir(const std::string& tool);
  // Removes it, never following a link and never entering another file
  // system mounted inside it.
  ~ToolWorkDir();
  ToolWorkDir(const ToolWorkDir&) = delete;
  ToolWorkDir& operator=(const ToolWorkDir&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace schedrig::tools
