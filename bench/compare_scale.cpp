// compare_scale: `schedrig compare` over 100 000 stored iterations.
//
// Stores one synthetic run per shape in a fresh SQLite file (ingest is
// setup, timed but not part of the figure), then times what `schedrig
// compare RUN` does: Store::runs() (read the run back), compare_variants()
// (every statistic for every case, variant and metric) and the console
// table. Target (issue 7): under 1 s for 100k iterations (the median wall
// time decides; process CPU time is printed beside it, since a shared box
// stretches wall time).
//
//   cmake --preset bench && cmake --build build-bench --target compare_scale
//   build-bench/bin/compare_scale [--dir DIR] [--repeat N] [--shape wide|plan|deep] [--keep 1]
//
// Shapes (cases x variants x iterations, two metrics per iteration):
//   wide   100 x 10 x 100   many small series (normal-approximation ranks)
//   plan    10 x  4 x 2500  long series (Hodges-Lehmann by bisection, Sen slope of block medians)
//   deep     1 x  2 x 50000 two huge series
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/envelope_codec.h"
#include "host/compare/compare_table.h"
#include "host/report/compare_text.h"
#include "host/store/store.h"
#include "schedrig/v1/envelope.pb.h"

namespace {

namespace v1 = schedrig::v1;
using Clock = std::chrono::steady_clock;

struct Shape {
  const char* name;
  unsigned cases, variants, iterations;
};

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// splitmix64: the same numbers on every build.
struct Rng {
  std::uint64_t s;
  double uniform() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<double>((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
  }
  double normal() {  // Box-Muller
    const double u = std::max(uniform(), 1e-300), v = uniform();
    return std::sqrt(-2 * std::log(u)) * std::cos(6.283185307179586 * v);
  }
};

v1::Envelope envelope(unsigned long long seq) {
  v1::Envelope env;
  env.set_protocol_version(schedrig::kProtocolVersion);
  env.set_agent_id("bench-01");
  env.set_boot_id("7d1c6a2e-0000-4000-8000-000000000001");
  env.set_instance_id("0b5e8f2a-1c2d-4e3f-8a9b-0c1d2e3f4a5b");
  env.set_seq(seq);
  env.set_sent_at_ns(1767225600LL * 1000000000LL + static_cast<long long>(seq));
  return env;
}

// Ingests the run; returns its run_id.
std::string store_run(schedrig::store::Store& store, const Shape& shape) {
  const std::string run_id = fmt::format("bench{:03}-0000-4000-8000-000000000000", shape.cases);
  unsigned long long seq = 0;
  Rng rng{42};
  auto put = [&](const v1::Envelope& env) { store.ingest(env, schedrig::encode_envelope(env)); };
  v1::Envelope hello = envelope(++seq);
  hello.mutable_hello()->set_hostname("bench-01");
  hello.mutable_hello()->set_kernel_release("6.19.0-bench");
  put(hello);
  v1::Envelope started = envelope(++seq);
  v1::RunStarted* rs = started.mutable_run_started();
  rs->set_run_id(run_id);
  v1::Plan* plan = rs->mutable_plan();
  plan->set_name(shape.name);
  plan->set_iterations(shape.iterations);
  for (unsigned c = 0; c < shape.cases; ++c) {
    v1::Case* pc = plan->add_cases();
    pc->set_name(fmt::format("case-{:03}", c));
    pc->set_workload("fork");
  }
  for (unsigned v = 0; v < shape.variants; ++v) {
    plan->add_variants()->set_name(v == 0 ? std::string("baseline") : fmt::format("variant-{}", v));
  }
  rs->mutable_fingerprint()->set_kernel_release("6.19.0-bench");
  rs->set_planned_iterations(shape.cases * shape.variants * shape.iterations);
  put(started);
  unsigned position = 0;
  for (unsigned i = 1; i <= shape.iterations; ++i) {
    for (unsigned c = 0; c < shape.cases; ++c) {
      for (unsigned v = 0; v < shape.variants; ++v) {
        v1::Envelope env = envelope(++seq);
        v1::IterationResult* it = env.mutable_iteration_result();
        it->set_run_id(run_id);
        it->set_case_name(plan->cases(static_cast<int>(c)).name());
        it->set_variant(plan->variants(static_cast<int>(v)).name());
        it->set_iteration(i);
        it->set_position(position++);
        it->set_status(v1::STATUS_OK);
        // Variant v is v% faster, 2% noise; every third variant flips
        // between two levels so the mode analysis has work to do.
        double level = 10000 * (1 + 0.01 * v);
        if (v % 3 == 2 && (i / 7) % 3 == 0) level *= 0.7;
        const double ops = level * (1 + 0.02 * rng.normal());
        v1::Metric* m = it->add_metrics();
        m->set_name("ops_per_s");
        m->set_value(ops);
        m->set_unit("ops/s");
        m->set_direction(v1::HIGHER_IS_BETTER);
        v1::Metric* lat = it->add_metrics();
        lat->set_name("wakeup_p99_us");
        lat->set_value(1e6 / ops);
        lat->set_unit("us");
        lat->set_direction(v1::LOWER_IS_BETTER);
        put(env);
      }
    }
  }
  v1::Envelope finished = envelope(++seq);
  finished.mutable_run_finished()->set_run_id(run_id);
  finished.mutable_run_finished()->set_status(v1::STATUS_OK);
  put(finished);
  return run_id;
}

}  // namespace

int main(int argc, char** argv) {
  // tmpfs by default: ingest commits once per envelope, and fsync on a disk
  // makes the setup take minutes; the timed part only reads.
  std::string dir = std::filesystem::is_directory("/dev/shm")
                        ? "/dev/shm"
                        : std::filesystem::temp_directory_path().string();
  int repeat = 5;
  std::string only;
  bool keep = false;  // --keep 1: leave the .db files (to profile Store::runs on them)
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--dir") dir = argv[i + 1];
    if (flag == "--repeat") repeat = std::max(1, std::atoi(argv[i + 1]));
    if (flag == "--shape") only = argv[i + 1];
    if (flag == "--keep") keep = std::string(argv[i + 1]) == "1";
  }
  const Shape shapes[] = {{"wide", 100, 10, 100}, {"plan", 10, 4, 2500}, {"deep", 1, 2, 50000}};
  bool all_fast = true;
  fmt::print(
      "compare_scale: {} repeats, best and median of each; target < 1 s per 100k "
      "iterations (load + compare + table)\n",
      repeat);
  for (const Shape& shape : shapes) {
    if (!only.empty() && only != shape.name) continue;
    const std::string path = fmt::format("{}/compare_scale_{}_{}.db", dir, shape.name, ::getpid());
    std::filesystem::remove(path);
    const auto t0 = Clock::now();
    std::string run_id;
    {
      schedrig::store::Store store(path);
      run_id = store_run(store, shape);
    }
    const double ingest = seconds(Clock::now() - t0);
    std::vector<double> load, compare, table, total, cpu;
    std::size_t rows = 0, iterations = 0;
    for (int r = 0; r < repeat; ++r) {
      const std::clock_t cpu0 = std::clock();
      const auto a = Clock::now();
      schedrig::store::Store store(path);
      const auto runs = store.runs(run_id);
      const auto b = Clock::now();
      const auto t = schedrig::compare::compare_variants(runs.front());
      const auto c = Clock::now();
      std::ostringstream out;
      schedrig::report::print_compare_table(t, out);
      const auto d = Clock::now();
      load.push_back(seconds(b - a));
      compare.push_back(seconds(c - b));
      table.push_back(seconds(d - c));
      total.push_back(seconds(d - a));
      cpu.push_back(static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC);
      rows = t.rows.size();
      iterations = runs.front().iterations.size();
    }
    auto best = [](std::vector<double> v) { return *std::min_element(v.begin(), v.end()); };
    auto med = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    const bool fast = med(total) < 1.0;
    all_fast = all_fast && fast;
    fmt::print(
        "{:5} {:>3} cases x {:>2} variants x {:>5} iterations = {} stored iterations, {} rows\n"
        "      ingest (setup) {:.2f} s | load {:.3f} s (median {:.3f}) | compare {:.3f} s "
        "(median {:.3f}) | table {:.3f} s | total {:.3f} s (median {:.3f}), CPU {:.3f} s "
        "(median {:.3f}) {}\n",
        shape.name, shape.cases, shape.variants, shape.iterations, iterations, rows, ingest,
        best(load), med(load), best(compare), med(compare), best(table), best(total), med(total),
        best(cpu), med(cpu), fast ? "< 1 s" : "OVER 1 s");
    if (keep) {
      fmt::print("      kept {}\n", path);
      continue;
    }
    std::filesystem::remove(path);
    std::filesystem::remove(path + "-wal");
    std::filesystem::remove(path + "-shm");
  }
  return all_fast ? 0 : 1;
}
