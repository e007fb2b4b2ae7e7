// parse_plan_yaml / load_plan_file (docs/architecture.md "Plan files (YAML)").
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <gtest/gtest.h>

#include "common/plan/plan_yaml.h"
#include "common/plan/quiet.h"

namespace schedrig {
namespace {

using v1::Plan;

// The example plan of docs/architecture.md "Plan files (YAML)", verbatim.
constexpr const char* kDesignExample = R"(name: fork-vs-features        # free text
iterations: 10                # per (case, variant)
duration_s: 5                 # per iteration
warmup_s: 1                   # run, not counted
cooldown_s: 1                 # idle gap between iterations
order: interleaved            # interleaved | blocked | shuffled
seed: 1                       # for shuffled
sample_hz: 1
labels: {tag: nightly}        # optional, free
cases:
  - name: fork-all            # optional; default built from workload + params
    workload: fork
    params: {workers: auto, fork_max: 1}   # auto = one per PU of the placement
    placement: all
  - workload: wakeup
    params: {message_threads: 1, workers_per_message: 8, think_ops: 0}
    placement: split:1
  - workload: kv
    params: {clients: 128, executors: auto, read_ratio: 0.60, keys: 100000, shards: 64}
    membind: local
variants:                     # a list; the first one is the baseline
  - name: baseline
  - name: no-ni-random
    features: [NO_NI_RANDOM]
  - name: autogroup-off
    sysctl: {kernel.sched_autogroup_enabled: 0}
  - name: short-migration
    debugfs: {sched/migration_cost_ns: 100000}
)";

constexpr std::uint64_t kSecond = 1'000'000'000ULL;

// Expects parse_plan_yaml(text, "t.yaml") to throw PlanError; returns what().
std::string error_of(const std::string& text) {
  try {
    parse_plan_yaml(text, "t.yaml");
  } catch (const PlanError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no PlanError for:\n" << text;
  return "";
}

// Checks that `what` names file:line and the key (and optional extra words).
void expect_names(const std::string& what, int line, const std::string& key,
                  const std::vector<std::string>& words = {}) {
  const std::string where = "t.yaml:" + std::to_string(line) + ":";
  EXPECT_EQ(what.rfind(where, 0), 0u) << "want it to start with '" << where << "': " << what;
  EXPECT_NE(what.find("'" + key + "'"), std::string::npos) << "want key '" << key << "': " << what;
  for (const auto& w : words)
    EXPECT_NE(what.find(w), std::string::npos) << "want '" << w << "': " << what;
}

TEST(PlanYaml, DesignExampleParses) {
  Plan p = parse_plan_yaml(kDesignExample, "design.yaml");
  EXPECT_EQ(p.name(), "fork-vs-features");
  EXPECT_EQ(p.iterations(), 10u);
  EXPECT_EQ(p.duration_ns(), 5 * kSecond);
  EXPECT_EQ(p.warmup_ns(), 1 * kSecond);
  EXPECT_EQ(p.cooldown_ns(), 1 * kSecond);
  EXPECT_EQ(p.order(), v1::ORDER_INTERLEAVED);
  EXPECT_EQ(p.seed(), 1u);
  EXPECT_DOUBLE_EQ(p.sample_hz(), 1.0);
  ASSERT_EQ(p.labels().size(), 1u);
  EXPECT_EQ(p.labels().at("tag"), "nightly");

  ASSERT_EQ(p.cases_size(), 3);
  const auto& fork = p.cases(0);
  EXPECT_EQ(fork.name(), "fork-all");
  EXPECT_EQ(fork.workload(), "fork");
  ASSERT_EQ(fork.params().size(), 2u);
  EXPECT_EQ(fork.params().at("workers"), "auto");
  EXPECT_EQ(fork.params().at("fork_max"), "1");
  EXPECT_EQ(fork.placement(), "all");
  EXPECT_EQ(fork.membind(), "");

  const auto& wakeup = p.cases(1);
  EXPECT_EQ(wakeup.name(), "wakeup:message_threads=1,think_ops=0,workers_per_message=8");
  EXPECT_EQ(wakeup.workload(), "wakeup");
  ASSERT_EQ(wakeup.params().size(), 3u);
  EXPECT_EQ(wakeup.params().at("workers_per_message"), "8");
  EXPECT_EQ(wakeup.params().at("think_ops"), "0");
  EXPECT_EQ(wakeup.placement(), "split:1");
  EXPECT_EQ(wakeup.membind(), "");

  const auto& kv = p.cases(2);
  EXPECT_EQ(kv.name(), "kv:clients=128,executors=auto,keys=100000,read_ratio=0.60,shards=64");
  EXPECT_EQ(kv.workload(), "kv");
  ASSERT_EQ(kv.params().size(), 5u);
  EXPECT_EQ(kv.params().at("read_ratio"), "0.60");  // the text as written
  EXPECT_EQ(kv.params().at("keys"), "100000");
  EXPECT_EQ(kv.placement(), "all");  // default
  EXPECT_EQ(kv.membind(), "local");

  ASSERT_EQ(p.variants_size(), 4);
  EXPECT_EQ(p.variants(0).name(), "baseline");
  EXPECT_EQ(p.variants(0).features_size(), 0);
  EXPECT_TRUE(p.variants(0).sysctl().empty());
  EXPECT_TRUE(p.variants(0).debugfs().empty());
  EXPECT_EQ(p.variants(1).name(), "no-ni-random");
  ASSERT_EQ(p.variants(1).features_size(), 1);
  EXPECT_EQ(p.variants(1).features(0), "NO_NI_RANDOM");
  EXPECT_EQ(p.variants(2).name(), "autogroup-off");
  ASSERT_EQ(p.variants(2).sysctl().size(), 1u);
  EXPECT_EQ(p.variants(2).sysctl().at("kernel.sched_autogroup_enabled"), "0");
  EXPECT_EQ(p.variants(3).name(), "short-migration");
  ASSERT_EQ(p.variants(3).debugfs().size(), 1u);
  EXPECT_EQ(p.variants(3).debugfs().at("sched/migration_cost_ns"), "100000");
}

TEST(PlanYaml, Defaults) {
  Plan p = parse_plan_yaml("duration_s: 2\ncases:\n  - workload: fork\n", "t.yaml");
  EXPECT_EQ(p.name(), "unnamed");
  EXPECT_EQ(p.iterations(), 5u);
  EXPECT_EQ(p.duration_ns(), 2 * kSecond);
  EXPECT_EQ(p.warmup_ns(), 0u);
  EXPECT_EQ(p.cooldown_ns(), 0u);
  EXPECT_EQ(p.order(), v1::ORDER_INTERLEAVED);
  EXPECT_EQ(p.seed(), 1u);
  EXPECT_DOUBLE_EQ(p.sample_hz(), 1.0);
  EXPECT_EQ(p.quiet().max_runnable(), 1u);  // default_quiet_check()
  EXPECT_DOUBLE_EQ(p.quiet().hold_s(), 1.0);
  EXPECT_DOUBLE_EQ(p.quiet().timeout_s(), 10.0);
  EXPECT_TRUE(p.labels().empty());
  ASSERT_EQ(p.cases_size(), 1);
  EXPECT_EQ(p.cases(0).name(), "fork");  // no params: the workload alone
  EXPECT_EQ(p.cases(0).placement(), "all");
  EXPECT_EQ(p.cases(0).membind(), "");
  EXPECT_TRUE(p.cases(0).params().empty());
  ASSERT_EQ(p.variants_size(), 1);
  EXPECT_EQ(p.variants(0).name(), "baseline");
  EXPECT_EQ(p.variants(0).features_size(), 0);
}

TEST(PlanYaml, FractionalSecondsAndOtherOrders) {
  Plan p = parse_plan_yaml(
      "duration_s: 0.5\nwarmup_s: 0.25\ncooldown_s: 0\norder: shuffled\nseed: "
      "18446744073709551615\n"
      "sample_hz: 20\niterations: 100000\ncases: [{workload: fork}]\n",
      "t.yaml");
  EXPECT_EQ(p.duration_ns(), 500'000'000u);
  EXPECT_EQ(p.warmup_ns(), 250'000'000u);
  EXPECT_EQ(p.cooldown_ns(), 0u);
  EXPECT_EQ(p.order(), v1::ORDER_SHUFFLED);
  EXPECT_EQ(p.seed(), 18446744073709551615ULL);
  EXPECT_DOUBLE_EQ(p.sample_hz(), 20.0);
  EXPECT_EQ(p.iterations(), 100000u);

  // sample_hz 0 turns sampling off; quiet keys left out keep their defaults.
  Plan q = parse_plan_yaml(
      "duration_s: 1\nsample_hz: 0\nquiet: {timeout_s: 0.5}\ncases: [{workload: a}]\n", "t");
  EXPECT_DOUBLE_EQ(q.sample_hz(), 0.0);
  EXPECT_DOUBLE_EQ(q.quiet().timeout_s(), 0.5);
  EXPECT_DOUBLE_EQ(q.quiet().hold_s(), 1.0);
  EXPECT_EQ(q.quiet().max_runnable(), 1u);
  EXPECT_DOUBLE_EQ(q.starvation().wait_share_pct(), 0.0);  // unset: the sampler's defaults
  // The disturbance keys left out mean their defaults (common/plan/quiet.h).
  EXPECT_FALSE(q.quiet().has_retries());
  EXPECT_EQ(quiet_retries(q.quiet()), 1u);
  EXPECT_TRUE(quiet_disturbance(q.quiet()));
  EXPECT_DOUBLE_EQ(quiet_other_cpu_pct(q.quiet()), 5.0);

  Plan d = parse_plan_yaml(
      "duration_s: 1\nquiet: {retries: 0, disturbance: false, other_cpu_pct: 12.5}\n"
      "cases: [{workload: a}]\n",
      "t");
  EXPECT_EQ(quiet_retries(d.quiet()), 0u);
  EXPECT_FALSE(quiet_disturbance(d.quiet()));
  EXPECT_DOUBLE_EQ(quiet_other_cpu_pct(d.quiet()), 12.5);
  EXPECT_DOUBLE_EQ(d.quiet().timeout_s(), 10.0);  // the others keep theirs

  Plan st = parse_plan_yaml(
      "duration_s: 1\nstarvation: {wait_share_pct: 40, lookahead: 3}\ncases: [{workload: a}]\n",
      "t");
  EXPECT_DOUBLE_EQ(st.starvation().wait_share_pct(), 40.0);
  EXPECT_EQ(st.starvation().lookahead(), 3u);
  EXPECT_DOUBLE_EQ(st.starvation().idle_pct(), 0.0);

  EXPECT_EQ(
      parse_plan_yaml("duration_s: 0.001\norder: blocked\ncases: [{workload: a}]\n", "t").order(),
      v1::ORDER_BLOCKED);
  EXPECT_EQ(parse_plan_yaml("duration_s: 0.001\ncases: [{workload: a}]\n", "t").duration_ns(),
            1'000'000u);
}

TEST(PlanYaml, OrderName) {
  EXPECT_EQ(order_name(v1::ORDER_INTERLEAVED), "interleaved");
  EXPECT_EQ(order_name(v1::ORDER_BLOCKED), "blocked");
  EXPECT_EQ(order_name(v1::ORDER_SHUFFLED), "shuffled");
}

TEST(PlanYaml, UnknownTopLevelKeyNamesKeyAndLine) {
  std::string what = error_of("name: p\niteratons: 3\nduration_s: 1\ncases:\n  - workload: fork\n");
  expect_names(what, 2, "iteratons", {"not known", "iterations"});
}

TEST(PlanYaml, UnknownCaseKeyNamesKeyAndLine) {
  std::string what = error_of(
      "duration_s: 1\n"
      "cases:\n"
      "  - workload: fork\n"
      "  - workload: kv\n"
      "    placment: all\n");
  expect_names(what, 5, "cases[1].placment", {"not known"});
}

TEST(PlanYaml, UnknownVariantKeyNamesKeyAndLine) {
  std::string what = error_of(
      "duration_s: 1\n"
      "cases: [{workload: fork}]\n"
      "variants:\n"
      "  - name: a\n"
      "    feature: [X]\n");
  expect_names(what, 5, "variants[0].feature", {"not known"});
}

TEST(PlanYaml, DuplicateTopLevelKey) {
  std::string what =
      error_of("iterations: 3\nduration_s: 1\niterations: 4\ncases: [{workload: a}]\n");
  expect_names(what, 3, "iterations", {"twice"});
}

TEST(PlanYaml, DuplicateKeyInsideCase) {
  std::string what = error_of(
      "duration_s: 1\n"
      "cases:\n"
      "  - workload: fork\n"
      "    placement: all\n"
      "    placement: cpus:0-3\n");
  expect_names(what, 5, "cases[0].placement", {"twice"});
}

TEST(PlanYaml, DuplicateKeyInsideNestedMaps) {
  expect_names(error_of("duration_s: 1\ncases:\n  - workload: fork\n    params: {a: 1, a: 2}\n"), 4,
               "cases[0].params.a", {"twice"});
  expect_names(error_of("duration_s: 1\nlabels:\n  tag: x\n  tag: y\ncases: [{workload: a}]\n"), 4,
               "labels.tag", {"twice"});
  expect_names(error_of("duration_s: 1\ncases: [{workload: a}]\nvariants:\n  - name: v\n"
                        "    sysctl: {k: 1, k: 2}\n"),
               5, "variants[0].sysctl.k", {"twice"});
  expect_names(error_of("duration_s: 1\ncases: [{workload: a}]\nvariants:\n  - name: v\n"
                        "    name: w\n"),
               5, "variants[0].name", {"twice"});
}

TEST(PlanYaml, WrongTypes) {
  expect_names(error_of("iterations: \"ten\"\nduration_s: 1\ncases: [{workload: a}]\n"), 1,
               "iterations", {"'ten' is not a number"});
  expect_names(error_of("duration_s: 1\niterations: 2.5\ncases: [{workload: a}]\n"), 2,
               "iterations", {"not a number"});
  expect_names(error_of("duration_s: five\ncases: [{workload: a}]\n"), 1, "duration_s",
               {"not a number"});
  expect_names(error_of("duration_s: 1\ncases: fork\n"), 2, "cases", {"list"});
  expect_names(error_of("duration_s: 1\ncases: {workload: a}\n"), 2, "cases", {"list"});
  expect_names(error_of("duration_s: 1\niterations: [1, 2]\ncases: [{workload: a}]\n"), 2,
               "iterations", {"single value"});
  expect_names(error_of("duration_s: 1\ncases:\n  - fork\n"), 3, "cases[0]", {"map"});
  expect_names(error_of("duration_s: 1\ncases:\n  - workload: a\n    params: [1, 2]\n"), 4,
               "cases[0].params", {"map"});
  expect_names(error_of("duration_s: 1\ncases:\n  - workload: a\n    params: {x: [1]}\n"), 4,
               "cases[0].params.x", {"single value"});
  expect_names(error_of("duration_s: 1\ncases:\n  - workload: {a: 1}\n"), 3, "cases[0].workload",
               {"single value"});
  expect_names(error_of("duration_s: 1\ncases: [{workload: a}]\nvariants:\n  - name: v\n"
                        "    features: NO_X\n"),
               5, "variants[0].features", {"list"});
  expect_names(error_of("duration_s: 1\nlabels: [a, b]\ncases: [{workload: a}]\n"), 2, "labels",
               {"map"});
  expect_names(error_of("duration_s: 1\ncases: [{workload: a}]\nvariants: baseline\n"), 3,
               "variants", {"list"});
}

// cases x variants x iterations over 1,000,000 slots: refused at parse
// time, at the line of `iterations`, naming the product and the limit.
TEST(PlanYaml, AScheduleOverAMillionSlotsIsRefused) {
  auto plan_of = [](std::size_t cases, std::size_t variants, const std::string& iterations) {
    std::string text = "duration_s: 1\ncases:\n";
    for (std::size_t c = 0; c < cases; ++c)
      text += fmt::format("  - {{name: c{}, workload: a}}\n", c);
    text += "variants:\n";
    for (std::size_t v = 0; v < variants; ++v) text += fmt::format("  - {{name: v{}}}\n", v);
    return text + iterations;
  };
  const std::string what = error_of(plan_of(1024, 1024, "iterations: 100000\n"));
  expect_names(what, 2 + 1024 + 1 + 1024 + 1, "iterations",
               {"1024 x 1024 x 100000 = 104857600000 slots", "at most 1000000"});
  EXPECT_EQ(parse_plan_yaml(plan_of(100, 100, "iterations: 100\n"), "t.yaml").iterations(), 100u)
      << "exactly 1000000 slots is allowed";
  // Without `iterations` (5 by default) the error points at the cases.
  expect_names(error_of(plan_of(1000, 201, "")), 3, "iterations",
               {"1000 x 201 x 5 = 1005000 slots"});
}

// Plan labels have the API's bounds (common/labels.h).
TEST(PlanYaml, LabelsHaveTheApiBounds) {
  const std::string head = "duration_s: 1\ncases: [{workload: a}]\nlabels:\n";
  std::string many = head;
  for (int i = 0; i < 65; ++i) many += fmt::format("  k{}: v\n", i);
  expect_names(error_of(many), 4, "labels", {"65 labels", "at most 64"});
  expect_names(error_of(head + "  ok: 1\n  " + std::string(129, 'k') + ": v\n"), 5,
               "labels." + std::string(129, 'k'), {"1..128 bytes"});
  expect_names(error_of(head + "  big: " + std::string(1025, 'v') + "\n"), 4, "labels.big",
               {"at most 1024 bytes"});
  std::string fits = head + "  " + std::string(128, 'k') + ": " + std::string(1024, 'v') + "\n";
  for (int i = 0; i < 63; ++i) fits += fmt::format("  k{}: v\n", i);
  EXPECT_EQ(parse_plan_yaml(fits, "t.yaml").labels().size(), 64u) << "at the bounds";
}

TEST(PlanYaml, NonScalarKeysArePlanErrors) {
  // yaml-cpp throws its own BadConversion for these unless the parser checks.
  expect_names(error_of("duration_s: 1\ncases:\n  - ? [a, b]\n    : 1\n"), 3, "cases[0]",
               {"plain names"});
  expect_names(error_of("duration_s: 1\ncases: [{workload: a}]\nlabels: {~: 1}\n"), 3, "labels",
               {"plain names"});
}

TEST(PlanYaml, OutOfRange) {
  expect_names(error_of("iterations: 0\nduration_s: 1\ncases: [{workload: a}]\n"), 1, "iterations",
               {"out of range"});
  expect_names(error_of("iterations: 100001\nduration_s: 1\ncases: [{workload: a}]\n"), 1,
               "iterations", {"out of range"});
  {
    std::string what = error_of("iterations: -1\nduration_s: 1\ncases: [{workload: a}]\n");
    expect_names(what, 1, "iterations");
  }
  expect_names(error_of("duration_s: -1\ncases: [{workload: a}]\n"), 1, "duration_s",
               {"-1 is out of range"});
  expect_names(error_of("duration_s: 0\ncases: [{workload: a}]\n"), 1, "duration_s",
               {"out of range"});
  expect_names(error_of("duration_s: .nan\ncases: [{workload: a}]\n"), 1, "duration_s",
               {"out of range"});
  expect_names(error_of("duration_s: 1\nwarmup_s: -0.5\ncases: [{workload: a}]\n"), 2, "warmup_s",
               {"out of range"});
  expect_names(error_of("duration_s: 1\ncooldown_s: -1\ncases: [{workload: a}]\n"), 2, "cooldown_s",
               {"out of range"});
  expect_names(error_of("duration_s: 1\nsample_hz: 50\ncases: [{workload: a}]\n"), 2, "sample_hz",
               {"50 is out of range"});
  expect_names(error_of("duration_s: 1\nsample_hz: -1\ncases: [{workload: a}]\n"), 2, "sample_hz",
               {"out of range"});
  // Below one sample per 100 s is not a rate (1e9/hz would overflow the period).
  expect_names(error_of("duration_s: 1\nsample_hz: 1e-10\ncases: [{workload: a}]\n"), 2,
               "sample_hz", {"0 (off) or 0.01 to 20"});
  expect_names(error_of("duration_s: 1\nquiet: {hold_s: -1}\ncases: [{workload: a}]\n"), 2,
               "quiet.hold_s", {"out of range"});
  expect_names(error_of("duration_s: 1\nquiet: {wait: 3}\ncases: [{workload: a}]\n"), 2,
               "quiet.wait", {"not known"});
  expect_names(error_of("duration_s: 1\nquiet: {retries: 11}\ncases: [{workload: a}]\n"), 2,
               "quiet.retries", {"out of range [0, 10]"});
  expect_names(error_of("duration_s: 1\nquiet: {disturbance: yes}\ncases: [{workload: a}]\n"), 2,
               "quiet.disturbance", {"'yes' is not true or false"});
  expect_names(error_of("duration_s: 1\nquiet: {other_cpu_pct: 0}\ncases: [{workload: a}]\n"), 2,
               "quiet.other_cpu_pct", {"out of range"});
  expect_names(error_of("duration_s: 1\nstarvation: {idle_pct: 150}\ncases: [{workload: a}]\n"), 2,
               "starvation.idle_pct", {"out of range"});
  expect_names(error_of("duration_s: 1\nseed: -1\ncases: [{workload: a}]\n"), 2, "seed");
}

// A case's gate: the metric `--fail-on regression` judges and its threshold.
TEST(PlanYaml, CaseGate) {
  const v1::Plan p = parse_plan_yaml(
      "duration_s: 1\ncases:\n  - workload: fork\n    gate: {metric: bogo_ops_per_s, "
      "threshold_pct: 2.5}\n  - workload: kv\n    gate: {threshold_pct: 3}\n  - workload: "
      "wakeup\n",
      "t.yaml");
  ASSERT_EQ(p.cases_size(), 3);
  EXPECT_TRUE(p.cases(0).has_gate());
  EXPECT_EQ(p.cases(0).gate().metric(), "bogo_ops_per_s");
  EXPECT_DOUBLE_EQ(p.cases(0).gate().threshold_pct(), 2.5);
  EXPECT_EQ(p.cases(1).gate().metric(), "");  // the primary metric
  EXPECT_DOUBLE_EQ(p.cases(1).gate().threshold_pct(), 3);
  EXPECT_FALSE(p.cases(2).has_gate());

  const std::string head = "duration_s: 1\ncases:\n  - workload: fork\n";
  expect_names(error_of(head + "    gate: {metric: ''}\n"), 4, "cases[0].gate.metric",
               {"must not be empty"});
  expect_names(error_of(head + "    gate: {threshold_pct: 1001}\n"), 4,
               "cases[0].gate.threshold_pct", {"1001 is out of range [0, 1000]"});
  expect_names(error_of(head + "    gate: {threshold_pct: -1}\n"), 4, "cases[0].gate.threshold_pct",
               {"out of range"});
  expect_names(error_of(head + "    gate: {metric: [a, b]}\n"), 4, "cases[0].gate.metric",
               {"single value"});
  expect_names(error_of(head + "    gate: {limit: 3}\n"), 4, "cases[0].gate.limit", {"not known"});
  expect_names(error_of(head + "    gate: 3\n"), 4, "cases[0].gate", {"must be a map"});
}

// yaml-cpp's LoadAll never returned on these (fuzz_plan_yaml): a document
// that would start with a ','.
TEST(PlanYaml, CommaOutsideAFlowIsASyntaxErrorNotAHang) {
  EXPECT_EQ(error_of(","), "t.yaml:1: YAML syntax: ',' outside a flow collection ([...] or {...})");
  EXPECT_EQ(error_of("  ,{\"a:\n"),
            "t.yaml:1: YAML syntax: ',' outside a flow collection ([...] or {...})");
  EXPECT_EQ(error_of("duration_s: 1\ncases: [{workload: fork}]\n---\n,\n"),
            "t.yaml:4: YAML syntax: ',' outside a flow collection ([...] or {...})");
}

TEST(PlanYaml, SecondYamlDocumentIsAnErrorNotIgnored) {
  const std::string what = error_of(
      "duration_s: 1\ncases: [{workload: fork}]\n---\nduration_s: 2\ncases: [{workload: kv}]\n");
  EXPECT_NE(what.find("t.yaml:4: a second YAML document"), std::string::npos) << what;
}

TEST(PlanYaml, BadOrderWord) {
  expect_names(error_of("duration_s: 1\norder: random\ncases: [{workload: a}]\n"), 2, "order",
               {"'random'", "interleaved", "blocked", "shuffled"});
}

TEST(PlanYaml, DuplicateCaseNames) {
  expect_names(error_of("duration_s: 1\n"
                        "cases:\n"
                        "  - name: x\n"
                        "    workload: fork\n"
                        "  - name: x\n"
                        "    workload: kv\n"),
               5, "cases[1].name", {"'x' is used twice"});
  // Default names collide too: same workload, same params.
  expect_names(error_of("duration_s: 1\n"
                        "cases:\n"
                        "  - workload: fork\n"
                        "    params: {workers: 2}\n"
                        "  - workload: fork\n"
                        "    params: {workers: 2}\n"
                        "    placement: cpus:0\n"),
               5, "cases[1].name", {"'fork:workers=2' is used twice"});
}

TEST(PlanYaml, DuplicateVariantNames) {
  expect_names(error_of("duration_s: 1\ncases: [{workload: a}]\nvariants:\n  - name: v\n"
                        "  - name: v\n"),
               5, "variants[1].name", {"used twice"});
}

TEST(PlanYaml, MissingOrEmptyRequiredThings) {
  expect_names(error_of("name: p\nduration_s: 1\n"), 1, "cases", {"required"});
  expect_names(error_of("duration_s: 1\ncases: []\n"), 2, "cases", {"non-empty list"});
  expect_names(error_of("cases: [{workload: a}]\n"), 1, "duration_s", {"required"});
  expect_names(error_of("duration_s: 1\ncases:\n  - name: x\n"), 3, "cases[0].workload",
               {"required"});
  expect_names(error_of("duration_s: 1\ncases:\n  - name: \"\"\n    workload: a\n"), 3,
               "cases[0].name", {"empty"});
  expect_names(error_of("duration_s: 1\ncases: [{workload: a}]\nvariants:\n  - features: [X]\n"), 4,
               "variants[0].name", {"required"});
  expect_names(error_of("duration_s: 1\ncases: [{workload: a}]\nvariants: []\n"), 3, "variants",
               {"non-empty list"});
}

TEST(PlanYaml, NotAMap) {
  for (const std::string text : {"", "- a\n- b\n", "just text\n"}) {
    try {
      parse_plan_yaml(text, "t.yaml");
      ADD_FAILURE() << "no PlanError for '" << text << "'";
    } catch (const PlanError& e) {
      EXPECT_NE(std::string(e.what()).find("t.yaml"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("map"), std::string::npos) << e.what();
    }
  }
}

TEST(PlanYaml, SyntaxErrorNamesLine) {
  std::string what = error_of(
      "name: p\n"
      "duration_s: 1\n"
      "labels: {a: 1\n"
      "cases: [{workload: a}]\n"
      "order: [blocked\n");
  EXPECT_NE(what.find("t.yaml:"), std::string::npos) << what;
  EXPECT_NE(what.find("YAML syntax"), std::string::npos) << what;

  what = error_of(
      "name: p\n"
      "duration_s: 1\n"
      "cases:\n"
      "  - workload: a\n"
      "   placement: all\n");
  EXPECT_EQ(what.rfind("t.yaml:5: YAML syntax", 0), 0u) << what;
}

class PlanFile : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "schedrig-plan-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  std::string write(const std::string& name, const std::string& text) {
    std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  std::filesystem::path dir_;
};

TEST_F(PlanFile, LoadsAFile) {
  Plan p = load_plan_file(write("design.yaml", kDesignExample));
  EXPECT_EQ(p.name(), "fork-vs-features");
  EXPECT_EQ(p.cases_size(), 3);
  EXPECT_EQ(p.variants_size(), 4);
}

TEST_F(PlanFile, ErrorsNameThePath) {
  std::string path = write("bad.yaml", "duration_s: 1\ncases: [{workload: a}]\nbogus: 1\n");
  try {
    load_plan_file(path);
    FAIL() << "no PlanError";
  } catch (const PlanError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path + ":3: key 'bogus'", 0), 0u) << e.what();
  }
}

