#include "bench/collector_load/stage.h"

#include <unistd.h>

#include <stdexcept>

#include <sqlite3.h>

namespace schedrig::bench {

namespace {

constexpr std::chrono::seconds kServeStart{20};

// SELECT count(*) FROM envelopes of `db`, opened read-only.
std::int64_t count_envelopes(const std::string& db) {
  sqlite3* h = nullptr;
  if (sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    const std::string why = h ? sqlite3_errmsg(h) : "out of memory";
    sqlite3_close(h);
    throw std::runtime_error("open " + db + ": " + why);
  }
  sqlite3_stmt* st = nullptr;
  std::int64_t n = -1;
  if (sqlite3_prepare_v2(h, "SELECT count(*) FROM envelopes", -1, &st, nullptr) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW) {
    n = sqlite3_column_int64(st, 0);
  }
  const std::string why = sqlite3_errmsg(h);
  sqlite3_finalize(st);
  sqlite3_close(h);
  if (n < 0) throw std::runtime_error("count envelopes in " + db + ": " + why);
  return n;
}

}  // namespace

Stage::Stage(const BenchDir& dir, const Options& options, const std::string& name,
             std::size_t agents, bool queue_runs)
    : dir_(dir), db_(dir.file(name + ".db")), specs_(dir.make_store(db_, agents, queue_runs)) {
  ServeConfig c;
  c.schedrig = options.schedrig;
  c.db = db_;
  c.tokens = dir.tokens_file();
  c.tls_cert = dir.pki().server_cert;
  c.tls_key = dir.pki().server_key;
  c.log = dir.file(name + ".log");
  serve_ = std::make_unique<ServeProcess>(c, kServeStart);
}

std::int64_t Stage::stop_and_count() {
  serve_->stop();
  return count_envelopes(db_);
}

CpuWindow::CpuWindow(pid_t serve)
    : serve_(serve),
      t0_(std::chrono::steady_clock::now()),
      serve0_(process_cpu_s(serve)),
      bench0_(process_cpu_s(::getpid())),
      threads0_(thread_cpu_of(serve)) {}

void CpuWindow::stop() {
  wall_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  serve_s_ = process_cpu_s(serve_) - serve0_;
  bench_s_ = process_cpu_s(::getpid()) - bench0_;
  threads_ = thread_cpu_delta(threads0_, thread_cpu_of(serve_));
}

CpuUse CpuWindow::use() const {
  return {wall_s_, serve_s_ / wall_s_, bench_s_ / wall_s_, threads_, load_average_1m()};
}

}  // namespace schedrig::bench
