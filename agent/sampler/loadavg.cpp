#include "agent/sampler/loadavg.h"

#include <stdexcept>
#include <string>

#include "agent/sampler/sampler_error.h"
#include "agent/sampler/text_scan.h"

namespace schedrig::sampler {

Loadavg parse_loadavg(std::string_view text) {
  const auto f = split_fields(text.substr(0, text.find('\n')));
  Loadavg l;
  const auto slash = f.size() == 5 ? f[3].find('/') : std::string_view::npos;
  if (slash == std::string_view::npos || !parse_double(f[0], l.load1) ||
      !parse_double(f[1], l.load5) || !parse_double(f[2], l.load15)) {
    throw parse_error("loadavg: malformed '" + std::string(text) + "'");
  }
  l.running = static_cast<std::uint32_t>(require_u64(f[3].substr(0, slash), "loadavg running"));
  l.total = static_cast<std::uint32_t>(require_u64(f[3].substr(slash + 1), "loadavg total"));
  l.last_pid = static_cast<pid_t>(require_u64(f[4], "loadavg last pid"));
  return l;
}

}  // namespace schedrig::sampler
