#include "tests/agent/spool/spool_envelopes.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numeric>

#include "common/envelope_codec.h"

namespace schedrig::spool::testing {
namespace {

v1::Envelope stamped(const std::string& instance, std::uint64_t seq) {
  v1::Envelope env;
  env.set_protocol_version(kProtocolVersion);
  env.set_agent_id("box1");
  env.set_boot_id("b007b007-0000-4000-8000-000000000000");
  env.set_instance_id(instance);
  env.set_seq(seq);
  env.set_sent_at_ns(1'700'000'000'000'000'000 + static_cast<std::int64_t>(seq));
  return env;
}

}  // namespace

v1::Envelope hello(const std::string& instance, std::uint64_t seq) {
  v1::Envelope env = stamped(instance, seq);
  env.mutable_hello()->set_hostname("box1");
  env.mutable_hello()->set_kernel_release("6.8.0-test");
  return env;
}

v1::Envelope sample(const std::string& instance, std::uint64_t seq, const std::string& run_id) {
  v1::Envelope env = stamped(instance, seq);
  v1::Sample* s = env.mutable_sample();
  s->set_run_id(run_id);
  s->set_case_name("fork");
  s->set_variant("base");
  s->set_ops_so_far(seq * 1000);
  s->set_idle_pct(12.5);
  s->set_ctxt_per_s(4e5);
  return env;
}

v1::Envelope result(const std::string& instance, std::uint64_t seq, std::size_t pad) {
  v1::Envelope env = stamped(instance, seq);
  v1::IterationResult* r = env.mutable_iteration_result();
  r->set_run_id(kRun);
  r->set_case_name("fork");
  r->set_variant("base");
  r->set_iteration(static_cast<std::uint32_t>(seq));
  r->set_reason(std::string(pad, 'x'));
  return env;
}

v1::Envelope run_finished(const std::string& instance, std::uint64_t seq, std::size_t pad) {
  v1::Envelope env = stamped(instance, seq);
  env.mutable_run_finished()->set_run_id(kRun);
  env.mutable_run_finished()->set_reason(std::string(pad, 'r'));
  env.mutable_run_finished()->set_completed_iterations(7);
  return env;
}

std::vector<std::uint64_t> seqs(const std::vector<v1::Envelope>& envelopes) {
  std::vector<std::uint64_t> out;
  for (const v1::Envelope& env : envelopes) out.push_back(env.seq());
  return out;
}

std::vector<std::uint64_t> seq_range(std::uint64_t from, std::uint64_t to) {
  std::vector<std::uint64_t> out(to - from + 1);
  std::iota(out.begin(), out.end(), from);
  return out;
}

std::vector<std::string> segment_files(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.starts_with("seg-") && name.ends_with(".spool")) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace schedrig::spool::testing