TEST_F(PlanFile, MissingFileNamesPath) {
  std::string path = (dir_ / "no-such-plan.yaml").string();
  try {
    load_plan_file(path);
    FAIL() << "no PlanError";
  } catch (const PlanError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find(path), std::string::npos) << what;
    EXPECT_NE(what.find("cannot open"), std::string::npos) << what;
  }
}

TEST(PlanYaml, ShippedDefaultPlanParses) {
  Plan p = load_plan_file(SCHEDRIG_SOURCE_DIR "/plans/default.yaml");
  EXPECT_FALSE(p.name().empty());
  EXPECT_GE(p.cases_size(), 1);
  EXPECT_GE(p.variants_size(), 1);
  EXPECT_EQ(p.variants(0).name(), "baseline");
}

// An alias bomb: one big params map named by many cases. Each map and list
// is bounded where it is read, so the parser refuses it before expanding it.
TEST(PlanYaml, AliasBombIsRefusedBeforeItExpands) {
  std::string params = "{";
  for (int i = 0; i < 300; ++i) params += fmt::format("k{}: 1, ", i);
  params += "z: 1}";
  std::string text =
      "duration_s: 1\ncases:\n  - {name: c0, workload: fork, params: &p " + params + "}\n";
  for (int i = 1; i < 2000; ++i)
    text += fmt::format("  - {{name: c{}, workload: fork, params: *p}}\n", i);
  const std::string what = error_of(text);
  EXPECT_NE(what.find("key 'cases': has 2000 items; at most 1024"), std::string::npos) << what;
  const std::string one_case =
      "duration_s: 1\ncases:\n  - {name: c0, workload: fork, params: " + params + "}\n";
  EXPECT_NE(error_of(one_case).find("key 'cases[0].params': has 301 entries; at most 256"),
            std::string::npos)
      << error_of(one_case);
}

}  // namespace
}  // namespace schedrig

