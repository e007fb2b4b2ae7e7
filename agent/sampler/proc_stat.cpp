#include "agent/sampler/proc_stat.h"

#include <unistd.h>

#include <stdexcept>
#include <string>

#include "agent/sampler/sampler_error.h"
#include "agent/sampler/text_scan.h"

namespace schedrig::sampler {
namespace {

std::uint64_t ticks_to_ns(std::uint64_t ticks, long ticks_per_s) {
  // ticks < 2^64 / 1e9 for ~5.8 years of one CPU at USER_HZ 100: split to
  // stay exact and overflow-free for any realistic uptime.
  const auto hz = static_cast<std::uint64_t>(ticks_per_s);
  return ticks / hz * 1'000'000'000ULL + ticks % hz * 1'000'000'000ULL / hz;
}

// "cpu3 u n s i io irq sirq steal guest guest_nice" -> CPU 3. Kernels
// before 2.6.11 print fewer columns; missing ones stay 0.
void parse_cpu_line(const std::vector<std::string_view>& f, long hz, ProcStat& out) {
  std::uint64_t cpu = 0;
  if (!parse_u64(f[0].substr(3), cpu)) {
    throw parse_error("/proc/stat: bad cpu label '" + std::string(f[0]) + "'");
  }
  if (f.size() < 5) throw parse_error("/proc/stat: short line for " + std::string(f[0]));
  CpuTimes& t = out.cpus[static_cast<int>(cpu)];
  std::uint64_t* const fields[] = {&t.user,   &t.nice, &t.system,  &t.idle,
                                   &t.iowait, &t.irq,  &t.softirq, &t.steal};
  for (std::size_t i = 0; i < 8 && i + 1 < f.size(); ++i) {
    *fields[i] = ticks_to_ns(require_u64(f[i + 1], "/proc/stat cpu field"), hz);
  }
}

void parse_counter_line(const std::vector<std::string_view>& f, ProcStat& out, bool& seen) {
  const std::string_view key = f[0];
  if (f.size() < 2) return;
  if (key == "ctxt") {
    out.ctxt = require_u64(f[1], "/proc/stat ctxt");
    seen = true;
  } else if (key == "intr") {
    out.intr = require_u64(f[1], "/proc/stat intr");
  } else if (key == "processes") {
    out.processes = require_u64(f[1], "/proc/stat processes");
  } else if (key == "procs_running") {
    out.procs_running = static_cast<std::uint32_t>(require_u64(f[1], "/proc/stat procs_running"));
  } else if (key == "procs_blocked") {
    out.procs_blocked = static_cast<std::uint32_t>(require_u64(f[1], "/proc/stat procs_blocked"));
  }
}

}  // namespace

ProcStat parse_proc_stat(std::string_view text, long ticks_per_s) {
  if (ticks_per_s <= 0) ticks_per_s = 100;
  ProcStat out;
  bool seen_ctxt = false;
  for_each_line(text, [&](std::string_view line) {
    // The intr and softirq lines are long; only their first number matters.
    if (line.starts_with("intr ")) line = line.substr(0, line.find(' ', 5));
    const auto f = split_fields(line);
    if (f.empty()) return;
    if (f[0].starts_with("cpu") && f[0].size() > 3) {
      parse_cpu_line(f, ticks_per_s, out);
    } else if (f[0] != "cpu") {
      parse_counter_line(f, out, seen_ctxt);
    }
  });
  if (out.cpus.empty() || !seen_ctxt) {
    throw parse_error("/proc/stat: no cpuN or ctxt line (not a /proc/stat file?)");
  }
  return out;
}

long user_hz() {
  const long hz = ::sysconf(_SC_CLK_TCK);
  return hz > 0 ? hz : 100;
}

}  // namespace schedrig::sampler
