// The sampler thread (sampler.h): one snapshot per period boundary of
// CLOCK_REALTIME, derived against the previous one, checked for the
// starvation signature, stored and handed to the callback.
#include "agent/sampler/sampler.h"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "agent/sampler/derive.h"
#include "agent/sampler/snapshot.h"
#include "agent/sampler/starvation.h"

namespace schedrig::sampler {
namespace {

constexpr int kSamplerNice = -5;

std::int64_t period_ns(double hz) {
  if (!(hz >= kMinHz && hz <= kMaxHz)) {  // also NaN; below kMinHz 1e9/hz could overflow
    throw std::invalid_argument(
        fmt::format("sample rate {} Hz is outside [{}, {}]", hz, kMinHz, kMaxHz));
  }
  return static_cast<std::int64_t>(1e9 / hz);
}

// The first period boundary at least `min_gap_ns` after `now_ns`.
std::int64_t next_boundary(std::int64_t now_ns, std::int64_t period, std::int64_t min_gap_ns) {
  std::int64_t t = (now_ns / period + 1) * period;
  while (t - now_ns < min_gap_ns) t += period;
  return t;
}

// The sampler must see a starved machine, so it asks for nice -5 on its own
// thread. Without CAP_SYS_NICE this fails with EPERM/EACCES: ignored.
void raise_priority() { ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), kSamplerNice); }

unsigned allowed_pus(const SamplerOptions& o, const Snapshot& first) {
  return static_cast<unsigned>(o.cpus.empty() ? first.stat.cpus.size() : o.cpus.size());
}

}  // namespace

struct Sampler::Impl {
  SamplerOptions options;
  Callback on_sample;
  std::int64_t period;
  SnapshotReader reader;

  mutable std::mutex mu;
  std::condition_variable wake;
  bool stopping = false;
  bool tasks_changed = false;
  std::vector<procfs::TaskId> tasks;
  std::vector<DerivedSample> samples;
  std::thread thread;

  Impl(SamplerOptions o, Callback cb)
      : options(std::move(o)),
        on_sample(std::move(cb)),
        period(period_ns(options.hz)),
        reader(options.root) {}

  // Sleeps until the CLOCK_REALTIME instant `t_ns`; false when stopped.
  bool sleep_until(std::int64_t t_ns) {
    const auto deadline = std::chrono::system_clock::time_point(
        std::chrono::duration_cast<std::chrono::system_clock::duration>(
            std::chrono::nanoseconds(t_ns)));
    std::unique_lock lock(mu);
    wake.wait_until(lock, deadline,
                    [&] { return stopping || std::chrono::system_clock::now() >= deadline; });
    return !stopping;
  }

  void update_tasks() {
    std::unique_lock lock(mu);
    if (!tasks_changed) return;
    auto copy = tasks;
    tasks_changed = false;
    lock.unlock();
    reader.watch_tasks(copy);
  }

  void deliver(DerivedSample sample) {
    {
      std::lock_guard lock(mu);
      samples.push_back(sample);
    }
    if (!on_sample) return;
    try {
      on_sample(sample);
    } catch (...) {  // a failing consumer must not kill sampling
    }
  }

  void run(Snapshot prev) {
    raise_priority();
    const DeriveContext ctx{options.cpus, options.pu_to_node};
    StarvationDetector detector(options.thresholds, allowed_pus(options, prev));
    std::int64_t tick = next_boundary(prev.real_ns, period, period / 2);
    while (sleep_until(tick)) {
      update_tasks();
      try {
        Snapshot cur = reader.take();
        DerivedSample s = derive(prev, cur, ctx);
        detector.feed(s);
        deliver(std::move(s));
        prev = std::move(cur);
      } catch (const std::exception&) {
        // A torn or unreadable /proc/stat: skip this tick, keep the baseline.
      }
      tick = next_boundary(realtime_ns(), period, 0);
    }
  }
};

Sampler::Sampler(SamplerOptions options, Callback on_sample)
    : impl_(std::make_unique<Impl>(std::move(options), std::move(on_sample))) {}

Sampler::~Sampler() { stop(); }

void Sampler::start() {
  if (impl_->thread.joinable()) return;
  impl_->update_tasks();
  Snapshot first = impl_->reader.take();
  impl_->stopping = false;
  impl_->thread = std::thread([this, s = std::move(first)]() mutable { impl_->run(std::move(s)); });
}

void Sampler::stop() {
  {
    std::lock_guard lock(impl_->mu);
    impl_->stopping = true;
  }
  impl_->wake.notify_all();
  if (impl_->thread.joinable()) impl_->thread.join();
}

void Sampler::set_tasks(std::vector<procfs::TaskId> tasks) {
  std::lock_guard lock(impl_->mu);
  impl_->tasks = std::move(tasks);
  impl_->tasks_changed = true;
}

std::vector<DerivedSample> Sampler::samples() const {
  std::lock_guard lock(impl_->mu);
  return impl_->samples;
}

}  // namespace schedrig::sampler
