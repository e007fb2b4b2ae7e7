#include "host/nightly/night_history.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

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
  std::ifstream in(path);
  std::optional<HistoryEntry> out;
  std::string line;
  std::size_t read = 0;
  while (read < kMaxHistoryBytes && std::getline(in, line)) {
    read += line.size() + 1;
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
