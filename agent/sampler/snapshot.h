// One reading of every source at one instant, and the reader that keeps
// the source files open between readings.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "agent/sampler/children_cpu.h"
#include "agent/sampler/loadavg.h"
#include "agent/sampler/pressure.h"
#include "agent/sampler/proc_stat.h"
#include "agent/sampler/sampler.h"
#include "agent/sampler/schedstat.h"
#include "agent/sampler/task_schedstat_reader.h"
#include "agent/sampler/vmstat.h"
#include "common/procfs/file_reader.h"
#include "common/procfs/root.h"
#include "common/procfs/task_id.h"

namespace schedrig::sampler {

struct Snapshot {
  std::int64_t mono_ns = 0;  // CLOCK_MONOTONIC when read
  std::int64_t real_ns = 0;  // CLOCK_REALTIME when read
  ProcStat stat;
  std::optional<Schedstat> schedstat;  // empty: absent or unusable
  std::optional<Vmstat> vmstat;
  std::optional<Pressure> pressure;
  std::optional<Loadavg> loadavg;
  std::map<pid_t, procfs::TaskSchedstat> tasks;  // watched threads that still exist, by TID
  std::map<pid_t, std::uint64_t> children_ns;    // reaped children's CPU of watched processes
};

// Opens every source under ROOT/proc once. /proc/stat is required
// (SamplerError, kUnreachable with its errno, naming it); the others are optional and a source that
// fails to open or parse is dropped for good (its status says why).
class SnapshotReader {
 public:
  explicit SnapshotReader(const procfs::Root& root);
  // Reads every open source. Throws SamplerError when /proc/stat cannot be
  // read (kUnreachable) or parsed (kFailed); the caller skips the tick.
  Snapshot take();
  void watch_tasks(const std::vector<procfs::TaskId>& tasks);
  // Status of each source as of the last take() (or construction).
  const std::vector<SourceStatus>& sources() const { return sources_; }

 private:
  template <typename T, typename Parse>
  std::optional<T> read_optional(procfs::FileReader& file, SourceStatus& status, Parse parse);

  long hz_;
  procfs::FileReader stat_, schedstat_, vmstat_, pressure_, loadavg_;
  std::vector<SourceStatus> sources_;
  TaskSchedstatReader tasks_;
  ChildrenCpuReader children_;
};

std::int64_t monotonic_ns();
std::int64_t realtime_ns();

}  // namespace schedrig::sampler
