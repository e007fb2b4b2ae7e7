#include "host/nightly/lab_file.h"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "common/cli_error.h"
#include "tests/support/run_command.h"

namespace schedrig::nightly {
namespace {

constexpr const char* kPlan =
    "name: p\niterations: 2\nduration_s: 1\ncases: [{workload: wakeup}]\nvariants: [{name: "
    "base}]\n";

class LabFileTest : public ::testing::Test {
 protected:
  void SetUp() override { std::ofstream(dir_.file("p.yaml")) << kPlan; }
  std::string write(const std::string& yaml) {
    std::ofstream(dir_.file("lab.yaml")) << yaml;
    return dir_.file("lab.yaml");
  }
  std::string error_of(const std::string& yaml) {
    try {
      load_lab_file(write(yaml));
    } catch (const CliError& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kUsage);
      return std::string(e.what()).substr(dir_.file("").size());
    }
    return "(loaded)";
  }
  testing::TempDir dir_;
};

TEST_F(LabFileTest, ReadsEveryKeyAndResolvesPlansBesideIt) {
  const LabFile lab = load_lab_file(write(R"(agents: [box1, {arch: arm64}]
kernels: [rhel-10.1, rhel-10.2]
plans: [p.yaml]
boots_per_kernel: 4
baseline: {kernel: rhel-10.2}
gates: {metric: requests_per_s, threshold_pct: 2}
selftest: false
)"));
  ASSERT_EQ(lab.agents.size(), 2u);
  EXPECT_EQ(lab.agents[0].id, "box1");
  EXPECT_EQ(lab.agents[1].match.at("arch"), "aarch64");  // arm64 and aarch64 are one
  EXPECT_EQ(lab.kernels, (std::vector<std::string>{"rhel-10.1", "rhel-10.2"}));
  ASSERT_EQ(lab.plans.size(), 1u);
  EXPECT_EQ(lab.plans[0].path, dir_.file("p.yaml"));
  EXPECT_EQ(lab.plans[0].name, "p.yaml");
  EXPECT_EQ(lab.plans[0].yaml, kPlan);  // read once, at load
  EXPECT_EQ(lab.boots_per_kernel, 4u);
  EXPECT_EQ(lab.baseline_kernel, "rhel-10.2");
  EXPECT_EQ(lab.gate_metric, "requests_per_s");
  EXPECT_DOUBLE_EQ(lab.gate_threshold_pct, 2);
  EXPECT_FALSE(lab.selftest);
  EXPECT_TRUE(lab.notes.empty());
}

TEST_F(LabFileTest, DefaultsAreThreeBootsTheFirstKernelAndTheSelftest) {
  const LabFile lab = load_lab_file(write("agents: [box1]\nkernels: [a, b]\nplans: p.yaml\n"));
  EXPECT_EQ(lab.boots_per_kernel, 3u);
  EXPECT_EQ(lab.baseline_kernel, "a");
  EXPECT_TRUE(lab.selftest);
  const LabFile current = load_lab_file(
      write("agents: [box1]\nkernels: current\nplans: p.yaml\nbaseline: last_good\n"));
  EXPECT_TRUE(current.kernels.empty());
  EXPECT_EQ(current.baseline_kernel, "");  // last_good
  const LabFile two =
      load_lab_file(write("agents: [box1]\nkernels: [a, b]\nplans: p.yaml\nboots_per_kernel: 2\n"));
  ASSERT_EQ(two.notes.size(), 1u);
  EXPECT_NE(two.notes[0].find("boots_per_kernel 2"), std::string::npos);
}

TEST_F(LabFileTest, ErrorsNameFileLineAndKey) {
  EXPECT_EQ(error_of("agents: [box1]\nkernels: [a]\n"), "lab.yaml:1: key 'plans': is required");
  EXPECT_EQ(error_of("agents: [box1]\nkernels: [a]\nplans: p.yaml\nboots_per_kernel: 1\n"),
            "lab.yaml:4: key 'boots_per_kernel': '1' is not a number in 2..20");
  EXPECT_EQ(error_of("agents: [box1]\nkernels: [a, a]\nplans: p.yaml\n"),
            "lab.yaml:2: key 'kernels[1]': 'a' given twice");
  EXPECT_EQ(error_of("agents: [box1]\nkernels: [a]\nplans: p.yaml\nbaseline: {kernel: b}\n"),
            "lab.yaml:4: key 'baseline.kernel': 'b' is not one of the night's kernels");
  EXPECT_EQ(error_of("agents: [{cpu: x}]\nkernels: [a]\nplans: p.yaml\n"),
            "lab.yaml:1: key 'agents[0].cpu': unknown key (known: arch, hostname)");
  EXPECT_EQ(error_of("agents: [box1]\nkernels: [a]\nplans: p.yaml\nnight: 1\n"),
            "lab.yaml:4: key 'night': unknown key (known: agents, kernels, plans, "
            "boots_per_kernel, baseline, gates, selftest)");
  EXPECT_NE(error_of("agents: [box1]\nkernels: [\"a;reboot\"]\nplans: p.yaml\n")
                .find("'a;reboot' is not a kernel name"),
            std::string::npos);
  EXPECT_NE(error_of("agents: [box1]\nkernels: [a]\nplans: missing.yaml\n").find("missing.yaml"),
            std::string::npos);
  std::filesystem::create_directories(dir_.file("sub"));
  std::ofstream(dir_.file("sub/p.yaml")) << kPlan;
  EXPECT_NE(error_of("agents: [box1]\nkernels: [a]\nplans: [p.yaml, sub/p.yaml]\n")
                .find("lab.yaml:3: key 'plans[1]': 'p.yaml': a night tells its plans apart by file "
                      "name, and this one is taken"),
            std::string::npos);
  EXPECT_NE(error_of("agents: [box1]\nkernels: [a]\nplans: [/dev/zero]\n")
                .find("key 'plans[0]': /dev/zero: not a regular file"),
            std::string::npos);
}

}  // namespace
}  // namespace schedrig::nightly
