// What `schedrig bisect-knobs` may flip on a box (docs/bisect-knobs.md
// "Candidates"): every sched feature to its opposite, every allowlisted
// sysctl and debugfs sched tunable to each of its candidate values (a
// documented short list inside the allowed range, never the value as
// found), minus a denylist of knobs whose flip can hurt the box, with
// features that depend on each other bundled into one unit. What the box
// cannot change (debugfs locked, a feature this kernel lacks, a knob not
// writable) is listed as skipped with the reason, never dropped.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "host/bisect/group_search.h"

namespace schedrig::bisect {

// One knob of the box as found (from the agent's Hello capabilities).
struct BoxKnob {
  std::optional<std::string> value;  // as found; nullopt when unreadable
  bool writable = false;
  std::string why_not;  // "EPERM", "absent": why it cannot be written
};

// A candidate not tried, and why.
struct Skipped {
  std::string name;
  std::string reason;  // "denylisted: emits a kernel WARN (fatal under panic_on_warn)"
};

// The box: sched features (name -> on) when the features file is writable,
// and the sysctls and tunables by plan name.
struct BoxKnobs {
  std::map<std::string, bool> features;
  bool features_writable = false;
  std::string features_why_not;          // when not writable
  std::map<std::string, BoxKnob> knobs;  // "kernel.numa_balancing", "sched/base_slice_ns"
  std::vector<std::string> agent_deny;   // the agent config's bisect_deny (through a server)
  std::string instance_id;               // the agent instance whose Hello said it (server)
  // Feature names the box listed that are not names ([A-Za-z0-9_], 1-64
  // bytes): never flipped, listed as skipped.
  std::vector<std::string> bad_feature_names;
  // What the server's document did not list (its left_out counts), named
  // as skipped: "sched features (3 more)".
  std::vector<Skipped> not_listed;
};

// What to try: any of "features", "sysctls", "tunables", "all", or knob
// names ("NI_RANDOM", "kernel.numa_balancing").
struct CandidateFilter {
  std::vector<std::string> kinds_or_names = {"all"};
  std::vector<std::string> denylist;             // more names to keep out (--deny)
  std::vector<std::string> agent_denylist = {};  // and the agent config's bisect_deny
};

// One flip the search may make: what the plan variant sets.
struct Candidate {
  Unit unit;
  std::vector<std::string> features;          // tokens: "NO_NI_RANDOM", "DELAY_DEQUEUE"
  std::map<std::string, std::string> sysctl;  // name -> value
  std::map<std::string, std::string> debugfs;
};

struct CandidateSet {
  std::vector<Candidate> candidates;
  std::vector<Skipped> skipped;
  std::vector<std::string> notes;  // deny names that name nothing on this box
};

// The candidate values of an allowlisted sysctl or tunable (empty for one
// with none, e.g. denylisted), in order.
const std::vector<std::string>& candidate_values(const std::string& knob);

// Why `name` (a feature or knob) is on the default denylist, or "".
std::string default_denylist_reason(const std::string& name);

// The features flipped together: each set's members exist only together
// (DELAY_ZERO acts only with DELAY_DEQUEUE).
const std::vector<std::vector<std::string>>& feature_bundles();

// The candidates for `box`. Throws std::invalid_argument for a filter entry
// that is neither a kind nor a knob the box has, naming it.
CandidateSet make_candidates(const BoxKnobs& box, const CandidateFilter& filter);

}  // namespace schedrig::bisect
