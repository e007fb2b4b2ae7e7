#include "common/procfs/task_schedstat.h"

#include <algorithm>
#include <array>
#include <string>

#include "common/parse_whole.h"

namespace schedrig::procfs {
namespace {

constexpr std::string_view kBlanks = " \t";

// The next blank-separated field of `line` (consumed), "" when none is left.
std::string_view next_field(std::string_view& line) {
  const auto start = line.find_first_not_of(kBlanks);
  if (start == std::string_view::npos) {
    line = {};
    return {};
  }
  line.remove_prefix(start);
  const auto end = std::min(line.find_first_of(kBlanks), line.size());
  const std::string_view field = line.substr(0, end);
  line.remove_prefix(end);
  return field;
}

}  // namespace

std::optional<TaskSchedstat> parse_task_schedstat(std::string_view text) {
  std::string_view line = text.substr(0, text.find('\n'));
  std::array<std::uint64_t, 3> v{};
  for (auto& value : v) {
    const auto n = try_parse_whole<std::uint64_t>(next_field(line));
    if (!n) return std::nullopt;
    value = *n;
  }
  if (!next_field(line).empty()) return std::nullopt;
  return TaskSchedstat{v[0], v[1], v[2]};
}

std::filesystem::path task_schedstat_path(const Root& root, const TaskId& task) {
  return root.path("proc/" + std::to_string(task.pid) + "/task/" + std::to_string(task.tid) +
                   "/schedstat");
}

}  // namespace schedrig::procfs