namespace schedrig {
namespace {

// The positive control's variant kind (docs/nightly.md "Selftest").
TEST(PlanYaml, AVariantCanCarryAnAntagonist) {
  const std::string head =
      "name: p\niterations: 2\nduration_s: 1\ncases: [{workload: wakeup}]\nvariants:\n  - name: "
      "base\n";
  const v1::Plan p = parse_plan_yaml(
      head + "  - name: hog\n    antagonist: {cpus: 0-1, duty_pct: 60}\n", "t.yaml");
  EXPECT_EQ(p.variants(0).antagonist().duty_pct(), 0u);
  EXPECT_EQ(p.variants(1).antagonist().duty_pct(), 60u);
  EXPECT_EQ(p.variants(1).antagonist().cpus(), "0-1");
  EXPECT_NE(error_of(head + "  - name: hog\n    antagonist: {cpus: 0}\n")
                .find("t.yaml:8: key 'variants[1].antagonist.duty_pct': is required (1..100)"),
            std::string::npos);
  EXPECT_NE(error_of(head + "  - name: hog\n    antagonist: {duty_pct: 101}\n")
                .find("variants[1].antagonist.duty_pct"),
            std::string::npos);
  EXPECT_NE(error_of(head + "  - name: hog\n    antagonist: {cpus: x-y, duty_pct: 5}\n")
                .find("variants[1].antagonist.cpus"),
            std::string::npos);
}

}  // namespace
}  // namespace schedrig

