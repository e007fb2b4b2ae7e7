#include "host/bisect/group_search.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace schedrig::bisect {
namespace {

constexpr int kMaxResidualPasses = 4;

bool has_effect(const stats::SequentialLook& look) {
  return look.settled == stats::Settled::kEffect;
}

std::vector<int> joined(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> out = a;
  out.insert(out.end(), b.begin(), b.end());
  return out;
}

class Search {
 public:
  Search(const std::vector<Unit>& units, const Probe& probe) : units_(units), probe_(probe) {}

  // `group` was probed with `look`.
  void explore(const std::vector<int>& group, const stats::SequentialLook& look) {
    if (!has_effect(look)) return;
    if (group.size() == 1) {
      result_.findings.push_back({group, look, {}, false});
      return;
    }
    const auto mid = group.begin() + static_cast<std::ptrdiff_t>(group.size() / 2);
    const std::vector<int> left(group.begin(), mid), right(mid, group.end());
    const stats::SequentialLook left_look = run(left), right_look = run(right);
    if (!has_effect(left_look) && !has_effect(right_look)) {
      // Either the halves interact or the group's effect was a false alarm
      // (each probe has one at rate alpha): the group again tells which,
      // for one probe, before the interaction search spends a dozen.
      if (has_effect(run(group))) interaction(left, right);
      return;
    }
    note_unexplained(group, look, left_look, right_look);
    explore(left, left_look);
    explore(right, right_look);
  }

  stats::SequentialLook run(const std::vector<int>& units) {
    ++result_.probes;
    return probe_(units);
  }

  // Units in no finding so far.
  std::vector<int> unexplained() const {
    std::set<int> found;
    for (const auto& f : result_.findings) found.insert(f.units.begin(), f.units.end());
    std::vector<int> out;
    for (int i = 0; i < static_cast<int>(units_.size()); ++i)
      if (!found.count(i)) out.push_back(i);
    return out;
  }

  // One pass over `candidates` (indices into the units), grouped; true when
  // some group showed an effect.
  bool pass(const std::vector<int>& candidates, int group_size) {
    std::vector<Unit> subset;
    for (const int i : candidates) subset.push_back(units_[static_cast<std::size_t>(i)]);
    bool any = false;
    for (const auto& local : initial_groups(subset, group_size)) {
      std::vector<int> group;
      for (const int j : local) group.push_back(candidates[static_cast<std::size_t>(j)]);
      const stats::SequentialLook look = run(group);
      any = any || has_effect(look);
      explore(group, look);
    }
    confirm();  // before the residual pass: a false alarm must not hide its units from it
    return any;
  }

  // Probes every finding once more: a first look that was a false alarm
  // (each probe has one at rate alpha) rarely repeats, in the same
  // direction, on fresh iterations. What does not repeat is dropped, with
  // a note.
  void confirm() {
    std::vector<Finding> kept;
    for (Finding& f : result_.findings) {
      if (f.confirmation.pairs > 0) {  // confirmed after an earlier pass
        kept.push_back(std::move(f));
        continue;
      }
      const stats::SequentialLook again = run(f.units);
      if (has_effect(again) && (again.change_pct > 0) == (f.look.change_pct > 0)) {
        f.confirmation = again;
        kept.push_back(std::move(f));
      } else {
        result_.notes.push_back(
            fmt::format("{}: {:+.1f}% [{:+.1f}, {:+.1f}] not confirmed ({} {:+.1f}%)",
                        names(f.units), f.look.change_pct, f.look.low_pct, f.look.high_pct,
                        stats::settled_name(again.settled), again.change_pct));
      }
    }
    result_.findings = std::move(kept);
  }

  SearchResult take() {
    result_.cleared = unexplained();
    return std::move(result_);
  }

