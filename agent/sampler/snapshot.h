// One reading of every source at one instant, and the reader that keeps
// the source files open between readings.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <vector>

#include "agent/sampler/loadavg.h"
#include "agent/sampler/pressure.h"
#include "agent/sampler/proc_file.h"
#include "agent/sampler/proc_stat.h"
#include "agent/sampler/sampler.h"
#include "agent/sampler/schedstat.h"
#include "agent/sampler/task_schedstat.h"
#include "agent/sampler/vmstat.h"

namespace schedrig::sampler {

struct Snapshot {
  std::int64_t mono_ns = 0;  // CLOCK_MONOTONIC when read
  std::int64_t real_ns = 0;  // CLOCK_REALTIME when read
  ProcStat stat;
  std::optional<Schedstat> schedstat;  // empty: absent or unusable
  std::optional<Vmstat> vmstat;
  std::optional<Pressure> pressure;
  std::optional<Loadavg> loadavg;
  std::map<pid_t, TaskSchedstat> tasks;  // watched threads that still exist, by TID
};

// Opens every source under root/proc once. /proc/stat is required
// (std::runtime_error naming it); the others are optional and a source that
// fails to open or parse is dropped for good (its status says why).
class SnapshotReader {
 public:
  explicit SnapshotReader(const std::filesystem::path& root);
  // Reads every open source. Throws std::runtime_error when /proc/stat cannot
  // be read or parsed (the caller skips the tick).
  Snapshot take();
  void watch_tasks(const std::vector<TaskId>& tasks);
  // Status of each source as of the last take() (or construction).
  const std::vector<SourceStatus>& sources() const { return sources_; }

 private:
  template <typename T, typename Parse>
  std::optional<T> read_optional(ProcFile& file, SourceStatus& status, Parse parse);

  long hz_;
  ProcFile stat_, schedstat_, vmstat_, pressure_, loadavg_;
  std::vector<SourceStatus> sources_;
  TaskSchedstatReader tasks_;
};

std::int64_t monotonic_ns();
std::int64_t realtime_ns();

}  // namespace schedrig::sampler
