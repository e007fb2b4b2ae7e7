#include "agent/session/session_boot.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "agent/boot/boot_hook.h"
#include "agent/session/host_commands.h"
#include "common/cpulist.h"
#include "common/ids.h"
#include "common/printable.h"

namespace schedrig::agent {

namespace v1 = schedrig::v1;

static v1::Envelope log_envelope(const std::string& message) {
  v1::Envelope env;
  env.mutable_log()->set_level("info");
  env.mutable_log()->set_message(message);
  return env;
}

bool boot_on_request(const v1::Boot& boot, const BootContext& ctx) {
  const boot::KernelEntry* k = ctx.kernels.find(boot.kernel());
  if (!k) {
    const std::string why =
        fmt::format("kernel '{}' is not one this agent boots (its config lists: {})",
                    printable(boot.kernel()), ctx.kernels.empty() ? "none" : ctx.kernels.names());
    spdlog::warn("Boot refused: {}", why);
    ctx.send_and_wait(error_envelope(v1::ERROR_BAD_PLAN, why, ""));
    return false;
  }
  const std::string what = fmt::format("booting kernel '{}' (release {}) with the {} hook{}{}",
                                       k->name, k->release, boot::hook_name(k->hook),
                                       boot.reason().empty() ? "" : ": ", printable(boot.reason()));
  spdlog::info("{}", what);
  ctx.send_and_wait(log_envelope(what));
  try {
    boot::boot_kernel(*k, ctx.root, ctx.cpus);
  } catch (const boot::BootError& e) {
    spdlog::error("{}", e.what());
    ctx.send_and_wait(error_envelope(v1::ERROR_FACILITY_UNAVAILABLE, e.what(), ""));
    return false;
  }
  spdlog::info("kernel '{}': the {} hook asked for the reboot; the session ends", k->name,
               boot::hook_name(k->hook));
  return true;
}

v1::Antagonist simulated_slowdown(const boot::KernelTable& kernels, const procfs::Root& root) {
  v1::Antagonist a;
  if (kernels.empty() || root.is_live()) return a;
  const boot::KernelEntry* k = kernels.running(kernel_release(root));
  if (!k || k->slowdown.duty_pct == 0) return a;
  a.set_cpus(format_cpulist(k->slowdown.cpus));
  a.set_duty_pct(k->slowdown.duty_pct);
  spdlog::info("kernel '{}' (test hook): every run has an antagonist of {}% on {}", k->name,
               a.duty_pct(), a.cpus().empty() ? "each case's PUs" : a.cpus());
  return a;
}

}  // namespace schedrig::agent
