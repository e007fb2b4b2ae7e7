// A probe's plan and look (host/bisect/probe.h), the agent's knobs list
// read as the box (box_knobs.h), and bisect_knobs with runs simulated in
// the store's shape (bisect.h).
#include "host/bisect/probe.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "common/plan/plan_yaml.h"
#include "common/stats/normal_draws.h"
#include "host/bisect/bisect.h"
#include "host/bisect/box_knobs.h"

namespace schedrig::bisect {
namespace {

v1::Plan base() {
  return parse_plan_yaml(
      "name: p\nduration_s: 1\norder: blocked\niterations: 3\n"
      "cases:\n  - workload: fork\n  - workload: kv\n    gate: {metric: p99_us, threshold_pct: 5}\n"
      "variants: [{name: a}, {name: b, features: [NO_X]}]\n",
      "p.yaml");
}

// A box whose only knob is autogroup: writable, 1 as found.
BoxKnobs autogroup_box() {
  BoxKnobs box;
  box.knobs["kernel.sched_autogroup_enabled"] = {"1", true, ""};
  return box;
}

// A search of the base plan's fork case, the default rule.
BisectOptions fork_search() {
  BisectOptions o;
  o.plan = base();
  o.case_name = "fork";
  return o;
}

TEST(ProbePlan, TheCaseAsFoundAgainstTheFlipsStoppedByTheRule) {
  Candidate f{{"NO_NI_RANDOM", "sched_features:NI_RANDOM"}, {"NO_NI_RANDOM"}, {}, {}};
  Candidate s{{"kernel.numa_balancing=0", "kernel.numa_balancing"},
              {},
              {{"kernel.numa_balancing", "0"}},
              {}};
  const v1::Plan p = probe_plan(base(), "fork", {&f, &s}, {.min_pairs = 5, .max_pairs = 12});
  ASSERT_EQ(p.cases_size(), 1);
  EXPECT_EQ(p.cases(0).name(), "fork");
  ASSERT_EQ(p.variants_size(), 2);
  EXPECT_EQ(p.variants(0).name(), "as-found");
  EXPECT_EQ(p.variants(0).features_size() + p.variants(0).sysctl_size(), 0);
  EXPECT_EQ(p.variants(1).features(0), "NO_NI_RANDOM");
  EXPECT_EQ(p.variants(1).sysctl().at("kernel.numa_balancing"), "0");
  EXPECT_EQ(p.order(), v1::ORDER_INTERLEAVED);
  EXPECT_EQ(p.iterations(), 12u);
  EXPECT_EQ(p.iteration_stop().min(), 5u);
  EXPECT_EQ(judged_metric(base(), "kv"), "p99_us");
  EXPECT_EQ(judged_metric(base(), "fork"), "");
  try {
    probe_plan(base(), "wakeup", {}, {});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "the plan has no case 'wakeup' (it has: fork, kv)");
  }
}

store::IterationRecord iteration(const std::string& variant, unsigned i, double v,
                                 const std::string& status = "ok") {
  store::IterationRecord it;
  it.case_name = "fork";
  it.variant = variant;
  it.iteration = i;
  it.status = status;
  it.metrics = {{"ops_per_s", v, "ops/s", "higher_is_better"},
                {"p99_us", 50, "us", "lower_is_better"}};
  return it;
}

TEST(ProbePairs, PairsByIterationAndLeavesOutAFailedSide) {
  store::RunRecord run;
  for (unsigned i = 1; i <= 5; ++i) {
    run.iterations.push_back(iteration(kAsFound, i, 100 + i));
    run.iterations.push_back(iteration(kFlipped, i, 200 + i, i == 3 ? "failed" : "ok"));
  }
  const ProbePairs p = probe_pairs(run, "");
  EXPECT_EQ(p.as_found, (std::vector<double>{101, 102, 104, 105}));
  EXPECT_EQ(p.flipped, (std::vector<double>{201, 202, 204, 205}));
  EXPECT_EQ(p.metric, "ops_per_s");
  EXPECT_EQ(p.direction, "higher_is_better");
  EXPECT_EQ(probe_pairs(run, "p99_us").metric, "p99_us");
  const auto look = probe_look(p, {.min_pairs = 3, .max_pairs = 5});
  EXPECT_EQ(look.settled, stats::Settled::kEffect);
  EXPECT_NEAR(look.change_pct, 96.5, 1);
}

TEST(BoxKnobs, TheAgentsKnobsListIsTheBox) {
  const auto doc = nlohmann::json::parse(R"j({
    "features": {"features": {"NI_RANDOM": true, "PLACE_LAG": false}, "path": "/x", "writable": true},
    "knobs": [
      {"name": "kernel.numa_balancing", "kind": "sysctl", "readable": true, "writable": true, "value": "0", "errno": 0},
      {"name": "sched/base_slice_ns", "kind": "debugfs", "readable": false, "writable": false,
       "errno": 2, "error": "No such file or directory (ENOENT)"}]})j");
  const BoxKnobs box = parse_knobs_list(doc);
  EXPECT_EQ(box.features, (std::map<std::string, bool>{{"NI_RANDOM", true}, {"PLACE_LAG", false}}));
  EXPECT_TRUE(box.features_writable);
  EXPECT_EQ(box.knobs.at("kernel.numa_balancing").value, "0");
  EXPECT_FALSE(box.knobs.at("sched/base_slice_ns").writable);
  EXPECT_EQ(box.knobs.at("sched/base_slice_ns").why_not, "No such file or directory (ENOENT)");
  EXPECT_THROW(parse_knobs_list(nlohmann::json::parse(R"({"knobs": 3})")), std::invalid_argument);
  const BoxKnobs locked = parse_knobs_list(nlohmann::json::parse(
      R"({"features": {"path": "/x", "error": "cannot read /x: EPERM"}, "knobs": []})"));
  EXPECT_FALSE(locked.features_writable);
  EXPECT_EQ(locked.features_why_not, "cannot read /x: EPERM");
}

