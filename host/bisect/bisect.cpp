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
    if (pairs.as_found.size() < 2)
      throw std::runtime_error(
          printable(fmt::format("probe run {} ({}): fewer than 2 complete pairs ({})",
                                run.run_id.substr(0, 8), run.status, run.reason)));
    if (result_.metric.empty()) {
      result_.metric = pairs.metric;
      result_.unit = pairs.unit;
      result_.direction = pairs.direction;
    }
    as_found_.insert(as_found_.end(), pairs.as_found.begin(), pairs.as_found.end());
    const stats::SequentialLook look = probe_look(pairs, o_.rule);
    result_.probes.push_back({run.run_id, names, look});
    result_.pairs += look.pairs;
    progress_(fmt::format("probe {}: {} -> {} {:+.1f}% [{:+.1f}, {:+.1f}] after {} pairs (run {})",
                          result_.probes.size(), printable(what), stats::settled_name(look.settled),
                          look.change_pct, look.low_pct, look.high_pct, look.pairs,
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
std::string unsettled_note(const std::vector<ProbeRecord>& probes) {
  const auto unsettled = std::count_if(probes.begin(), probes.end(), [](const auto& p) {
    return p.look.settled == stats::Settled::kUnsettled;
  });
  if (unsettled == 0) return "";
  return fmt::format(
      "{} of {} probes ended unsettled: their interval reached past the no-effect margin "
      "after every pair, so \"no effect shown\" is not \"no effect\" for their knobs; more "
      "--max-iterations or longer iterations would settle them",
      unsettled, probes.size());
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
                 const std::string& variant, const std::string& metric) {
  const std::string v = !variant.empty()         ? variant
                        : run.iterations.empty() ? ""
                                                 : run.iterations.front().variant;
  std::vector<double> values;
  for (const auto& it : run.iterations) {
    if (it.case_name != case_name || it.variant != v || it.status != "ok" || it.metrics.empty())
      continue;
    for (const auto& m : it.metrics) {
      if (metric.empty() ? &m == &it.metrics.front() : m.name == metric) values.push_back(m.value);
    }
  }
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
  result.notes = search.notes;
  if (const std::string n = unsettled_note(result.probes); !n.empty()) result.notes.push_back(n);
  return result;
}

std::string bisect_text(const BisectResult& r) {
  if (r.probes.empty()) {
    std::string out =
        fmt::format("bisect-knobs: case {}: nothing to probe, {}\n", printable(r.case_name),
                    r.skipped.empty() ? "no candidate matched" : "every candidate was skipped");
    return out + skipped_lines(r.skipped) + "probes: 0\n";
  }
  std::string out = fmt::format(
      "bisect-knobs: case {}, {} ({}), as found {:.6g} {}{}\n", printable(r.case_name),
      printable(r.metric), r.direction.empty() ? "?" : printable(r.direction), r.as_found_level,
      printable(r.unit),
      r.target_level
          ? fmt::format("; target {:.6g} ({})", *r.target_level, printable(r.target_name))
          : "");
  out += r.findings.empty() ? "no knob changes it\n" : "knobs that matter, largest first:\n";
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
  for (const auto& n : r.notes) out += "note: " + printable(n) + "\n";
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
    probes.push_back({{"run_id", p.run_id}, {"units", p.units}, {"look", look_json(p.look)}});
  nlohmann::json skipped = nlohmann::json::array();
  for (const auto& s : r.skipped) skipped.push_back({{"name", s.name}, {"reason", s.reason}});
  nlohmann::json j = {{"case", r.case_name},
                      {"metric", r.metric},
                      {"unit", r.unit},
                      {"direction", r.direction},
                      {"as_found_level", r.as_found_level},
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
