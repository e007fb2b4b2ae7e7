// A RunSink for `schedrig-agent run --out F`: the same envelope stream the
// link would send (Hello, Topology, RunStarted, Samples, IterationResults,
// the run's Logs, RunFinished; stamped with ids and seq), written as an offline file
// (common/offline_file.h) with write(2) per envelope, so a crash keeps every
// finished iteration. The file is a PendingFile (pending_file.h): it replaces
// F only once RunStarted is written, so a rejected plan leaves F as it was.
// Also prints a progress line per iteration.
#pragma once

#include <memory>
#include <mutex>
#include <ostream>
#include <string>

#include "agent/runner/runner.h"
#include "agent/session/pending_file.h"
#include "common/envelope_stamp.h"

namespace schedrig::agent {

class FileSink : public runner::RunSink {
 public:
  // Opens the temporary file for `path` ("" = no file, progress only) and
  // writes the header. Throws std::runtime_error naming the path and errno.
  FileSink(const std::string& path, AgentIdentity id, std::ostream& progress);
  // Writes one envelope (stamped here). Thread-safe (samples come from the
  // sampler's thread). Throws std::runtime_error naming the file and errno.
  void write(schedrig::v1::Envelope env);
  // Writes RunStarted, then renames the file over `path`.
  void run_started(const schedrig::v1::RunStarted& msg) override;
  void iteration_done(const schedrig::v1::IterationResult& msg) override;
  void run_finished(const schedrig::v1::RunFinished& msg) override;
  void sample(const schedrig::v1::Sample& msg) override;
  // Written, and printed as a progress line ("run R: MESSAGE").
  void log(const schedrig::v1::Log& msg) override;

 private:
  std::mutex mu_;  // serializes write()
  std::string path_;
  std::unique_ptr<PendingFile> out_;  // null without a path
  EnvelopeStamper stamper_;
  std::ostream& progress_;
  std::size_t planned_ = 0;
  std::size_t done_ = 0;
};

}  // namespace schedrig::agent