 private:
  // Neither half of a group with an effect has one alone: find what each
  // half needs given the other, probe that set, report it as one finding.
  // The quick search assumes one needed unit per side; when the set it
  // finds shows no effect, it runs once more, then the careful search
  // (which keeps both halves whenever neither does it alone).
  void interaction(const std::vector<int>& left, const std::vector<int>& right) {
    // A false alarm inside the quick search (alpha per probe) sends it down
    // the wrong half; a second quick search on fresh probes rarely repeats
    // it, and costs far less than the careful one.
    for (const bool careful : {false, false, true}) {
      const std::vector<int> from_left = needed(left, right, careful);
      const std::vector<int> together = joined(from_left, needed(right, from_left, careful));
      const stats::SequentialLook look = run(together);
      if (has_effect(look)) {
        result_.findings.push_back({together, look, {}, true});
        return;
      }
    }
  }

  // The units of `part` the effect needs when `context` is flipped too, by
  // halving: keep the half that still shows the effect with the context.
  // Quick: when the first half does not, take the second unprobed. Careful:
  // probe it too, and when neither does, each half needs the other: keep
  // both.
  std::vector<int> needed(const std::vector<int>& part, const std::vector<int>& context,
                          bool careful) {
    if (part.size() <= 1) return part;
    const auto mid = part.begin() + static_cast<std::ptrdiff_t>(part.size() / 2);
    const std::vector<int> a(part.begin(), mid), b(mid, part.end());
    if (has_effect(run(joined(a, context)))) return needed(a, context, careful);
    if (!careful || has_effect(run(joined(b, context)))) return needed(b, context, careful);
    return joined(needed(a, joined(b, context), careful), needed(b, joined(a, context), careful));
  }

  // A group's change that its halves' changes do not add up to (in log
  // terms, outside the group's interval): the halves interact.
  void note_unexplained(const std::vector<int>& group, const stats::SequentialLook& look,
                        const stats::SequentialLook& left, const stats::SequentialLook& right) {
    const double sum_pct =
        std::expm1(std::log1p(left.change_pct / 100) + std::log1p(right.change_pct / 100)) * 100;
    if (sum_pct >= look.low_pct && sum_pct <= look.high_pct) return;
    result_.notes.push_back(fmt::format(
        "interaction: {} together {:+.1f}% [{:+.1f}, {:+.1f}], its halves {:+.1f}% and {:+.1f}% "
        "(together they would be {:+.1f}%)",
        names(group), look.change_pct, look.low_pct, look.high_pct, left.change_pct,
        right.change_pct, sum_pct));
  }

  std::string names(const std::vector<int>& units) const {
    std::vector<std::string> out;
    for (const int u : units) out.push_back(units_[static_cast<std::size_t>(u)].name);
    return fmt::format("{}", fmt::join(out, "+"));
  }

  const std::vector<Unit>& units_;
  const Probe& probe_;
  SearchResult result_;
};

}  // namespace

std::vector<std::vector<int>> initial_groups(const std::vector<Unit>& units, int group_size) {
  if (group_size < 1) throw std::invalid_argument("group size must be at least 1");
  std::vector<std::vector<int>> groups;
  std::vector<std::set<std::string>> knobs;
  for (int i = 0; i < static_cast<int>(units.size()); ++i) {
    const std::string& knob = units[static_cast<std::size_t>(i)].knob;
    std::size_t g = 0;
    while (g < groups.size() &&
           (static_cast<int>(groups[g].size()) >= group_size || knobs[g].count(knob) > 0))
      ++g;
    if (g == groups.size()) {
      groups.emplace_back();
      knobs.emplace_back();
    }
    groups[g].push_back(i);
    knobs[g].insert(knob);
  }
  return groups;
}

SearchResult group_search(const std::vector<Unit>& units, int group_size, const Probe& probe) {
  if (group_size < 1) throw std::invalid_argument("group size must be at least 1");
  Search search(units, probe);
  // The first pass finds what acts alone (and interactions inside one
  // half); each residual pass probes what is still unexplained, so an
  // effect that needed units the first pass split apart shows up there.
  bool effect = search.pass(search.unexplained(), group_size);
  for (int pass = 0; effect && pass < kMaxResidualPasses; ++pass) {
    const std::vector<int> rest = search.unexplained();
    if (rest.empty()) break;
    effect = search.pass(rest, static_cast<int>(units.size()));  // all of them at once
  }
  return search.take();
}

}  // namespace schedrig::bisect
