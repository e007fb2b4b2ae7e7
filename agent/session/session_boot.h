// A Boot from the host (docs/nightly.md "Boot hooks"): the kernel it names
// must be one of the agent configuration's `kernels:`; its hook boots it and
// the session ends, to come back (systemd) on the new kernel with a new
// boot_id.
#pragma once

#include <functional>
#include <vector>

#include "agent/boot/kernel_table.h"
#include "common/procfs/root.h"
#include "schedrig/v1/envelope.pb.h"
#include "schedrig/v1/plan.pb.h"

namespace schedrig::agent {

// What boot_on_request needs from the session.
struct BootContext {
  const boot::KernelTable& kernels;
  const procfs::Root& root;  // the knob root: a fake tree for the test hook
  std::vector<int> cpus;     // where the hook's commands run (the allowed PUs)
  // Sends an envelope to the host and waits (bounded) for its ack.
  std::function<void(schedrig::v1::Envelope)> send_and_wait;
};

// Boots the kernel `boot` names. A name the table does not list: an Error
// (ERROR_BAD_PLAN) "kernel 'x' is not one this agent boots (its config
// lists: a, b)", and false. Otherwise a Log (info) "booting kernel 'x'
// (release R) with the H hook: REASON" goes first, then the hook runs; a
// hook that fails is an Error (ERROR_FACILITY_UNAVAILABLE) with the hook's
// words, and false. True once the hook asked for the reboot: the session
// ends.
bool boot_on_request(const schedrig::v1::Boot& boot, const BootContext& ctx);

// The antagonist the kernel `root` runs has in `kernels` (its test hook's
// `antagonist:`, a simulated slower kernel), as runs take it; duty_pct 0
// when it has none or the table does not list the running release. Read
// once per session, logged when there is one.
schedrig::v1::Antagonist simulated_slowdown(const boot::KernelTable& kernels,
                                            const procfs::Root& root);

}  // namespace schedrig::agent
