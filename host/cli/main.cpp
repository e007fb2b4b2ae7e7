// schedrig: the host side. Collector (serve), results, and lab, the embedded
// default that runs the main job on this machine. See docs/architecture.md "Command lines".
#include "host/cli/commands.h"

int main(int argc, char** argv) { return schedrig::host::host_main(argc, argv); }
