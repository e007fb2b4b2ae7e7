// fuzz_write_seeds DIR: writes the binary seeds of the envelope and offline
// targets under DIR/<target>/seed-<what> (HACKING.md "Fuzzing"), from
// fuzz/sample_session.h, so they follow the schema and the file format.
// Exit 0, or 1 naming a file it could not write.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/envelope_codec.h"
#include "common/offline_file.h"
#include "fuzz/frames.h"
#include "fuzz/sample_session.h"

namespace {

namespace fs = std::filesystem;
namespace v1 = schedrig::v1;
using schedrig::fuzz::sample_session;

void write_file(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

std::vector<std::string> encoded(const std::vector<v1::Envelope>& envs) {
  std::vector<std::string> out;
  for (const v1::Envelope& e : envs) out.push_back(e.SerializeAsString());
  return out;
}

void decode_seeds(const fs::path& dir) {
  const char* names[] = {"hello",  "topology",         "run-started",
                         "sample", "iteration-result", "run-finished"};
  const std::vector<v1::Envelope> session = sample_session();
  for (std::size_t i = 0; i < session.size(); ++i) {
    write_file(dir / (std::string("seed-") + names[i]), session[i].SerializeAsString());
  }
  v1::Envelope old = session[0];
  old.set_protocol_version(schedrig::kProtocolVersion + 1);
  write_file(dir / "seed-other-protocol-version", old.SerializeAsString());
  v1::Envelope bodiless = session[0];
  bodiless.clear_hello();
  write_file(dir / "seed-no-body", bodiless.SerializeAsString());
}

// `session` with a waiting Log and an Error of its run before RunFinished
// (seqs renumbered).
std::vector<v1::Envelope> with_log_and_error(std::vector<v1::Envelope> session) {
  v1::Envelope log = session[2];
  log.mutable_log()->set_level("warn");
  log.mutable_log()->set_message("waiting for the knob lock (held by pid 4242)");
  log.mutable_log()->set_run_id(session[2].run_started().run_id());
  log.mutable_log()->set_waiting(true);
  v1::Envelope error = session[2];
  error.mutable_error()->set_code(v1::ERROR_FACILITY_UNAVAILABLE);
  error.mutable_error()->set_message("cannot write kernel.sched_autogroup_enabled");
  error.mutable_error()->set_run_id(session[2].run_started().run_id());
  session.insert(session.begin() + 5, {log, error});
  for (std::size_t i = 0; i < session.size(); ++i) session[i].set_seq(i + 1);
  return session;
}

void ingest_seeds(const fs::path& dir) {
  using schedrig::fuzz::join_frames;
  const std::vector<v1::Envelope> session = sample_session();
  write_file(dir / "seed-session", join_frames(encoded(session)));
  std::vector<v1::Envelope> twice = session;
  twice.push_back(session[4]);  // a seq not above the last: a violation
  write_file(dir / "seed-seq-backwards", join_frames(encoded(twice)));
  std::vector<v1::Envelope> no_hello(session.begin() + 1, session.end());
  write_file(dir / "seed-no-hello", join_frames(encoded(no_hello)));
  std::vector<v1::Envelope> results_first = session;
  std::swap(results_first[2], results_first[4]);  // a result before its RunStarted
  results_first[2].set_seq(3);
  results_first[4].set_seq(5);
  write_file(dir / "seed-result-before-start", join_frames(encoded(results_first)));
  write_file(dir / "seed-log-error", join_frames(encoded(with_log_and_error(session))));
}

std::string offline_file(const std::vector<v1::Envelope>& envs) {
  std::ostringstream out;
  schedrig::write_offline_header(out);
  for (const std::string& bytes : encoded(envs)) schedrig::write_offline_record(out, bytes);
  return out.str();
}

void offline_seeds(const fs::path& dir) {
  const std::vector<v1::Envelope> session = sample_session();
  const std::string whole = offline_file(session);
  write_file(dir / "seed-run", whole);
  write_file(dir / "seed-header-only", offline_file({}));
  write_file(dir / "seed-truncated", whole.substr(0, whole.size() - 3));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
    return 2;
  }
  try {
    const fs::path root = argv[1];
    decode_seeds(root / "fuzz_envelope_decode");
    ingest_seeds(root / "fuzz_envelope_ingest");
    offline_seeds(root / "fuzz_offline_reader");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_write_seeds: %s\n", e.what());
    return 1;
  }
  return 0;
}
