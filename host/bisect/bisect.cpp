#include "host/bisect/bisect.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/printable.h"
#include "host/bisect/group_search.h"
#include "host/bisect/probe.h"

namespace schedrig::bisect {
namespace {

double median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::vector<std::string> names_of(const std::vector<Candidate>& all,
                                  const std::vector<int>& units) {
  std::vector<std::string> out;
  for (const int u : units) out.push_back(all[static_cast<std::size_t>(u)].unit.name);
  return out;
}

// Runs the probes for group_search and keeps what they saw.
class Prober {
 public:
  Prober(const BisectOptions& o, const std::vector<Candidate>& candidates, const RunProbe& run,
         const std::function<void(const std::string&)>& progress, BisectResult& result)
      : o_(o),
        candidates_(candidates),
        run_(run),
        progress_(progress),
        result_(result),
        metric_(judged_metric(o.plan, o.case_name)) {}

  stats::SequentialLook operator()(const std::vector<int>& units) {
    std::vector<const Candidate*> flips;
    for (const int u : units) flips.push_back(&candidates_[static_cast<std::size_t>(u)]);
    const std::vector<std::string> names = names_of(candidates_, units);
    const std::string what = fmt::format("{}", fmt::join(names, " "));
    const store::RunRecord run = run_(probe_plan(o_.plan, o_.case_name, flips, o_.rule), what);
    const ProbePairs pairs = probe_pairs(run, metric_);
    // A look before the rule's first (a run cut short: its agent restarted,
    // an iteration failed) is outside the rule's error control.
    if (pairs.as_found.size() < static_cast<std::size_t>(o_.rule.min_pairs))
      throw std::runtime_error(printable(
          fmt::format("probe run {} ({}): {} complete pairs, fewer than the {} of the first look "
                      "({}); the search stops",
                      run.run_id.substr(0, 8), run.status, pairs.as_found.size(), o_.rule.min_pairs,
                      run.reason)));
    if (result_.metric.empty()) {
      result_.metric = pairs.metric;
      result_.unit = pairs.unit;
      result_.direction = pairs.direction;
    }
    as_found_.insert(as_found_.end(), pairs.as_found.begin(), pairs.as_found.end());
    const stats::SequentialLook look = probe_look(pairs, o_.rule);
    result_.probes.push_back({run.run_id, names, look, pairs.disturbed});
    result_.pairs += look.pairs;
    progress_(
        fmt::format("probe {}: {} -> {} {:+.1f}% [{:+.1f}, {:+.1f}] after {} pairs{} (run {})",
                    result_.probes.size(), printable(what), stats::settled_name(look.settled),
                    look.change_pct, look.low_pct, look.high_pct, look.pairs,
                    pairs.disturbed > 0 ? fmt::format(", {} disturbed", pairs.disturbed) : "",
                    run.run_id.substr(0, 8)));
    return look;
  }

  double as_found_level() const { return median(as_found_); }

