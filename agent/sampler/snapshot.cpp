#include "agent/sampler/snapshot.h"

#include <time.h>

#include <string>

#include "agent/sampler/source_status.h"

namespace schedrig::sampler {
namespace {

std::int64_t clock_ns(clockid_t clock) {
  timespec ts{};
  ::clock_gettime(clock, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000LL + ts.tv_nsec;
}

// "cannot open /proc/stat: No such file or directory", kUnreachable.
SamplerError unreachable(const char* what, const procfs::FileReader& file) {
  return SamplerError(ErrorKind::kUnreachable,
                      std::string(what) + " " + file.path() + ": " + file.error_text(),
                      file.error());
}

}  // namespace

std::int64_t monotonic_ns() { return clock_ns(CLOCK_MONOTONIC); }
std::int64_t realtime_ns() { return clock_ns(CLOCK_REALTIME); }

SnapshotReader::SnapshotReader(const procfs::Root& root)
    : hz_(user_hz()),
      stat_(root.path(kProcStat)),
      schedstat_(root.path(kProcSchedstat)),
      vmstat_(root.path(kProcVmstat)),
      pressure_(root.path(kProcPressureCpu)),
      loadavg_(root.path(kProcLoadavg)),
      tasks_(root),
      children_(root) {
  if (!stat_.ok()) throw unreachable("cannot open", stat_);
  sources_ = probe_sources(root);
}

template <typename T, typename Parse>
std::optional<T> SnapshotReader::read_optional(procfs::FileReader& file, SourceStatus& status,
                                               Parse parse) {
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
  if (!stat_.read(text)) throw unreachable("cannot read", stat_);
  s.stat = parse_proc_stat(text, hz_);
  s.schedstat = read_optional<Schedstat>(schedstat_, sources_[1], parse_schedstat);
  s.vmstat = read_optional<Vmstat>(vmstat_, sources_[2], parse_vmstat);
  s.pressure = read_optional<Pressure>(pressure_, sources_[3], parse_pressure);
  s.loadavg = read_optional<Loadavg>(loadavg_, sources_[4], parse_loadavg);
  s.tasks = tasks_.read();
  s.children_ns = children_.read();
  return s;
}

void SnapshotReader::watch_tasks(const std::vector<procfs::TaskId>& tasks) {
  tasks_.watch(tasks);
  children_.watch(tasks);
}

}  // namespace schedrig::sampler
