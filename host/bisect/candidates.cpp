#include "host/bisect/candidates.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "common/parse_whole.h"

namespace schedrig::bisect {
namespace {

// Candidate values per knob (docs/bisect-knobs.md "Candidates"): booleans
// both ways, enumerations every value, numeric tunables a short list
// around the kernel's default inside the allowed range.
const std::map<std::string, std::vector<std::string>>& value_table() {
  static const std::map<std::string, std::vector<std::string>> table = {
      {"kernel.sched_autogroup_enabled", {"0", "1"}},
      {"kernel.numa_balancing", {"0", "1", "2", "3"}},
      {"kernel.sched_child_runs_first", {"0", "1"}},
      {"kernel.sched_energy_aware", {"0", "1"}},
      {"kernel.sched_rr_timeslice_ms", {"10", "100"}},
      {"kernel.sched_cfs_bandwidth_slice_us", {"1000", "5000", "20000"}},
      {"kernel.sched_util_clamp_min", {"0", "1024"}},
      {"kernel.sched_util_clamp_max", {"512", "1024"}},
      {"kernel.sched_util_clamp_min_rt_default", {"0", "1024"}},
      {"kernel.timer_migration", {"0", "1"}},
      {"kernel.numa_balancing_promote_rate_limit_MBps", {"1024", "65536"}},
      {"sched/base_slice_ns", {"750000", "3000000"}},
      {"sched/migration_cost_ns", {"0", "500000", "5000000"}},
      {"sched/nr_migrate", {"8", "32", "128"}},
      {"sched/tunable_scaling", {"0", "1", "2"}},
      {"sched/latency_ns", {"6000000", "24000000"}},
      {"sched/min_granularity_ns", {"750000", "3000000"}},
      {"sched/idle_min_granularity_ns", {"750000"}},
      {"sched/wakeup_granularity_ns", {"1000000", "4000000"}},
      {"sched/numa_balancing/scan_delay_ms", {"1000", "5000"}},
      {"sched/numa_balancing/scan_period_min_ms", {"100", "1000"}},
      {"sched/numa_balancing/scan_period_max_ms", {"10000", "60000"}},
      {"sched/numa_balancing/scan_size_mb", {"64", "256"}},
      {"sched/numa_balancing/hot_threshold_ms", {"1000"}},
  };
  return table;
}

const std::map<std::string, std::string>& denylist_table() {
  static const std::map<std::string, std::string> table = {
      {"LATENCY_WARN", "emits a kernel WARN (fatal under panic_on_warn)"},
      {"WARN_DOUBLE_CLOCK", "emits a kernel WARN (fatal under panic_on_warn)"},
      {"kernel.sched_rt_runtime_us", "RT throttling: a runaway RT task could starve the box"},
      {"kernel.sched_rt_period_us", "RT throttling: a runaway RT task could starve the box"},
      {"kernel.sched_schedstats", "the runner's own measurement turns it on"},
      {"sched/latency_warn_ms", "emits kernel warnings"},
      {"sched/latency_warn_once", "emits kernel warnings"},
      {"sched/verbose", "floods the kernel log"},
  };
  return table;
}

// Pairs whose values the kernel keeps ordered: first <= second.
const std::vector<std::pair<std::string, std::string>>& ordered_pairs() {
  static const std::vector<std::pair<std::string, std::string>> pairs = {
      {"kernel.sched_util_clamp_min", "kernel.sched_util_clamp_max"},
      {"sched/numa_balancing/scan_period_min_ms", "sched/numa_balancing/scan_period_max_ms"},
  };
  return pairs;
}

// Why setting `knob` to `value` would break an ordered pair on `box`, or "".
std::string pair_problem(const BoxKnobs& box, const std::string& knob, const std::string& value) {
  const auto v = try_parse_whole<long long>(value);
  for (const auto& [low, high] : ordered_pairs()) {
    const bool is_low = knob == low;
    if (!is_low && knob != high) continue;
    const std::string& other = is_low ? high : low;
    const auto it = box.knobs.find(other);
    if (it == box.knobs.end() || !it->second.value) continue;
    const auto o = try_parse_whole<long long>(*it->second.value);
    if (!v || !o) continue;
    if (is_low ? *v > *o : *v < *o)
      return fmt::format("{}={} would be {} {} ({})", knob, value, is_low ? "above" : "below",
                         other, *o);
  }
  return "";
}

bool wants(const CandidateFilter& f, const std::string& kind, const std::string& name) {
  for (const auto& k : f.kinds_or_names)
    if (k == "all" || k == kind || k == name) return true;
  return false;
}

// Whether `list` names `name`; a feature is named with or without NO_.
bool names(const std::vector<std::string>& list, const std::string& name) {
  return std::any_of(list.begin(), list.end(),
                     [&](const std::string& d) { return d == name || d == "NO_" + name; });
}

// Why `name` may not be flipped, "" when it may.
std::string denied(const CandidateFilter& f, const std::string& name) {
  if (names(f.agent_denylist, name)) return "denylisted by the agent's config (bisect_deny)";
  if (names(f.denylist, name)) return "denylisted (--deny)";
  const std::string why = default_denylist_reason(name);
  return why.empty() ? "" : "denylisted: " + why;
}

std::string token(const std::string& feature, bool on) { return on ? feature : "NO_" + feature; }

void add_features(const BoxKnobs& box, const CandidateFilter& f, CandidateSet& out) {
  std::set<std::string> bundled;
  for (const auto& bundle : feature_bundles()) {
    std::vector<std::string> present;
    std::string why;
    for (const auto& name : bundle) {
      if (!box.features.count(name) || !wants(f, "features", name)) continue;
      present.push_back(name);
      if (why.empty()) why = denied(f, name);
    }
    if (present.size() < 2) continue;
    if (!why.empty()) {  // one member may not flip: neither does the bundle
      bundled.insert(present.begin(), present.end());
      out.skipped.push_back({fmt::format("{}", fmt::join(present, "+")), why});
      continue;
    }
    Candidate c;
    std::vector<std::string> tokens;
    for (const auto& name : present) {
      bundled.insert(name);
      tokens.push_back(token(name, !box.features.at(name)));
    }
    c.unit = {fmt::format("{}", fmt::join(tokens, "+")), "sched_features:" + present[0]};
    c.features = tokens;
    out.candidates.push_back(std::move(c));
  }
  for (const auto& [name, on] : box.features) {
    if (bundled.count(name) || !wants(f, "features", name)) continue;
    if (const std::string why = denied(f, name); !why.empty()) {
      out.skipped.push_back({name, why});
      continue;
    }
    Candidate c;
    c.unit = {token(name, !on), "sched_features:" + name};
    c.features = {token(name, !on)};
    out.candidates.push_back(std::move(c));
  }
}

// -?(0|[1-9][0-9]*) that fits a long long: what the allowlist's values are.
bool plain_integer(const std::string& v) {
  const std::string digits = v.rfind('-', 0) == 0 ? v.substr(1) : v;
  return !digits.empty() && digits.size() <= 18 &&
         digits.find_first_not_of("0123456789") == std::string::npos &&
         (digits == "0" || digits[0] != '0') && v != "-0";
}

void add_knob(const BoxKnobs& box, const std::string& name, const BoxKnob& knob,
              const CandidateFilter& f, CandidateSet& out) {
  const bool sysctl = name.rfind("sched/", 0) != 0;
  if (!wants(f, sysctl ? "sysctls" : "tunables", name)) return;
  if (const std::string why = denied(f, name); !why.empty())
    return out.skipped.push_back({name, why});
  if (!knob.writable) {  // ENOENT: the kernel lacks it (or, for sched/, debugfs is not mounted)
    const bool absent = knob.why_not.find("ENOENT") != std::string::npos;
    return out.skipped.push_back(
        {name, (absent ? "absent here: " : "not writable here: ") + knob.why_not});
  }
  // Unread, it could not be checked as found after the search.
  if (!knob.value) return out.skipped.push_back({name, "its value as found was not reported"});
  if (!plain_integer(*knob.value))  // 01, ' 1', 99999999999999999999: no restore would take it
    return out.skipped.push_back(
        {name, fmt::format("its value as found '{}' is not a plain integer", *knob.value)});
  const auto& values = candidate_values(name);
  if (values.empty()) return out.skipped.push_back({name, "no candidate values"});
  for (const std::string& value : values) {
    if (knob.value && *knob.value == value) continue;  // as found: nothing to flip
    if (const std::string why = pair_problem(box, name, value); !why.empty()) {
      out.skipped.push_back({name + "=" + value, why});
      continue;
    }
    Candidate c;
    c.unit = {name + "=" + value, name};
    (sysctl ? c.sysctl : c.debugfs)[name] = value;
    out.candidates.push_back(std::move(c));
  }
}

// The notes for deny names that name no feature or knob of this box (a
// typo keeps nothing out).
void note_unknown_deny(const BoxKnobs& box, const CandidateFilter& f, CandidateSet& out) {
  const auto known = [&](const std::string& d) {
    const std::string feature = d.rfind("NO_", 0) == 0 ? d.substr(3) : d;
    return box.features.count(d) || box.features.count(feature) || box.knobs.count(d) ||
           !candidate_values(d).empty() || !default_denylist_reason(d).empty() ||
           !default_denylist_reason(feature).empty();
  };
  const std::pair<const std::vector<std::string>*, const char*> lists[] = {
      {&f.denylist, "--deny"}, {&f.agent_denylist, "the agent's bisect_deny"}};
  for (const auto& [list, what] : lists)
    for (const auto& d : *list)
      if (!known(d))
        out.notes.push_back(
            fmt::format("{} {}: no feature or knob of this box has that name", what, d));
}

// Throws for a filter entry that names nothing.
void check_filter(const BoxKnobs& box, const CandidateFilter& f) {
  for (const auto& k : f.kinds_or_names) {
    if (k == "all" || k == "features" || k == "sysctls" || k == "tunables") continue;
    if (box.features.count(k) || box.knobs.count(k)) continue;
    throw std::invalid_argument(fmt::format(
        "--candidates {}: not features, sysctls, tunables, all, or a knob this box has", k));
  }
}

}  // namespace

const std::vector<std::string>& candidate_values(const std::string& knob) {
  static const std::vector<std::string> none;
  const auto it = value_table().find(knob);
  return it == value_table().end() ? none : it->second;
}

std::string default_denylist_reason(const std::string& name) {
  const auto it = denylist_table().find(name);
  return it == denylist_table().end() ? "" : it->second;
}

const std::vector<std::vector<std::string>>& feature_bundles() {
  static const std::vector<std::vector<std::string>> bundles = {
      {"DELAY_DEQUEUE", "DELAY_ZERO"},  // DELAY_ZERO acts on delayed dequeues only
      {"UTIL_EST", "UTIL_EST_FASTUP"},  // FASTUP refines util_est (before 6.8)
  };
  return bundles;
}

CandidateSet make_candidates(const BoxKnobs& box, const CandidateFilter& filter) {
  check_filter(box, filter);
  CandidateSet out;
  if (box.features_writable) {
    add_features(box, filter, out);
  } else if (!box.features.empty() || wants(filter, "features", "")) {
    out.skipped.push_back({"sched features", "not writable here: " + box.features_why_not});
  }
  for (const auto& [name, knob] : box.knobs) add_knob(box, name, knob, filter, out);
  for (const auto& name : box.bad_feature_names)
    out.skipped.push_back({name, "not a feature name ([A-Za-z0-9_], 1-64 bytes)"});
  out.skipped.insert(out.skipped.end(), box.not_listed.begin(), box.not_listed.end());
  note_unknown_deny(box, filter, out);
  return out;
}

}  // namespace schedrig::bisect
