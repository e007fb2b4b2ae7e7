// What a workload tells the runner about its measured window, so the
// sampler can watch it (issue #6): the kernel ids of its threads (or
// creator processes) for their /proc/PID/task/TID/schedstat, and a live
// count of its primary counter for `schedrig watch`.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "common/procfs/task_id.h"

namespace schedrig::workloads {

// The window as it opens.
struct WorkloadWindow {
  std::vector<procfs::TaskId> tasks;
  // The primary counter so far (children reaped, requests, ops); callable
  // from any thread until `closed` has been called, never after.
  std::function<std::uint64_t()> ops_so_far;
};

// Both hooks run on the workload's own thread, at most once per run:
// `opened` after every thread is up and just before the window opens,
// `closed` once it has closed and before anything `opened` was given is
// freed. Either may be empty.
struct WindowObserver {
  std::function<void(const WorkloadWindow&)> opened;
  std::function<void()> closed;
  // Between the two: the workload's tasks are now these (an external tool
  // started again for the next run, agent/workloads/tool_case.h). May be
  // empty.
  std::function<void(const std::vector<procfs::TaskId>&)> tasks_changed{};
};

}  // namespace schedrig::workloads