TEST(BoxKnobs, TheServersKnobsDocumentAddsTheAgentsDenyListAndInstance) {
  const BoxKnobs box = parse_knobs_list(nlohmann::json::parse(R"j({
    "agent_id": "box1", "instance_id": "inst-7",
    "features": {"features": {"NI_RANDOM": true}, "path": "/x", "writable": true},
    "knobs": [], "bisect_deny": ["NO_NI_RANDOM", "kernel.numa_balancing"]})j"));
  EXPECT_EQ(box.agent_deny, (std::vector<std::string>{"NO_NI_RANDOM", "kernel.numa_balancing"}));
  EXPECT_EQ(box.instance_id, "inst-7");
  // A feature name that is not one (a hostile agent's) is never a candidate.
  const BoxKnobs odd = parse_knobs_list(nlohmann::json::parse(
      R"({"features": {"features": {"GOOD": true, "\u001b[31mEVIL": true, "A B": false},
          "writable": true}, "knobs": []})"));
  EXPECT_EQ(odd.features, (std::map<std::string, bool>{{"GOOD", true}}));
  EXPECT_EQ(odd.bad_feature_names, (std::vector<std::string>{"\x1b[31mEVIL", "A B"}));
  const CandidateSet set = make_candidates(odd, {});
  ASSERT_EQ(set.candidates.size(), 1u);
  EXPECT_EQ(set.skipped.size(), 2u);
  nlohmann::json many = {{"features", nlohmann::json::object()},
                         {"knobs", nlohmann::json::array()},
                         {"bisect_deny", std::vector<std::string>(257, "X")}};
  EXPECT_THROW(parse_knobs_list(many), std::invalid_argument);
  // A bad server's document: refused whole, never read in part.
  for (const char* bad : {
           R"({"features": null, "knobs": []})",
           R"({"features": {"writable": "yes", "features": {"A": true}}, "knobs": []})",
           R"({"features": {}, "knobs": [{"name": "k"}, {"name": "k"}]})",
           R"({"features": {}, "knobs": [], "bisect_deny": ["NI_RANDOM", 3]})",
           R"({"features": {}, "knobs": [], "bisect_deny": "NI_RANDOM"})",
           R"({"features": {}, "knobs": [], "left_out": {"bisect_deny": "x"}})",
           R"({"features": {}, "knobs": [], "left_out": {"bisect_deny": -1}})",
       })
    EXPECT_THROW(parse_knobs_list(nlohmann::json::parse(bad)), std::invalid_argument) << bad;
}

