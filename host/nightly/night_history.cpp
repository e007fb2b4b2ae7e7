#include "host/nightly/night_history.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "host/nightly/night_files.h"

namespace schedrig::nightly {

void append_history(const std::string& path, const std::vector<HistoryEntry>& entries) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0)
    throw std::runtime_error(fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  std::string text;
  for (const HistoryEntry& e : entries) {
    text += nlohmann::json{{"night", e.night},   {"agent", e.agent},   {"plan", e.plan},
                           {"kernel", e.kernel}, {"passed", e.passed}, {"runs", e.runs}}
                .dump() +
            "\n";
  }
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  if (!ok)
    throw std::runtime_error(fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
}

std::optional<HistoryEntry> last_good(const std::string& path, const std::string& agent,
                                      const std::string& plan) {
  std::optional<HistoryEntry> out;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return out;
  std::istringstream in(read_bounded_file(path, kMaxHistoryBytes));
  std::string line;
  while (std::getline(in, line)) {
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_object() || j.value("agent", "") != agent || j.value("plan", "") != plan ||
        !j.value("passed", false))
      continue;
    HistoryEntry e;
    e.night = j.value("night", "");
    e.agent = agent;
    e.plan = plan;
    e.kernel = j.value("kernel", "");
    e.passed = true;
    for (const auto& r : j.value("runs", nlohmann::json::array()))
      if (r.is_string()) e.runs.push_back(r.get<std::string>());
    out = std::move(e);  // later lines are newer nights
  }
  return out;
}

}  // namespace schedrig::nightly