namespace schedrig {
namespace {

// `iterations: {min, max, stop: verdict}` (issue #20): rounds until the
// verdicts are settled, between min and max.
TEST(PlanYamlIterationStop, AMapSetsTheRuleAndMaxRounds) {
  const v1::Plan plan = parse_plan_yaml(
      "duration_s: 1\niterations: {min: 3, max: 20, stop: verdict}\n"
      "cases: [{workload: fork}]\nvariants: [{name: a}, {name: b, features: [NO_X]}]\n",
      "t.yaml");
  EXPECT_EQ(plan.iterations(), 20u);
  EXPECT_EQ(plan.iteration_stop().min(), 3u);
  EXPECT_EQ(plan.iteration_stop().max(), 20u);
  EXPECT_EQ(plan.iteration_stop().delta_pct(), 2.0);
  const v1::Plan plain =
      parse_plan_yaml("duration_s: 1\niterations: 7\ncases: [{workload: fork}]\n", "t.yaml");
  EXPECT_EQ(plain.iterations(), 7u);
  EXPECT_EQ(plain.iteration_stop().min(), 0u);
}

TEST(PlanYamlIterationStop, BadRulesNameTheKey) {
  const std::string variants = "variants: [{name: a}, {name: b}]\n";
  expect_names(error_of("duration_s: 1\niterations: {min: 3, max: 20, stop: always}\n"
                        "cases: [{workload: fork}]\n" +
                        variants),
               2, "iterations.stop", {"'always' is not verdict"});
  expect_names(error_of("duration_s: 1\niterations: {min: 2, max: 20, stop: verdict}\n"
                        "cases: [{workload: fork}]\n" +
                        variants),
               2, "iterations.min", {"out of range [3, 200]"});
  expect_names(error_of("duration_s: 1\niterations: {min: 5, max: 4, stop: verdict}\n"
                        "cases: [{workload: fork}]\n" +
                        variants),
               2, "iterations.max", {"out of range [5, 200]"});
  expect_names(error_of("duration_s: 1\niterations: {min: 5, stop: verdict}\n"
                        "cases: [{workload: fork}]\n" +
                        variants),
               2, "iterations.max", {"is required"});
  expect_names(error_of("duration_s: 1\niterations: {min: 5, max: 9, stop: verdict}\n"
                        "cases: [{workload: fork}]\n"),
               2, "iterations.stop", {"a baseline and at least one variant"});
  expect_names(error_of("duration_s: 1\norder: blocked\n"
                        "iterations: {min: 5, max: 9, stop: verdict}\n"
                        "cases: [{workload: fork}]\n" +
                        variants),
               2, "order", {"must be interleaved"});
}

}  // namespace
}  // namespace schedrig