// The server's left_out counts: unlisted features and knobs are named as
// skipped; an unlisted part of the denylist stops the search before a probe.
TEST(BoxKnobs, WhatTheServerDidNotListIsSkippedOrRefused) {
  const BoxKnobs box = parse_knobs_list(nlohmann::json::parse(R"j({
    "features": {"features": {"NI_RANDOM": true}, "writable": true}, "knobs": [],
    "left_out": {"features": 3, "knobs": 2, "bisect_deny": 0}})j"));
  const CandidateSet set = make_candidates(box, {});
  ASSERT_EQ(set.skipped.size(), 2u);
  EXPECT_EQ(set.skipped[0].name, "sched features (3 more)");
  EXPECT_EQ(set.skipped[1].name, "knobs (2 more)");
  EXPECT_NE(set.skipped[0].reason.find("were not listed"), std::string::npos);
  try {
    parse_knobs_list(
        nlohmann::json::parse(R"({"features": {}, "knobs": [], "left_out": {"bisect_deny": 1}})"));
    FAIL() << "read";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "the server left out 1 of the agent's bisect_deny names: its denylist is not whole");
  }
}

// A probe whose as-found iterations ran with other values than the box
// was read with: the box changed under the search.
TEST(BoxKnobs, AsFoundDriftNamesEveryKnobThatIsNotAsRead) {
  BoxKnobs box;
  box.features = {{"NI_RANDOM", true}, {"PLACE_LAG", false}};
  box.knobs["kernel.numa_balancing"] = {"1", true, ""};
  box.knobs["sched/base_slice_ns"] = {std::nullopt, false, "EPERM"};
  store::RunRecord run;
  run.iterations.push_back(iteration(kAsFound, 1, 100));
  run.iterations.back().knobs = {{"NI_RANDOM", "on"}, {"kernel.numa_balancing", "1"}};
  run.iterations.push_back(iteration(kFlipped, 1, 100));
  run.iterations.back().knobs = {{"NI_RANDOM", "off"}, {"kernel.numa_balancing", "0"}};
  EXPECT_TRUE(as_found_drift(box, run).empty());
  run.iterations.push_back(iteration(kAsFound, 2, 100));
  run.iterations.back().knobs = {{"NI_RANDOM", "off"},
                                 {"PLACE_LAG", "off"},
                                 {"kernel.numa_balancing", "0"},
                                 {"sched/base_slice_ns", "9"}};
  run.iterations.push_back(iteration(kAsFound, 3, 100));
  run.iterations.back().knobs = {{"NI_RANDOM", "off"}};
  EXPECT_EQ(as_found_drift(box, run),
            (std::vector<std::string>{"NI_RANDOM: on -> off", "kernel.numa_balancing: 1 -> 0"}));
  BoxKnobs after = box;
  after.features["NI_RANDOM"] = false;
  after.knobs["kernel.numa_balancing"].value = "0";
  EXPECT_EQ(box_changes(box, after), " NI_RANDOM: on -> off kernel.numa_balancing: 1 -> 0");
  EXPECT_EQ(box_changes(box, box), "");
}

