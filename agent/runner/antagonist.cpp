#include "agent/runner/antagonist.h"

#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "common/cpulist.h"

namespace schedrig::runner {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kPeriod = std::chrono::milliseconds(10);

void pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (::sched_setaffinity(0, sizeof(set), &set) != 0)
    spdlog::warn("antagonist: cannot pin to PU {}; it runs unpinned", cpu);
}

// Busy for duty_pct of each period, asleep for the rest, until `stop`.
void hog(const std::atomic<bool>& stop, unsigned duty_pct) {
  const auto busy = kPeriod * duty_pct / 100;
  while (!stop.load(std::memory_order_relaxed)) {
    const auto start = Clock::now();
    while (Clock::now() - start < busy && !stop.load(std::memory_order_relaxed)) {
    }
    if (duty_pct < 100) std::this_thread::sleep_until(start + kPeriod);
  }
}

}  // namespace

Antagonist::Antagonist(const std::vector<int>& cpus, unsigned duty_pct) {
  tasks_.resize(cpus.size());
  for (std::size_t i = 0; i < cpus.size(); ++i) {
    threads_.emplace_back([this, i, cpu = cpus[i], duty_pct] {
      pin(cpu);
      tasks_[i] = {::getpid(), static_cast<pid_t>(::syscall(SYS_gettid))};
      started_.fetch_add(1, std::memory_order_release);
      hog(stop_, duty_pct);
    });
  }
  while (started_.load(std::memory_order_acquire) < static_cast<int>(cpus.size()))
    std::this_thread::yield();
}

Antagonist::~Antagonist() {
  stop_ = true;
  for (auto& t : threads_) t.join();
}

std::vector<int> antagonist_cpus(const v1::Antagonist& a, const std::vector<int>& case_cpus) {
  if (a.cpus().empty()) return case_cpus;
  std::vector<int> cpus = parse_cpulist(a.cpus());
  std::vector<int> outside;
  for (int c : cpus) {
    if (std::find(case_cpus.begin(), case_cpus.end(), c) == case_cpus.end()) outside.push_back(c);
  }
  if (!outside.empty())
    throw std::runtime_error(fmt::format("antagonist cpus {} are not among the case's PUs {}",
                                         format_cpulist(outside), format_cpulist(case_cpus)));
  return cpus;
}

workloads::WindowObserver with_antagonist(workloads::WindowObserver inner, const v1::Antagonist& a,
                                          const std::vector<int>& cpus) {
  if (a.duty_pct() == 0) return inner;
  auto hogs = std::make_shared<std::unique_ptr<Antagonist>>();
  workloads::WindowObserver out;
  out.opened = [hogs, cpus, duty = a.duty_pct(),
                opened = inner.opened](const workloads::WorkloadWindow& w) {
    *hogs = std::make_unique<Antagonist>(cpus, duty);
    if (!opened) return;
    workloads::WorkloadWindow with = w;
    with.tasks.insert(with.tasks.end(), (*hogs)->tasks().begin(), (*hogs)->tasks().end());
    opened(with);
  };
  out.closed = [hogs, closed = inner.closed] {
    hogs->reset();
    if (closed) closed();
  };
  out.tasks_changed = [hogs,
                       changed = inner.tasks_changed](const std::vector<procfs::TaskId>& tasks) {
    if (!changed) return;
    std::vector<procfs::TaskId> with = tasks;
    if (*hogs) with.insert(with.end(), (*hogs)->tasks().begin(), (*hogs)->tasks().end());
    changed(with);
  };
  return out;
}

}  // namespace schedrig::runner
