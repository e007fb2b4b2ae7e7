#include "agent/tools/tool_work_dir.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "agent/tools/tool_error.h"

namespace schedrig::tools {

ToolWorkDir::ToolWorkDir(const std::string& tool) {
  std::string templ = fmt::format("/tmp/schedrig-{}-XXXXXX", tool);
  if (!::mkdtemp(templ.data())) {
    throw ToolRunError(
        fmt::format("{}: cannot make its working directory: {}", tool, std::strerror(errno)));
  }
  path_ = templ;
}

ToolWorkDir::~ToolWorkDir() {
  std::error_code ec;  // remove_all removes a link, never what it points to
  std::filesystem::remove_all(path_, ec);
}

}  // namespace schedrig::tools