// bisect_knobs with every probe run simulated: NI_RANDOM off doubles the
// rate; the report ranks it, closes the gap to a target twice the level.
TEST(BisectKnobs, FindsTheKnobRanksItAndSaysHowMuchOfTheGapItCloses) {
  BoxKnobs box;
  box.features_writable = true;
  for (const char* f : {"NI_RANDOM", "A", "B", "C", "D", "E"}) box.features[f] = true;
  box.knobs["kernel.sched_autogroup_enabled"] = {"1", true, ""};
  BisectOptions o = fork_search();
  o.target_level = 2000;
  o.target_name = "run 3f2a1b2c";
  stats::NormalDraws draws(5);
  int runs = 0;
  const BisectResult r = bisect_knobs(
      box, o,
      [&](const v1::Plan& plan, const std::string&) {
        bool off = false;
        for (const auto& f : plan.variants(1).features()) off = off || f == "NO_NI_RANDOM";
        store::RunRecord run;
        run.run_id = fmt::format("{:08}-run", ++runs);
        for (unsigned i = 1; i <= 8; ++i) {
          run.iterations.push_back(iteration(kAsFound, i, 1000 * (1 + 0.01 * draws.next())));
          run.iterations.push_back(
              iteration(kFlipped, i, (off ? 2000 : 1000) * (1 + 0.01 * draws.next())));
        }
        return run;
      },
      [](const std::string&) {});
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].units, std::vector<std::string>{"NO_NI_RANDOM"});
  ASSERT_TRUE(r.findings[0].closes_gap_pct);
  EXPECT_NEAR(*r.findings[0].closes_gap_pct, 100, 5);
  EXPECT_EQ(r.no_effect.size(), 6u);  // A..E and autogroup
  EXPECT_EQ(static_cast<int>(r.probes.size()), runs);
  const std::string text = bisect_text(r);
  EXPECT_NE(text.find("NO_NI_RANDOM"), std::string::npos) << text;
  EXPECT_NE(text.find("(I) ["), std::string::npos) << text;
  EXPECT_NE(text.find("of the gap to run 3f2a1b2c"), std::string::npos) << text;
  const nlohmann::json j = bisect_json(r);
  EXPECT_EQ(j["findings"][0]["units"][0], "NO_NI_RANDOM");
  EXPECT_EQ(j["probes"].size(), r.probes.size());
  EXPECT_EQ(j["target"]["level"], 2000);
}

// Probes on a metric too noisy to settle in 8 pairs: every candidate is
// "no effect shown", and the text and the JSON both say that this is not
// "no effect".
TEST(BisectKnobs, UnsettledProbesAreNotedInTheTextAndTheJsonAlike) {
  const BoxKnobs box = autogroup_box();
  BisectOptions o = fork_search();
  o.rule.max_pairs = 8;
  stats::NormalDraws draws(9);
  const BisectResult r = bisect_knobs(
      box, o,
      [&](const v1::Plan&, const std::string&) {
        store::RunRecord run;
        run.run_id = "00000001-run";
        for (unsigned i = 1; i <= 8; ++i) {
          run.iterations.push_back(iteration(kAsFound, i, 1000 * (1 + 0.3 * draws.next())));
          run.iterations.push_back(iteration(kFlipped, i, 1000 * (1 + 0.3 * draws.next())));
        }
        return run;
      },
      [](const std::string&) {});
  ASSERT_EQ(r.probes.size(), 1u);
  ASSERT_EQ(r.probes[0].look.settled, stats::Settled::kUnsettled);
  EXPECT_EQ(r.no_effect, std::vector<std::string>{"kernel.sched_autogroup_enabled=0"});
  const std::string text = bisect_text(r);
  EXPECT_NE(text.find("note: 1 of 1 probes ended unsettled"), std::string::npos) << text;
  const nlohmann::json j = bisect_json(r);
  ASSERT_EQ(j["notes"].size(), 1u) << j.dump();
  EXPECT_EQ(j["notes"][0].get<std::string>().rfind("1 of 1 probes ended unsettled", 0), 0u)
      << j.dump();
}

