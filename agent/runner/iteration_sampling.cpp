#include "agent/runner/iteration_sampling.h"

#include <unistd.h>

#include <mutex>

#include <spdlog/spdlog.h>

#include "agent/runner/runner.h"
#include "agent/runner/sample_proto.h"

namespace schedrig::runner {

// What the sampler thread and the workload's hooks share.
struct IterationSampling::State {
  schedrig::v1::IterationResult identity;
  RunSink* sink = nullptr;
  std::mutex mu;
  std::function<std::uint64_t()> ops_so_far;  // set while the window is open
  std::uint64_t last_ops = 0;                 // kept once it closes

  // The counter now, or its last value once the window closed.
  std::uint64_t ops() {
    std::lock_guard lock(mu);
    return refresh_locked();
  }

  // The window closed: keep its final count, never call into it again.
  void close() {
    std::lock_guard lock(mu);
    refresh_locked();
    ops_so_far = nullptr;
  }

  std::uint64_t refresh_locked() {
    if (ops_so_far) last_ops = ops_so_far();
    return last_ops;
  }

  void deliver(const sampler::DerivedSample& s) {
    v1::Sample msg = to_proto(s);
    msg.set_run_id(identity.run_id());
    msg.set_case_name(identity.case_name());
    msg.set_variant(identity.variant());
    msg.set_iteration(identity.iteration());
    msg.set_position(identity.position());
    msg.set_ops_so_far(ops());
    try {
      sink->sample(msg);
    } catch (const std::exception& e) {  // a closed link, a full disk: the run goes on
      spdlog::warn("sample at {} not delivered: {}", s.t_ns, e.what());
    }
  }
};

IterationSampling::IterationSampling(const SamplingConfig& config, const std::vector<int>& cpus,
                                     const v1::IterationResult& identity, RunSink& sink)
    : state_(std::make_shared<State>()), root_(config.root), pus_(cpus.size()) {
  state_->identity = identity;
  state_->sink = &sink;
  if (config.hz <= 0) return;
  sampler::SamplerOptions options;
  options.root = config.root;
  options.hz = config.hz;
  options.cpus = cpus;
  options.pu_to_node = config.pu_to_node;
  options.thresholds = config.thresholds;
  try {
    sampler_ = std::make_unique<sampler::Sampler>(
        options, [state = state_](const sampler::DerivedSample& s) { state->deliver(s); });
  } catch (const std::exception& e) {
    sampling_off(e);
  }
}

void IterationSampling::sampling_off(const std::exception& e) {
  static std::once_flag said;
  std::call_once(said, [&] {
    spdlog::warn("sampling off (/proc under {}): {}", root_.dir().string(), e.what());
  });
  sampler_.reset();
}

IterationSampling::~IterationSampling() {
  if (sampler_) sampler_->stop();
}

workloads::WindowObserver IterationSampling::observer() {
  return {[this](const workloads::WorkloadWindow& w) {
            if (sampler_) {
              sampler_->set_tasks(w.tasks);
            }
            std::lock_guard lock(state_->mu);
            state_->ops_so_far = w.ops_so_far;
          },
          [this] {
            state_->close();
            // The measured window is over: no sample after it (a slow
            // teardown, such as under a sanitizer, would add some).
            if (sampler_) sampler_->stop();
          },
          [this](const std::vector<procfs::TaskId>& tasks) {
            if (sampler_) sampler_->set_tasks(tasks);
          }};
}

void IterationSampling::start() {
  if (!sampler_) return;
  scan_before_ = sampler::scan_processes(root_);
  scanned_before_ = std::chrono::steady_clock::now();
  try {
    sampler_->start();  // the first snapshot: a /proc/stat it cannot parse throws
  } catch (const std::exception& e) {
    sampling_off(e);
  }
}

v1::SampleSummary IterationSampling::finish() {
  if (!sampler_) return {};
  sampler_->stop();
  if (scan_after_.empty()) {
    scan_after_ = sampler::scan_processes(root_);
    scanned_after_ = std::chrono::steady_clock::now();
  }
  return to_proto(sampler::summarize(sampler_->samples()));
}

sampler::WindowLoad IterationSampling::window_load() const {
  if (!sampler_) return {};
  sampler::WindowLoad load = sampler::window_load(sampler_->samples());
  if (scan_before_.empty() || scan_after_.empty()) return load;
  const std::chrono::duration<double> window = scanned_after_ - scanned_before_;
  sampler::apply_process_scan(
      load, sampler::other_processes_cpu_ns(scan_before_, scan_after_, ::getpid()), window.count(),
      pus_);
  return load;
}

}  // namespace schedrig::runner
