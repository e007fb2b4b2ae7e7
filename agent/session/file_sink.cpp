#include "agent/session/file_sink.h"

#include <fmt/format.h>

#include "common/envelope_codec.h"
#include "common/offline_file.h"
#include "common/printable.h"
#include "common/progress_line.h"

namespace schedrig::agent {

FileSink::FileSink(const std::string& path, AgentIdentity id, std::ostream& progress)
    : path_(path), stamper_(std::move(id)), progress_(progress) {
  if (path_.empty()) return;
  out_ = std::make_unique<PendingFile>(path_);
  out_->write(offline_header());
}

void FileSink::write(schedrig::v1::Envelope env) {
  std::lock_guard lock(mu_);
  stamper_.stamp(env);
  if (out_) out_->write(offline_record(encode_envelope(env)));
}

void FileSink::run_started(const schedrig::v1::RunStarted& msg) {
  planned_ = msg.planned_iterations();
  progress_ << fmt::format("run {} starts: plan '{}', {} iterations{}\n", printable(msg.run_id()),
                           printable(msg.plan().name()), planned_,
                           path_.empty() ? "" : ", envelopes to " + path_)
            << std::flush;
  schedrig::v1::Envelope env;
  *env.mutable_run_started() = msg;
  write(std::move(env));
  std::lock_guard lock(mu_);
  if (out_) out_->commit();
}

void FileSink::iteration_done(const schedrig::v1::IterationResult& msg) {
  progress_ << progress_line(++done_, planned_, msg) << "\n" << std::flush;
  schedrig::v1::Envelope env;
  *env.mutable_iteration_result() = msg;
  write(std::move(env));
}

void FileSink::run_finished(const schedrig::v1::RunFinished& msg) {
  schedrig::v1::Envelope env;
  *env.mutable_run_finished() = msg;
  write(std::move(env));
}

void FileSink::log(const schedrig::v1::Log& msg) {
  progress_ << fmt::format("run {}: {}\n", printable(msg.run_id()), printable(msg.message()))
            << std::flush;
  schedrig::v1::Envelope env;
  *env.mutable_log() = msg;
  write(std::move(env));
}

void FileSink::sample(const schedrig::v1::Sample& msg) {
  schedrig::v1::Envelope env;
  *env.mutable_sample() = msg;
  write(std::move(env));
}

}  // namespace schedrig::agent
