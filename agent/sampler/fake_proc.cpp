#include "agent/sampler/fake_proc.h"

#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "agent/sampler/proc_stat.h"

namespace schedrig::sampler {
namespace {

std::uint64_t ticks(double t) { return static_cast<std::uint64_t>(std::floor(t + 1e-6)); }

// "%*pb" of a mask of `pus` bits with bits [first, first+count) set.
std::string cpumask(int pus, int first, int count) {
  std::vector<std::uint32_t> words(static_cast<std::size_t>((pus + 31) / 32), 0);
  for (int c = first; c < first + count && c < pus; ++c) {
    words[static_cast<std::size_t>(c / 32)] |= 1u << (c % 32);
  }
  std::string out;
  for (auto it = words.rbegin(); it != words.rend(); ++it) {
    if (!out.empty()) out += ',';
    out += it == words.rbegin() && words.size() == 1 ? fmt::format("{:x}", *it)
                                                     : fmt::format("{:08x}", *it);
  }
  return out;
}

const char* kDomainNames[] = {"SMT", "MC", "NUMA"};

}  // namespace

void write_file_in_place(const std::filesystem::path& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("fake proc: cannot write " + path.string());
  const ssize_t n = ::write(fd, text.data(), text.size());
  ::close(fd);
  if (n != static_cast<ssize_t>(text.size())) {
    throw std::runtime_error("fake proc: short write " + path.string());
  }
}

FakeProc::FakeProc(std::filesystem::path root, FakeProcOptions options)
    : root_(std::move(root)), o_(options), pus_(static_cast<std::size_t>(options.pus)) {
  std::filesystem::create_directories(root_ / "proc" / "pressure");
  write();
}

std::vector<int> FakeProc::pu_to_node() const {
  std::vector<int> out;
  const int per_node = std::max(1, o_.pus / std::max(1, o_.nodes));
  for (int pu = 0; pu < o_.pus; ++pu) out.push_back(std::min(pu / per_node, o_.nodes - 1));
  return out;
}

void FakeProc::step(const FakeStep& s) {
  const double hz = static_cast<double>(user_hz());
  for (auto& p : pus_) {
    if (!p.online) continue;
    const double all = s.seconds * hz;
    p.user_ticks += all * s.busy_pct / 100;
    p.iowait_ticks += all * s.iowait_pct / 100;
    p.idle_ticks += all * (100 - s.busy_pct - s.iowait_pct) / 100;
    p.sched_count += 100;
    p.ttwu += 50;
    p.run_ns += static_cast<std::uint64_t>(s.seconds * 1e9 * s.busy_pct / 100);
    p.delay_ns += s.run_delay_ns;
    p.slices += 10;
    p.newidle_lb += s.newidle_lb;
    p.newidle_failed += s.newidle_failed;
    p.newidle_gained += s.newidle_lb - s.newidle_failed;
    p.busy_lb += 7;
  }
  ctxt_ += s.ctxt;
  intr_ += s.intr;
  forks_ += s.forks;
  running_ = s.procs_running;
  blocked_ = s.procs_blocked;
  psi_us_ += s.psi_some_us;
  numa_miss_ += s.numa_miss;
  migrated_ += s.numa_pages_migrated;
  load1_ = s.load1;
  jiffies_ += static_cast<std::uint64_t>(s.seconds * 250);
  write();
}

void FakeProc::set_online(int pu, bool online) {
  pus_.at(static_cast<std::size_t>(pu)).online = online;
  write();
}

void FakeProc::add_task(pid_t pid, pid_t tid) {
  tasks_[tid] = Task{pid, 0, 0, 1};
  std::filesystem::create_directories(root_ / "proc" / std::to_string(pid) / "task" /
                                      std::to_string(tid));
  write_task(tid, tasks_[tid]);
}

void FakeProc::remove_task(pid_t pid, pid_t tid) {
  // A reader holding the file open would still read the old text of an
  // unlinked regular file; the kernel gives ESRCH. Emptying it first makes
  // that read fail to parse, which the reader treats the same way.
  write_file_in_place(
      root_ / "proc" / std::to_string(pid) / "task" / std::to_string(tid) / "schedstat", "");
  tasks_.erase(tid);
  std::filesystem::remove_all(root_ / "proc" / std::to_string(pid) / "task" / std::to_string(tid));
}

void FakeProc::step_task(pid_t tid, std::uint64_t run_ns, std::uint64_t wait_ns,
                         std::uint64_t slices) {
  Task& t = tasks_.at(tid);
  t.run_ns += run_ns;
  t.wait_ns += wait_ns;
  t.slices += slices;
  write_task(tid, t);
}

void FakeProc::write() const {
  write_stat();
  if (o_.schedstat_version) write_schedstat();
  if (o_.vmstat) write_vmstat();
  if (o_.pressure) write_pressure();
  write_loadavg();
}

void FakeProc::write_stat() const {
  std::string cpus;
  double user = 0, idle = 0, iowait = 0;
  for (std::size_t i = 0; i < pus_.size(); ++i) {
    const Pu& p = pus_[i];
    if (!p.online) continue;
    cpus += fmt::format("cpu{} {} 0 0 {} {} 0 0 0 0 0\n", i, ticks(p.user_ticks),
                        ticks(p.idle_ticks), ticks(p.iowait_ticks));
    user += p.user_ticks;
    idle += p.idle_ticks;
    iowait += p.iowait_ticks;
  }
  std::string intr = fmt::format("intr {}", intr_);
  for (int i = 0; i < 64; ++i) intr += " 0";
  write_file_in_place(root_ / "proc/stat",
                      fmt::format("cpu  {} 0 0 {} {} 0 0 0 0 0\n{}{}\nctxt {}\nbtime 1796027026\n"
                                  "processes {}\nprocs_running {}\nprocs_blocked {}\n"
                                  "softirq 0 0 0 0 0 0 0 0 0 0 0\n",
                                  ticks(user), ticks(idle), ticks(iowait), cpus, intr, ctxt_,
                                  forks_, running_, blocked_));
}

void FakeProc::write_schedstat() const {
  const unsigned v = o_.schedstat_version;
  const int per_type = v >= 17 ? 11 : 8;
  std::string out = fmt::format("version {}\ntimestamp {}\n", v, jiffies_);
  for (std::size_t i = 0; i < pus_.size(); ++i) {
    const Pu& p = pus_[i];
    if (!p.online) continue;
    out += fmt::format("cpu{} 0 0 {} {} {} {} {} {} {}\n", i, p.sched_count, p.sched_count / 4,
                       p.ttwu, p.ttwu / 2, p.run_ns, p.delay_ns, p.slices);
    for (int d = 0; d < o_.domains; ++d) {
      const int span = d == 0 ? 2 : o_.pus;  // SMT pairs, then everything
      const int first = d == 0 ? static_cast<int>(i) / 2 * 2 : 0;
      out += fmt::format("domain{} ", d);
      if (v >= 17) out += fmt::format("{} ", kDomainNames[d % 3]);
      out += cpumask(o_.pus, first, span);
      // Blocks as printed: v15 idle, busy, newly idle; v16+ busy, idle, newly idle.
      const std::uint64_t busy_lb = d == 0 ? p.busy_lb : 0;
      const std::uint64_t nl = d == 0 ? p.newidle_lb : 0, nf = d == 0 ? p.newidle_failed : 0;
      const std::uint64_t ng = d == 0 ? p.newidle_gained : 0;
      auto block = [&](std::uint64_t count, std::uint64_t failed, std::uint64_t gained) {
        std::string b = fmt::format(" {} {} {}", count, count - failed - gained, failed);
        for (int k = 3; k < per_type - 4; ++k) b += " 0";
        return b + fmt::format(" {} 0 0 0", gained);
      };
      const std::string busy = block(busy_lb, 0, 0), idle = block(0, 0, 0);
      out += v == 15 ? idle + busy : busy + idle;
      out += block(nl, nf, ng);
      out += " 0 0 0 0 0 0 0 0 0 0 0 0\n";
    }
  }
  write_file_in_place(root_ / "proc/schedstat", out);
}

void FakeProc::write_vmstat() const {
  write_file_in_place(root_ / "proc/vmstat",
                      fmt::format("nr_free_pages 1305491\nnuma_hit 4439243\nnuma_miss {}\n"
                                  "numa_foreign {}\nnuma_local 4439243\nnuma_other 0\n"
                                  "numa_pages_migrated {}\npgmigrate_success {}\n",
                                  numa_miss_, numa_miss_, migrated_, migrated_));
}

void FakeProc::write_pressure() const {
  std::string out = fmt::format("some avg10=0.00 avg60=0.00 avg300=0.00 total={}\n", psi_us_);
  if (o_.pressure_full) out += "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n";
  write_file_in_place(root_ / "proc/pressure/cpu", out);
}

void FakeProc::write_loadavg() const {
  write_file_in_place(root_ / "proc/loadavg",
                      fmt::format("{:.2f} 0.10 0.05 {}/{} 4242\n", load1_, running_, 80));
}

void FakeProc::write_task(pid_t tid, const Task& t) const {
  write_file_in_place(
      root_ / "proc" / std::to_string(t.pid) / "task" / std::to_string(tid) / "schedstat",
      fmt::format("{} {} {}\n", t.run_ns, t.wait_ns, t.slices));
}

}  // namespace schedrig::sampler
