// The sampler thread against a fake tree at a high rate, and against this
// machine's /proc at 1 Hz.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "agent/sampler/fake_proc.h"
#include "agent/sampler/sampler.h"
#include "tests/support/run_command.h"

namespace schedrig::sampler {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

void expect_monotonic(const std::vector<DerivedSample>& v) {
  for (std::size_t i = 1; i < v.size(); ++i) {
    EXPECT_GT(v[i].t_ns, v[i - 1].t_ns) << "sample " << i;
  }
}

TEST(SamplerThread, BadRateIsInvalidArgument) {
  SamplerOptions o;
  o.hz = 0;
  EXPECT_THROW(Sampler(o, nullptr), std::invalid_argument);
  o.hz = 21;
  EXPECT_THROW(Sampler(o, nullptr), std::invalid_argument);
}

TEST(SamplerThread, MissingProcStatNamesIt) {
  schedrig::testing::TempDir dir;
  SamplerOptions o;
  o.root = procfs::Root::under(dir.path());
  try {
    Sampler s(o, nullptr);
    FAIL();
  } catch (const SamplerError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUnreachable);
    EXPECT_NE(std::string(e.what()).find("proc/stat"), std::string::npos) << e.what();
  }
}

TEST(SamplerThread, FakeTreeAtTwentyHertz) {
  schedrig::testing::TempDir dir;
  FakeProc fake(dir.path(), {.pus = 4, .nodes = 2});
  fake.add_task(50, 51);
  SamplerOptions o;
  o.root = procfs::Root::under(dir.path());
  o.hz = 20;
  o.pu_to_node = fake.pu_to_node();
  std::atomic<int> calls{0};
  Sampler s(o, [&](const DerivedSample&) { ++calls; });
  s.set_tasks({{50, 51}});
  s.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(620));
  const auto t0 = Clock::now();
  s.stop();
  EXPECT_LT(ms_since(t0), 200);
  const auto v = s.samples();
  EXPECT_GE(v.size(), 9u);  // boundaries every 50 ms, the first >= 25 ms after start
  EXPECT_LE(v.size(), 13u);
  EXPECT_EQ(calls.load(), static_cast<int>(v.size()));
  expect_monotonic(v);
  for (const auto& x : v) {
    EXPECT_EQ(x.busy_per_node.size(), 2u);
    EXPECT_GT(x.interval_s, 0.02);
    EXPECT_TRUE(x.newidle_lb_per_s);  // schedstat v16 present in the fake tree
  }
  // Ticks land on 50 ms boundaries of CLOCK_REALTIME (within 20 ms of wakeup).
  for (const auto& x : v) EXPECT_LT(x.t_ns % 50'000'000, 20'000'000) << x.t_ns;
  // No callback after stop().
  const int after = calls.load();
  std::this_thread::sleep_for(std::chrono::milliseconds(120));
  EXPECT_EQ(calls.load(), after);
}

TEST(SamplerThread, RealProcOneHertz) {
  SamplerOptions o;  // root "/", 1 Hz
  Sampler s(o, nullptr);
  s.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  const auto t0 = Clock::now();
  s.stop();
  EXPECT_LT(ms_since(t0), 200);
  const auto v = s.samples();
  EXPECT_GE(v.size(), 2u);
  EXPECT_LE(v.size(), 3u);
  expect_monotonic(v);
  for (const auto& x : v) {
    EXPECT_GT(x.interval_s, 0.4);
    EXPECT_LT(x.interval_s, 1.6);
    EXPECT_GE(x.idle_pct, 0);
    EXPECT_LE(x.idle_pct, 100);
    EXPECT_GE(x.runnable, 1u);  // at least the sampler itself
    EXPECT_LT(x.t_ns % 1'000'000'000, 100'000'000) << "not aligned to the second";
  }
}

TEST(SamplerThread, StopRightAfterStartIsPrompt) {
  schedrig::testing::TempDir dir;
  FakeProc fake(dir.path(), {.pus = 2});
  SamplerOptions o;
  o.root = procfs::Root::under(dir.path());
  o.hz = 1;
  Sampler s(o, nullptr);
  s.start();
  const auto t0 = Clock::now();
  s.stop();
  EXPECT_LT(ms_since(t0), 200);
  s.stop();  // idempotent
}

}  // namespace
}  // namespace schedrig::sampler
