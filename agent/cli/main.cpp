// schedrig-agent: runs on a lab box as root; maps the topology, runs pinned
// workloads, and streams results to the host. See docs/architecture.md "Command lines".
#include "agent/cli/commands.h"

int main(int argc, char** argv) { return schedrig::agent::agent_main(argc, argv); }
