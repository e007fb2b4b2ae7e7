// A lab file (docs/nightly.md "The lab file"): which agents, which kernels,
// which plans, how many boots of each kernel, the baseline, the gates and
// the selftest of one night. YAML, checked like plans: every error names
// the file, the line and the key.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace schedrig::nightly {

// One plan of the night: read (and parsed, to check it) once, when the lab
// file is loaded; a night queues this text, so a plan edited mid-night does
// not change it.
struct LabPlan {
  std::string path;  // relative ones resolved against the lab file's dir
  std::string name;  // its file name: how a night tells its plans apart
  std::string yaml;  // at most kMaxPlanFileBytes (night_files.h)
};

// One entry of `agents:`: an agent id, or a selector of agent facts (every
// key must match: arch, hostname).
struct AgentSelector {
  std::string id;                            // "" for a selector
  std::map<std::string, std::string> match;  // arch: arm64, hostname: altra-01
  int line = 0;
};

struct LabFile {
  std::string path;
  std::vector<AgentSelector> agents;
  std::vector<std::string> kernels;  // empty = `current`: no boot, the kernel the box runs
  std::vector<LabPlan> plans;
  unsigned boots_per_kernel = 3;
  std::string baseline_kernel;  // "" = last_good
  std::string gate_metric;      // "" = each plan's own gate, else the primary metric
  double gate_threshold_pct = 0;
  bool gate_threshold_given = false;
  bool selftest = true;
  std::vector<std::string> notes;  // what the night should know (2 boots a kernel)
};

inline constexpr unsigned kMaxBootsPerKernel = 20;
inline constexpr std::size_t kMaxLabAgents = 64;
inline constexpr std::size_t kMaxLabKernels = 16;
inline constexpr std::size_t kMaxLabPlans = 32;

// Reads and checks `path`; each plan is loaded (load_plan_file) so a bad
// plan is refused now, not at 3 a.m. Throws CliError(kUsage) "F:LINE: key
// 'K': REASON" (or the plan's own PlanError text).
LabFile load_lab_file(const std::string& path);

// `arch` as selectors and agents may spell it: arm64 and aarch64 are one,
// so are amd64 and x86_64.
std::string canonical_arch(const std::string& arch);

}  // namespace schedrig::nightly