 private:
  const BisectOptions& o_;
  const std::vector<Candidate>& candidates_;
  const RunProbe& run_;
  const std::function<void(const std::string&)>& progress_;
  BisectResult& result_;
  std::string metric_;
  std::vector<double> as_found_;
};

// The note for probes that ended unsettled ("" when none did): their units
// are counted as without effect, which the report must qualify.
long unsettled_probes(const std::vector<ProbeRecord>& probes) {
  return std::count_if(probes.begin(), probes.end(),
                       [](const auto& p) { return p.look.settled == stats::Settled::kUnsettled; });
}

std::string unsettled_note(const std::vector<ProbeRecord>& probes) {
  const long unsettled = unsettled_probes(probes);
  if (unsettled == 0) return "";
  return fmt::format(
      "{} of {} probes ended unsettled: their interval reached past the no-effect margin "
      "after every pair, so \"no effect shown\" is not \"no effect\" for their knobs; more "
      "--max-iterations or longer iterations would settle them",
      unsettled, probes.size());
}

// The note for pairs that ran disturbed ("" when none did): the looks
// count them (a search on a busy box would otherwise have none), which the
// report must say.
std::string disturbed_note(const std::vector<ProbeRecord>& probes) {
  int disturbed = 0, pairs = 0;
  for (const auto& p : probes) {
    disturbed += p.disturbed_pairs;
    pairs += p.look.pairs;
  }
  if (disturbed == 0) return "";
  return fmt::format(
      "{} of {} pairs ran with other work on the box (the quiet check marked them disturbed, "
      "as `lab` does); the looks count them, so their intervals are wider than on a quiet box",
      disturbed, pairs);
}

std::string note_lines(const std::vector<std::string>& notes) {
  std::string out;
  for (const auto& n : notes) out += "note: " + printable(n) + "\n";
  return out;
}

std::string skipped_lines(const std::vector<Skipped>& skipped) {
  std::string out;
  for (const auto& s : skipped)
    out += fmt::format("skipped {}: {}\n", printable(s.name), printable(s.reason));
  return out;
}

std::string verdict_mark(double change_pct, const std::string& direction) {
  const bool lower_better = direction == "lower_is_better";
  return (change_pct > 0) != lower_better ? "(I)" : "(R)";
}

}  // namespace

double run_level(const store::RunRecord& run, const std::string& case_name,
                 const std::string& variant, const std::string& metric, bool* disturbed) {
  const std::string v = !variant.empty()         ? variant
                        : run.iterations.empty() ? ""
                                                 : run.iterations.front().variant;
  std::vector<double> quiet, values;
  for (const auto& it : run.iterations) {
    if (it.case_name != case_name || it.variant != v || it.status != "ok" || it.metrics.empty())
      continue;
    for (const auto& m : it.metrics) {
      if (metric.empty() ? &m == &it.metrics.front() : m.name == metric) {
        values.push_back(m.value);
        if (!it.disturbed) quiet.push_back(m.value);
      }
    }
  }
  if (disturbed) *disturbed = quiet.empty() && !values.empty();
  if (!quiet.empty()) return median(quiet);  // as compare judges: disturbed ones left out
  if (values.empty())
    throw std::invalid_argument(fmt::format("run {} has no ok iterations of case '{}' variant '{}'",
                                            run.run_id.substr(0, 8), case_name, v));
  return median(values);
}

BisectResult bisect_knobs(const BoxKnobs& box, const BisectOptions& o, const RunProbe& run,
                          const std::function<void(const std::string&)>& progress) {
  judged_metric(o.plan, o.case_name);  // throws for a case the plan lacks
  const CandidateSet set = make_candidates(box, o.filter);
  BisectResult result;
  result.case_name = o.case_name;
  result.skipped = set.skipped;
  result.notes = set.notes;
  result.target_level = o.target_level;
  result.target_name = o.target_name;
  if (set.candidates.empty()) return result;
  std::vector<Unit> units;
  for (const auto& c : set.candidates) units.push_back(c.unit);
  Prober prober(o, set.candidates, run, progress, result);
  const int group = o.group_size > 0 ? o.group_size : static_cast<int>(units.size());
  const SearchResult search = group_search(units, group, std::ref(prober));
  result.as_found_level = prober.as_found_level();
  const double gap_pct = o.target_level ? (*o.target_level / result.as_found_level - 1) * 100 : 0;
  for (const auto& f : search.findings) {
    KnobFinding k{names_of(set.candidates, f.units), f.interaction, f.look, f.confirmation, {}};
    if (o.target_level && gap_pct != 0) k.closes_gap_pct = f.look.change_pct / gap_pct * 100;
    result.findings.push_back(std::move(k));
  }
  std::sort(result.findings.begin(), result.findings.end(), [](const auto& a, const auto& b) {
    return std::abs(std::log1p(a.look.change_pct / 100)) >
           std::abs(std::log1p(b.look.change_pct / 100));
  });
  result.no_effect = names_of(set.candidates, search.cleared);
  result.notes.insert(result.notes.end(), search.notes.begin(), search.notes.end());
  if (const std::string n = unsettled_note(result.probes); !n.empty()) result.notes.push_back(n);
  if (const std::string n = disturbed_note(result.probes); !n.empty()) result.notes.push_back(n);
  return result;
}

std::string bisect_text(const BisectResult& r) {
  if (r.probes.empty()) {
    std::string out =
        fmt::format("bisect-knobs: case {}: nothing to probe, {}\n", printable(r.case_name),
                    r.skipped.empty() ? "no candidate matched" : "every candidate was skipped");
    return out + skipped_lines(r.skipped) + note_lines(r.notes) + "probes: 0\n";
  }
  std::string out = fmt::format(
      "bisect-knobs: case {}, {} ({}), as found {:.6g} {}{}\n", printable(r.case_name),
      printable(r.metric), r.direction.empty() ? "?" : printable(r.direction), r.as_found_level,
      printable(r.unit),
      r.target_level
          ? fmt::format("; target {:.6g} ({})", *r.target_level, printable(r.target_name))
          : "");
  const long unsettled = unsettled_probes(r.probes);
  out += !r.findings.empty() ? "knobs that matter, largest first:\n"
         : unsettled > 0
             ? fmt::format("no knob shown to change it ({} probes unsettled)\n", unsettled)
             : "no knob changes it\n";
  for (const auto& f : r.findings) {
    out +=
        fmt::format("  {:<32} {:+.1f}% {} [{:+.1f}, {:+.1f}], again {:+.1f}%{}{}\n",
                    printable(fmt::format("{}", fmt::join(f.units, "+"))), f.look.change_pct,
                    verdict_mark(f.look.change_pct, r.direction), f.look.low_pct, f.look.high_pct,
                    f.confirmation.change_pct, f.interaction ? ", only together" : "",
                    f.closes_gap_pct ? fmt::format(", closes {:.0f}% of the gap to {}",
                                                   *f.closes_gap_pct, printable(r.target_name))
                                     : "");
  }
  if (!r.no_effect.empty())
    out += fmt::format("no effect shown ({}): {}\n", r.no_effect.size(),
                       printable(fmt::format("{}", fmt::join(r.no_effect, ", "))));
  out += skipped_lines(r.skipped);
  out += note_lines(r.notes);
  out += fmt::format("probes: {} ({} iterations per side)\n", r.probes.size(), r.pairs);
  return out;
}

nlohmann::json bisect_json(const BisectResult& r) {
  const auto look_json = [](const stats::SequentialLook& l) {
    return nlohmann::json{{"settled", stats::settled_name(l.settled)},
                          {"change_pct", l.change_pct},
                          {"ci_low_pct", l.low_pct},
                          {"ci_high_pct", l.high_pct},
                          {"pairs", l.pairs}};
  };
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : r.findings) {
    nlohmann::json j = {{"units", f.units},
                        {"interaction", f.interaction},
                        {"look", look_json(f.look)},
                        {"confirmation", look_json(f.confirmation)}};
    if (f.closes_gap_pct) j["closes_gap_pct"] = *f.closes_gap_pct;
    findings.push_back(j);
  }
  nlohmann::json probes = nlohmann::json::array();
  for (const auto& p : r.probes)
    probes.push_back({{"run_id", p.run_id},
                      {"units", p.units},
                      {"look", look_json(p.look)},
                      {"disturbed_pairs", p.disturbed_pairs}});
  nlohmann::json skipped = nlohmann::json::array();
  for (const auto& s : r.skipped) skipped.push_back({{"name", s.name}, {"reason", s.reason}});
  nlohmann::json j = {{"case", r.case_name},
                      {"metric", r.metric},
                      {"unit", r.unit},
                      {"direction", r.direction},
                      {"as_found_level", r.probes.empty() ? nlohmann::json(nullptr)
                                                          : nlohmann::json(r.as_found_level)},
                      {"findings", findings},
                      {"no_effect", r.no_effect},
                      {"skipped", skipped},
                      {"notes", r.notes},
                      {"probes", probes},
                      {"pairs_per_side", r.pairs}};
  if (r.target_level) j["target"] = {{"name", r.target_name}, {"level", *r.target_level}};
  return j;
}

}  // namespace schedrig::bisect
