// What `schedrig watch` prints as a run goes on, from the local store
// (watch_command.cpp) or from the server's run events (remote_watch.cpp):
// a header line, one line (or NDJSON object) per sample and per iteration
// result, and a last line when the run has ended.
#pragma once

#include <ostream>
#include <string>

#include "host/report/samples_report.h"
#include "host/store/records.h"

namespace schedrig::host {

class WatchPrinter {
 public:
  // `planned`: the run's planned iterations; `json`: NDJSON instead of lines.
  WatchPrinter(std::ostream& out, bool json, std::string run_id, unsigned planned);

  // "run ID (STATUS, N iterations planned)" and the column header (nothing in JSON).
  void start(const std::string& status);
  // One poll of the store, in the order it happened: a position's samples
  // before its result (samples come during the window, the result after it).
  void print(const store::RunProgress& p);
  // One sample: a line, or {"event":"sample", ...as results --samples}.
  void sample(const store::SampleRecord& s);
  // One result: a line, or {"event":"iteration", "run_id", "position", ...as results --json}.
  void iteration(const store::IterationRecord& it);
  // "run ID STATUS: N iteration results" ("run ID STATUS: REASON (N
  // iteration results)" when it failed or was aborted), or
  // {"event":"run_finished","run_id","status"[,"reason"]}.
  // `dropped_samples` > 0 adds "; N samples dropped" (JSON: "dropped_samples").
  void finish(const std::string& status, const std::string& reason,
              unsigned long long dropped_samples = 0);

 private:
  std::ostream& out_;
  bool json_;
  std::string run_id_;
  unsigned planned_;
  report::SampleLineWriter lines_;
  unsigned results_ = 0;
};

}  // namespace schedrig::host
