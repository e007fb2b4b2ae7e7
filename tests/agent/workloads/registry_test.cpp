#include "agent/workloads/registry.h"

#include <gtest/gtest.h>

namespace schedrig::workloads {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ParamError& e) {
    return e.what();
  }
  return "";
}

TEST(Registry, ForkDeclaresItsPrimaryMetricAndDefaults) {
  const WorkloadInfo& w = find_workload("fork");
  EXPECT_STREQ(w.primary_metric, "bogo_ops_per_s");
  EXPECT_STREQ(w.unit, "ops/s");
  EXPECT_EQ(w.direction, Direction::kHigherIsBetter);
  Params p = with_defaults(w, {{"fork_max", "4"}});
  EXPECT_EQ(p.at("workers"), "auto");
  EXPECT_EQ(p.at("fork_max"), "4");
  EXPECT_EQ(p.at("pin"), "set");
}

TEST(Registry, UnknownWorkloadListsTheKnownOnes) {
  std::string msg = error_of([] { find_workload("forkk"); });
  EXPECT_NE(msg.find("'forkk'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("fork"), std::string::npos) << msg;
}

TEST(Registry, UnknownParameterIsNamed) {
  std::string msg = error_of([] { with_defaults(find_workload("fork"), {{"forks", "1"}}); });
  EXPECT_NE(msg.find("'forks'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("fork_max"), std::string::npos) << msg;
}

TEST(Registry, BadValuesNameParameterValueAndRange) {
  const WorkloadInfo& w = find_workload("fork");
  std::string msg = error_of([&] { w.validate(with_defaults(w, {{"fork_max", "0"}}), 4); });
  EXPECT_NE(msg.find("'fork_max' = '0'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("[1, 16000]"), std::string::npos) << msg;
  msg = error_of([&] { w.validate(with_defaults(w, {{"workers", "many"}}), 4); });
  EXPECT_NE(msg.find("'workers' = 'many'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("or auto"), std::string::npos) << msg;
  msg = error_of([&] { w.validate(with_defaults(w, {{"pin", "core"}}), 4); });
  EXPECT_NE(msg.find("set, per-cpu"), std::string::npos) << msg;
  EXPECT_EQ(error_of([&] { w.validate(with_defaults(w, {{"workers", "auto"}}), 4); }), "");
}

}  // namespace
}  // namespace schedrig::workloads
