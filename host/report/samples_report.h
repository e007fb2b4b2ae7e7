// Samples (one per sampler interval, docs/sampling.md) for people and
// programs: `schedrig results RUN --samples [--json|--csv]` and the live
// lines of `schedrig watch`.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/store/records.h"

namespace schedrig::report {

// The value `name` ("idle_pct", "busy_pct_node0", ...) of `s`; empty when
// the agent did not send it (its source was missing).
std::optional<double> sample_value(const store::SampleRecord& s, std::string_view name);

// A header, then one line per sample in the order given: TIME (UTC, ms),
// CASE, VARIANT, ITER, OPS (the workload's counter so far), IDLE%,
// RUNNABLE, CTXT/S, WAIT% (workload wait share), NEWIDLE/S, PSI% (some),
// FLAGS ("STARVED" when the interval completed the starvation signature).
// Numbers as format_number; "-" for an absent value. Columns aligned.
void print_samples_table(const std::vector<store::SampleRecord>& samples, std::ostream& out);

// {"run_id","case","variant","iteration","position","t_ns","interval_s",
//  "ops_so_far","values":{name: number, present values only},"starved",
//  "starved_reason"}
nlohmann::json sample_json(const store::SampleRecord& s);

// {"samples":[sample_json, ...]} in the order given.
nlohmann::json samples_json(const std::vector<store::SampleRecord>& samples);

// Header "run_id,case,variant,iteration,position,t_ns,interval_s,ops_so_far",
// then one column per value name any sample has (in SampleRecord::values
// order, nodes by number), then "starved,starved_reason" (starved 0|1); one
// row per sample, an absent value an empty field. Numbers read back exactly.
void print_samples_csv(const std::vector<store::SampleRecord>& samples, std::ostream& out);

// `watch`'s live view of one run: lines written as samples and results
// arrive, in fixed-width columns (the table's, plus POS = position+1 /
// planned after TIME) so they line up without knowing later rows.
class SampleLineWriter {
 public:
  // `planned`: the run's planned iterations (POS's denominator).
  SampleLineWriter(std::ostream& out, unsigned planned);

  // The column header line.
  void header();
  // One line per sample, cells as in print_samples_table.
  void sample(const store::SampleRecord& s);
  // "TIME  [POS] CASE / VARIANT / iteration N: 127,553 ops/s" when an
  // iteration result arrives (TIME: its end), FAILED and the reason when it
  // failed, "; N starved intervals" when the sampler flagged any.
  void iteration(const store::IterationRecord& it);

 private:
  std::ostream& out_;
  unsigned planned_;
};

}  // namespace schedrig::report
