// PlanError's fields and text, and the line map parse_plan_yaml fills
// (common/plan/plan_yaml.h; docs/architecture.md "Plan files (YAML)").
#include <string>

#include <gtest/gtest.h>

#include "common/plan/plan_yaml.h"

namespace schedrig {
namespace {

// Line numbers are the comments' (1-based); keep them in step with the text.
constexpr const char* kPlan = R"(name: lines              # 1
duration_s: 1            # 2
cases:                   # 3
  - workload: fork       # 4
    params:              # 5
      workers: auto      # 6
      fork_max: 4        # 7
    placement: all       # 8
  - name: second         # 9
    workload: wakeup     # 10
    params: {message_threads: 1, think_ops: 0}   # 11
    placement: node:1    # 12
    membind: local       # 13
variants:                # 14
  - name: baseline       # 15
  - name: knobs          # 16
    features:            # 17
      - NO_NI_RANDOM     # 18
      - NI_RANDOM        # 19
    debugfs:             # 20
      sched/migration_cost_ns: 100000   # 21
  - name: autogroup      # 22
    sysctl: {kernel.sched_autogroup_enabled: 0}  # 23
)";

TEST(PlanError, FieldsAndText) {
  PlanError e("plan.yaml", 14, "cases[0].params.fork_max", "0", "must be at least 1");
  EXPECT_EQ(e.file(), "plan.yaml");
  EXPECT_EQ(e.line(), 14);
  EXPECT_EQ(e.key(), "cases[0].params.fork_max");
  EXPECT_EQ(e.value(), "0");
  EXPECT_STREQ(e.what(),
               "plan.yaml:14: key 'cases[0].params.fork_max': value '0': must be at least 1");
}

TEST(PlanError, UnknownPartsAreLeftOut) {
  EXPECT_STREQ(PlanError("p.yaml", 0, "", "", "cannot open: No such file").what(),
               "p.yaml: cannot open: No such file");
  EXPECT_STREQ(PlanError("p.yaml", 3, "order", "", "'x' is not one of a, b").what(),
               "p.yaml:3: key 'order': 'x' is not one of a, b");
  EXPECT_STREQ(PlanError("p.yaml", 0, "cases", "", "is required").what(),
               "p.yaml: key 'cases': is required");
}

TEST(PlanError, ParserErrorsCarryTheirFields) {
  try {
    parse_plan_yaml("duration_s: 1\ncases: [{workload: fork}]\norder: sideways\n", "t.yaml");
    FAIL() << "no PlanError";
  } catch (const PlanError& e) {
    EXPECT_EQ(e.file(), "t.yaml");
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(e.key(), "order");
    EXPECT_EQ(e.value(), "");
    EXPECT_STREQ(e.what(),
                 "t.yaml:3: key 'order': 'sideways' is not one of interleaved, blocked, shuffled");
  }
}

TEST(PlanError, SyntaxErrorHasALineAndNoKey) {
  try {
    parse_plan_yaml("duration_s: 1\ncases: [\n", "t.yaml");
    FAIL() << "no PlanError";
  } catch (const PlanError& e) {
    EXPECT_EQ(e.key(), "");
    EXPECT_EQ(e.line(), 3);  // yaml-cpp reports the unclosed flow list at the end
    EXPECT_EQ(std::string(e.what()).rfind("t.yaml:3: YAML syntax: ", 0), 0u) << e.what();
  }
}

TEST(PlanLines, EveryKeyHasItsLine) {
  PlanLines lines;
  parse_plan_yaml(kPlan, "lines.yaml", &lines);
  const std::pair<const char*, int> want[] = {
      {"name", 1},
      {"duration_s", 2},
      {"cases", 3},
      {"cases[0]", 4},
      {"cases[0].workload", 4},
      {"cases[0].params", 5},
      {"cases[0].params.workers", 6},
      {"cases[0].params.fork_max", 7},
      {"cases[0].placement", 8},
      {"cases[1]", 9},
      {"cases[1].name", 9},
      {"cases[1].workload", 10},
      {"cases[1].params.message_threads", 11},
      {"cases[1].params.think_ops", 11},
      {"cases[1].placement", 12},
      {"cases[1].membind", 13},
      {"variants", 14},
      {"variants[0]", 15},
      {"variants[1].name", 16},
      {"variants[1].features", 17},
      {"variants[1].features[0]", 18},
      {"variants[1].features[1]", 19},
      {"variants[1].debugfs", 20},
      {"variants[1].debugfs.sched/migration_cost_ns", 21},
      {"variants[2].sysctl", 23},
      {"variants[2].sysctl.kernel.sched_autogroup_enabled", 23},
  };
  for (const auto& [key, line] : want) {
    EXPECT_EQ(lines.line_of(key), line) << key;
    EXPECT_EQ(lines.lines.count(key), 1u) << key;
  }
}

TEST(PlanLines, MissingKeysFallBackToTheirEnclosingKey) {
  PlanLines lines;
  parse_plan_yaml(kPlan, "lines.yaml", &lines);
  EXPECT_EQ(lines.line_of("cases[1].params.workers_per_message"), 11);  // a default: params
  EXPECT_EQ(lines.line_of("cases[0].membind"), 4);                      // the case
  EXPECT_EQ(lines.line_of("variants[2].sysctl.kernel.numa_balancing"), 23);
  EXPECT_EQ(lines.line_of("labels"), 0);
  EXPECT_EQ(lines.line_of(""), 0);
}

TEST(PlanLines, RefilledOnEachParse) {
  PlanLines lines;
  parse_plan_yaml(kPlan, "lines.yaml", &lines);
  parse_plan_yaml("duration_s: 1\ncases: [{workload: fork}]\n", "short.yaml", &lines);
  EXPECT_EQ(lines.line_of("cases[0].workload"), 2);
  EXPECT_EQ(lines.lines.count("variants[1].features[0]"), 0u);
  EXPECT_EQ(lines.lines.count("name"), 0u);
}

}  // namespace
}  // namespace schedrig
