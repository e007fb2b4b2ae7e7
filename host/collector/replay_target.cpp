#include "host/collector/replay_target.h"

namespace schedrig::collector {

bool replay_requested(std::string_view target) {
  const std::size_t q = target.find('?');
  if (q == std::string_view::npos) return false;
  std::string_view query = target.substr(q + 1);
  query = query.substr(0, query.find('#'));
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    if (query.substr(0, amp) == "replay=1") return true;
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return false;
}

}  // namespace schedrig::collector
