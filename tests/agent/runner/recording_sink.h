// A RunSink for runner tests: records what the runner reports, in order.
// Samples arrive on the sampler's thread, so they are kept under a mutex.
#pragma once

#include <mutex>
#include <vector>

#include "agent/runner/runner.h"

namespace schedrig::runner::testing {

class RecordingSink : public RunSink {
 public:
  void run_started(const v1::RunStarted& m) override { started.push_back(m); }
  void iteration_done(const v1::IterationResult& m) override { results.push_back(m); }
  void run_finished(const v1::RunFinished& m) override { finished.push_back(m); }
  void sample(const v1::Sample& m) override {
    std::lock_guard lock(mu);
    samples.push_back(m);
  }
  void log(const v1::Log& m) override { logs.push_back(m); }
  std::vector<v1::RunStarted> started;
  std::vector<v1::Log> logs;
  std::vector<v1::IterationResult> results;
  std::vector<v1::RunFinished> finished;
  std::mutex mu;
  std::vector<v1::Sample> samples;
};

}  // namespace schedrig::runner::testing