// A box where nothing can be flipped: the report says so, with each reason,
// and no probe runs.
TEST(BisectKnobs, NothingToProbeIsSaidWithTheReasons) {
  BoxKnobs box;
  box.features["NI_RANDOM"] = true;
  box.features_why_not = "sys/kernel/debug/sched/features: EACCES";
  box.knobs["kernel.sched_autogroup_enabled"] = {"1", false, "EROFS"};
  BisectOptions o = fork_search();
  const BisectResult r = bisect_knobs(
      box, o,
      [&](const v1::Plan&, const std::string&) -> store::RunRecord {
        ADD_FAILURE() << "probed";
        return {};
      },
      [](const std::string&) {});
  EXPECT_TRUE(r.probes.empty());
  const std::string text = bisect_text(r);
  EXPECT_EQ(
      text.rfind("bisect-knobs: case fork: nothing to probe, every candidate was skipped\n", 0), 0u)
      << text;
  EXPECT_NE(text.find("skipped sched features: not writable here: "
                      "sys/kernel/debug/sched/features: EACCES\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("skipped kernel.sched_autogroup_enabled"), std::string::npos) << text;
  EXPECT_NE(text.find("probes: 0\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("(?)"), std::string::npos) << text;
}

// A probe run cut short (its agent restarted, iterations failed) with fewer
// complete pairs than the rule's first look: the search stops, naming it.
TEST(BisectKnobs, AProbeShortOfTheFirstLookStopsTheSearch) {
  const BoxKnobs box = autogroup_box();
  BisectOptions o = fork_search();
  try {
    bisect_knobs(
        box, o,
        [&](const v1::Plan&, const std::string&) {
          store::RunRecord run;
          run.run_id = "0000000a-run";
          run.status = "failed";
          run.reason = "agent restarted; boot_id unchanged";
          for (unsigned i = 1; i <= 3; ++i) {
            run.iterations.push_back(iteration(kAsFound, i, 1000));
            run.iterations.push_back(iteration(kFlipped, i, 1000));
          }
          return run;
        },
        [](const std::string&) {});
    FAIL() << "searched";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "probe run 0000000a (failed): 3 complete pairs, fewer than the 5 of the first look "
              "(agent restarted; boot_id unchanged); the search stops");
  }
}

// Pairs the quiet check marked disturbed are counted in, and said: per
// probe in the JSON, in a note in the text and the JSON alike. --target's
// level leaves disturbed iterations out, as compare does.
TEST(BisectKnobs, DisturbedPairsAreCountedAndSaid) {
  const BoxKnobs box = autogroup_box();
  BisectOptions o = fork_search();
  stats::NormalDraws draws(3);
  const BisectResult r = bisect_knobs(
      box, o,
      [&](const v1::Plan&, const std::string&) {
        store::RunRecord run;
        run.run_id = "0000000b-run";
        for (unsigned i = 1; i <= 6; ++i) {
          run.iterations.push_back(iteration(kAsFound, i, 1000 * (1 + 0.002 * draws.next())));
          run.iterations.push_back(iteration(kFlipped, i, 1000 * (1 + 0.002 * draws.next())));
          run.iterations.back().disturbed = i % 3 == 0;  // pairs 3 and 6
        }
        return run;
      },
      [](const std::string&) {});
  ASSERT_FALSE(r.probes.empty());
  EXPECT_EQ(r.probes[0].disturbed_pairs, r.probes[0].look.pairs >= 6 ? 2 : 1);
  const nlohmann::json j = bisect_json(r);
  EXPECT_EQ(j["probes"][0]["disturbed_pairs"], r.probes[0].disturbed_pairs);
  bool noted = false;
  for (const auto& n : j["notes"])
    noted =
        noted || n.get<std::string>().find("ran with other work on the box") != std::string::npos;
  EXPECT_TRUE(noted) << j.dump();
  EXPECT_NE(bisect_text(r).find("note: "), std::string::npos);

  store::RunRecord target;
  target.iterations = {iteration(kAsFound, 1, 100), iteration(kAsFound, 2, 200),
                       iteration(kAsFound, 3, 900)};
  target.iterations[2].disturbed = true;
  bool all_disturbed = true;
  EXPECT_EQ(run_level(target, "fork", "", "ops_per_s", &all_disturbed), 150);
  EXPECT_FALSE(all_disturbed);
  for (auto& it : target.iterations) it.disturbed = true;
  EXPECT_EQ(run_level(target, "fork", "", "ops_per_s", &all_disturbed), 200);
  EXPECT_TRUE(all_disturbed);
}

}  // namespace
}  // namespace schedrig::bisect
