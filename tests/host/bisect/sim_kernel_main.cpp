// schedrig-simkernel / schedrig-agent-simkernel (tests only): the real host
// and agent command lines with the simulated kernel's workload registered
// (tests/host/bisect/sim_kernel.h), so bisect-knobs can be run end to end
// against it. SIMKERNEL_AGENT picks the agent's command line.
#include "agent/cli/commands.h"
#include "agent/workloads/registry.h"
#include "host/cli/commands.h"
#include "tests/host/bisect/sim_kernel.h"

int main(int argc, char** argv) {
  schedrig::workloads::add_workload_for_tests(schedrig::testing::sim_kernel_workload());
#ifdef SIMKERNEL_AGENT
  return schedrig::agent::agent_main(argc, argv);
#else
  return schedrig::host::host_main(argc, argv);
#endif
}
