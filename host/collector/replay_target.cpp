#include "host/collector/replay_target.h"

#include <charconv>

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

std::optional<std::uint64_t> spool_backlog_of(std::string_view header) {
  if (header.empty() || header.size() > 20) return std::nullopt;
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(header.data(), header.data() + header.size(), value);
  if (ec != std::errc() || end != header.data() + header.size()) return std::nullopt;
  return value;
}

}  // namespace schedrig::collector
