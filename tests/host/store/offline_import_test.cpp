// Importing offline files (host/store/offline_import.h): every truncation and
// every single-bit flip of a small version 2 file either imports a correct
// prefix of it (the same stored rows as the clean import of that prefix) or
// is refused naming the record; version 1 files still import; a run with no
// RunFinished is stored `incomplete`, and a later RunFinished still wins.
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/envelope_codec.h"
#include "common/offline_file.h"
#include "host/report/results_json.h"
#include "host/store/offline_import.h"
#include "host/store/store.h"
#include "tests/host/store/sample_run.h"

namespace schedrig::store {
namespace {

constexpr const char* kRun = "run-1";

// One envelope of agent "box", with short ids: the file stays small, so
// every one of its bit flips can be imported on its own.
v1::Envelope envelope(unsigned long long seq) {
  v1::Envelope env = testing::make_envelope(seq, "i-1", "box");
  env.set_boot_id("b-1");
  return env;
}

v1::Envelope result(unsigned long long seq, unsigned position, double ops_per_s) {
  v1::Envelope env = envelope(seq);
  v1::IterationResult* it = env.mutable_iteration_result();
  it->set_run_id(kRun);
  it->set_case_name("fork");
  it->set_variant("base");
  it->set_iteration(position + 1);
  it->set_position(position);
  it->set_status(v1::STATUS_OK);
  v1::Metric* m = it->add_metrics();
  m->set_name("ops_per_s");
  m->set_value(ops_per_s);
  m->set_unit("ops/s");
  return env;
}

// Hello, RunStarted, a Sample, two IterationResults, RunFinished.
std::vector<v1::Envelope> small_run() {
  std::vector<v1::Envelope> envs;
  envs.push_back(envelope(1));
  envs.back().mutable_hello()->set_hostname("box.lab");
  envs.push_back(envelope(2));
  envs.back().mutable_run_started()->set_run_id(kRun);
  envs.back().mutable_run_started()->set_planned_iterations(2);
  envs.push_back(envelope(3));
  v1::Sample* sample = envs.back().mutable_sample();
  sample->set_run_id(kRun);
  sample->set_case_name("fork");
  sample->set_variant("base");
  sample->set_iteration(1);
  sample->set_idle_pct(12.5);
  sample->set_ops_so_far(4096);
  envs.push_back(result(4, 0, 127553.25));
  envs.push_back(result(5, 1, 124467.5));
  envs.push_back(envelope(6));
  envs.back().mutable_run_finished()->set_run_id(kRun);
  envs.back().mutable_run_finished()->set_status(v1::STATUS_OK);
  envs.back().mutable_run_finished()->set_completed_iterations(2);
  return envs;
}

// The file's bytes, and where each record starts (offsets[i] for record i+1;
// offsets.back() is the file size).
struct File {
  std::string bytes;
  std::vector<std::size_t> offsets;
};

File offline_file(const std::vector<v1::Envelope>& envs) {
  File f{offline_header(), {}};
  for (const auto& env : envs) {
    f.offsets.push_back(f.bytes.size());
    f.bytes += offline_record(encode_envelope(env));
  }
  f.offsets.push_back(f.bytes.size());
  return f;
}

// Every stored value but the runs' status and reason (checked on their own).
std::string stored_rows(const Store& s) {
  nlohmann::json j = report::results_json(s.runs());
  for (auto& run : j["runs"]) {
    run.erase("status");
    run.erase("reason");
  }
  for (const SampleRecord& r : s.samples("")) {
    j["samples"].push_back({r.run_id, r.case_name, r.variant, r.iteration, r.position, r.t_ns,
                            r.interval_s, r.ops_so_far, r.values, r.starved});
  }
  for (const AgentRecord& a : s.agents()) {
    j["agents"].push_back({a.agent_id, a.hostname, a.instance_id, a.boot_id, a.kernel_release,
                           a.allowed_pus, a.has_topology, a.topology.pus, a.topology.cores});
  }
  return j.dump();
}

// The rows of the first `n` envelopes, ingested directly.
std::string prefix_rows(const std::vector<v1::Envelope>& envs, std::size_t n) {
  Store s(":memory:");
  for (std::size_t i = 0; i < n; ++i) s.ingest(envs[i], encode_envelope(envs[i]));
  return stored_rows(s);
}

struct Imported {
  ImportReport report;
  std::string rows;
  std::string status;    // the run's stored status ("" when not stored)
  bool refused = false;  // the header was refused
  std::string error;
};

Imported import_bytes(const std::string& bytes, Store& s) {
  std::istringstream in(bytes);
  Imported out;
  try {
    out.report = import_offline(in, "run.schedrig", s);
  } catch (const OfflineFileError& e) {
    out.refused = true;
    out.error = e.what();
  }
  out.rows = stored_rows(s);
  const auto runs = s.runs(kRun);
  out.status = runs.empty() ? "" : runs[0].status;
  return out;
}

Imported import_bytes(const std::string& bytes) {
  Store s(":memory:");
  return import_bytes(bytes, s);
}

// How many whole records the first `size` bytes of `f` hold.
std::size_t whole_records(const File& f, std::size_t size) {
  std::size_t n = 0;
  while (n + 1 < f.offsets.size() && f.offsets[n + 1] <= size) ++n;
  return n;
}

// What an import that read exactly `good` whole records must have stored.
void expect_prefix(const Imported& got, const std::vector<v1::Envelope>& envs,
                   const std::vector<std::string>& prefixes, std::size_t good,
                   const std::string& what) {
  ASSERT_FALSE(got.refused) << what << ": " << got.error;
  EXPECT_EQ(got.report.stored, good) << what;
  EXPECT_EQ(got.rows, prefixes[good]) << what << ": a stored value changed";
  const bool started = good >= 2, finished = good == envs.size();
  EXPECT_EQ(got.status, finished ? "ok" : started ? "incomplete" : "") << what;
  EXPECT_EQ(got.report.incomplete_runs.size(), started && !finished ? 1u : 0u) << what;
}

class OfflineImportDamage : public ::testing::Test {
 protected:
  void SetUp() override {
    envs_ = small_run();
    file_ = offline_file(envs_);
    for (std::size_t n = 0; n <= envs_.size(); ++n) prefixes_.push_back(prefix_rows(envs_, n));
  }
  std::vector<v1::Envelope> envs_;
  File file_;
  std::vector<std::string> prefixes_;
};

TEST_F(OfflineImportDamage, CleanFileStoresEverythingOk) {
  const Imported got = import_bytes(file_.bytes);
  expect_prefix(got, envs_, prefixes_, envs_.size(), "clean");
  EXPECT_EQ(got.report.bad_record, "");
  EXPECT_EQ(got.report.version, 2);
  EXPECT_LT(file_.bytes.size(), 512u);                       // small enough to flip every bit
  EXPECT_NE(prefixes_.back(), prefixes_[envs_.size() - 1]);  // RunFinished is a stored value
  EXPECT_NE(got.rows.find("127553.25"), std::string::npos) << got.rows;
}

TEST_F(OfflineImportDamage, EveryTruncationImportsTheWholeRecordsBeforeIt) {
  for (std::size_t size = 0; size < file_.bytes.size(); ++size) {
    const std::string what = fmt::format("cut at {} of {} bytes", size, file_.bytes.size());
    const Imported got = import_bytes(file_.bytes.substr(0, size));
    if (size < kOfflineHeaderBytes) {
      EXPECT_TRUE(got.refused) << what;
      EXPECT_EQ(got.rows, prefixes_[0]) << what;
      continue;
    }
    const std::size_t good = whole_records(file_, size);
    expect_prefix(got, envs_, prefixes_, good, what);
    if (size == file_.offsets[good]) {
      EXPECT_EQ(got.report.bad_record, "") << what;  // a cut between records reads as the end
    } else {
      EXPECT_EQ(got.report.bad_record,
                fmt::format("record {} at byte {}: truncated record (the file ends inside it)",
                            good + 1, file_.offsets[good]))
          << what;
    }
  }
}

TEST_F(OfflineImportDamage, EveryBitFlipIsRefusedAtItsRecord) {
  for (std::size_t byte = 0; byte < file_.bytes.size(); ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string bytes = file_.bytes;
      bytes[byte] = static_cast<char>(bytes[byte] ^ (1 << bit));
      const std::string what = fmt::format("bit {} of byte {}", bit, byte);
      const Imported got = import_bytes(bytes);
      if (byte < kOfflineHeaderBytes) {
        EXPECT_TRUE(got.refused) << what;
        EXPECT_EQ(got.rows, prefixes_[0]) << what;
        continue;
      }
      const std::size_t record = whole_records(file_, byte);  // 0-based record holding `byte`
      expect_prefix(got, envs_, prefixes_, record, what);
      const std::string at =
          fmt::format("record {} at byte {}: ", record + 1, file_.offsets[record]);
      EXPECT_EQ(got.report.bad_record.rfind(at, 0), 0u) << what << ": " << got.report.bad_record;
    }
  }
}

TEST(OfflineImport, VersionOneFileStillImports) {
  const std::vector<v1::Envelope> envs = small_run();
  std::ostringstream out;
  write_offline_header(out, kOfflineVarintVersion);
  for (const auto& env : envs) {
    const std::string bytes = encode_envelope(env);
    write_varint(out, bytes.size());
    out << bytes;
  }
  const Imported got = import_bytes(out.str());
  EXPECT_EQ(got.report.version, 1);
  EXPECT_EQ(got.report.stored, envs.size());
  EXPECT_EQ(got.report.bad_record, "");
  EXPECT_EQ(got.status, "ok");
  EXPECT_EQ(got.rows, prefix_rows(envs, envs.size()));
}

TEST(OfflineImport, RunWithoutRunFinishedIsIncompleteUntilOneArrives) {
  const std::vector<v1::Envelope> envs = small_run();
  const File f = offline_file(envs);
  Store s(":memory:");
  const Imported cut = import_bytes(f.bytes.substr(0, f.offsets[envs.size() - 1]), s);
  EXPECT_EQ(cut.status, "incomplete");
  ASSERT_EQ(cut.report.incomplete_runs, std::vector<std::string>{kRun});
  EXPECT_EQ(s.runs(kRun)[0].reason, "no RunFinished: run.schedrig ends before it");

  const Imported again = import_bytes(f.bytes.substr(0, f.offsets[envs.size() - 1]), s);
  EXPECT_EQ(again.report.stored, 0u);
  EXPECT_EQ(again.report.duplicates, envs.size() - 1);
  EXPECT_EQ(again.report.incomplete_runs, std::vector<std::string>{kRun});  // still says so

  const Imported whole = import_bytes(f.bytes, s);  // the whole file: RunFinished wins
  EXPECT_EQ(whole.report.stored, 1u);
  EXPECT_EQ(whole.status, "ok");
  EXPECT_TRUE(whole.report.incomplete_runs.empty());
  EXPECT_EQ(s.runs(kRun)[0].reason, "");
}

TEST(OfflineImport, DamagedRunNamesTheRecordInItsReason) {
  const std::vector<v1::Envelope> envs = small_run();
  File f = offline_file(envs);
  f.bytes[f.offsets[4] + 9] ^= 0x10;  // inside record 5's payload (the second result)
  Store s(":memory:");
  const Imported got = import_bytes(f.bytes, s);
  EXPECT_EQ(got.status, "incomplete");
  EXPECT_EQ(got.report.stored, 4u);
  EXPECT_EQ(s.runs(kRun)[0].reason,
            fmt::format("no RunFinished: run.schedrig is damaged at record 5 at byte {}: bad "
                        "CRC-32C over the record's {} bytes (it is damaged)",
                        f.offsets[4], f.offsets[5] - f.offsets[4] - 8));
}

TEST(OfflineImport, FinishedRunIsNotMadeIncompleteByAShorterCopy) {
  const std::vector<v1::Envelope> envs = small_run();
  const File f = offline_file(envs);
  Store s(":memory:");
  EXPECT_EQ(import_bytes(f.bytes, s).status, "ok");
  const Imported cut = import_bytes(f.bytes.substr(0, f.offsets[3]), s);
  EXPECT_EQ(cut.status, "ok");
  EXPECT_TRUE(cut.report.incomplete_runs.empty());
}

TEST(OfflineImport, UndecodableRecordIsNamed) {
  File f = offline_file(small_run());
  std::string bytes = f.bytes.substr(0, f.offsets[2]) + offline_record("\xff\xff\xff");
  const Imported got = import_bytes(bytes);
  EXPECT_EQ(got.report.stored, 2u);
  EXPECT_EQ(
      got.report.bad_record.rfind(fmt::format("record 3 at byte {}: undecodable", f.offsets[2]), 0),
      0u)
      << got.report.bad_record;
}

TEST(OfflineImport, BadHeaderStoresNothing) {
  const Imported got = import_bytes("SCHEDRIG\x03");
  EXPECT_TRUE(got.refused);
  EXPECT_EQ(got.error, "header: format version 3 is not supported (want 1 or 2)");
  EXPECT_EQ(got.status, "");
}

}  // namespace
}  // namespace schedrig::store
