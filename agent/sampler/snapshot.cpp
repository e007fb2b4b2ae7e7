#include "agent/sampler/snapshot.h"

#include <time.h>

#include <cstring>
#include <stdexcept>
#include <string>

#include "agent/sampler/source_status.h"

namespace schedrig::sampler {
namespace {

std::int64_t clock_ns(clockid_t clock) {
  timespec ts{};
  ::clock_gettime(clock, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000LL + ts.tv_nsec;
}

}  // namespace

std::int64_t monotonic_ns() { return clock_ns(CLOCK_MONOTONIC); }
std::int64_t realtime_ns() { return clock_ns(CLOCK_REALTIME); }

SnapshotReader::SnapshotReader(const std::filesystem::path& root)
    : hz_(user_hz()),
      stat_(source_file(root, kProcStat)),
      schedstat_(source_file(root, kProcSchedstat)),
      vmstat_(source_file(root, kProcVmstat)),
      pressure_(source_file(root, kProcPressureCpu)),
      loadavg_(source_file(root, kProcLoadavg)),
      tasks_(root) {
  if (!stat_.ok()) {
    throw std::runtime_error(std::string("cannot open ") + stat_.path() + ": " +
                             std::strerror(stat_.error()));
  }
  sources_ = probe_sources(root);
}

template <typename T, typename Parse>
std::optional<T> SnapshotReader::read_optional(ProcFile& file, SourceStatus& status, Parse parse) {
  if (!file.ok() || !status.present) return std::nullopt;
  std::string_view text;
  if (!file.read(text)) {
    status = absent_status(status.path, file.error());
    return std::nullopt;
  }
  try {
    return parse(text);
  } catch (const std::exception& e) {
    status.present = false;
    status.reason = e.what();
    return std::nullopt;
  }
}

Snapshot SnapshotReader::take() {
  Snapshot s;
  s.mono_ns = monotonic_ns();
  s.real_ns = realtime_ns();
  std::string_view text;
  if (!stat_.read(text)) {
    throw std::runtime_error(std::string("cannot read ") + stat_.path() + ": " +
                             std::strerror(stat_.error()));
  }
  s.stat = parse_proc_stat(text, hz_);
  s.schedstat = read_optional<Schedstat>(schedstat_, sources_[1], parse_schedstat);
  s.vmstat = read_optional<Vmstat>(vmstat_, sources_[2], parse_vmstat);
  s.pressure = read_optional<Pressure>(pressure_, sources_[3], parse_pressure);
  s.loadavg = read_optional<Loadavg>(loadavg_, sources_[4], parse_loadavg);
  s.tasks = tasks_.read();
  return s;
}

void SnapshotReader::watch_tasks(const std::vector<TaskId>& tasks) {
  std::vector<std::pair<pid_t, pid_t>> ids;
  ids.reserve(tasks.size());
  for (const auto& t : tasks) ids.emplace_back(t.pid, t.tid);
  tasks_.watch(ids);
}

}  // namespace schedrig::sampler
