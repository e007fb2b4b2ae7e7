// The faults suite (issue #13, docs/architecture.md "Wire protocol", "Spool",
// "Queue"): the built `schedrig serve` and `schedrig-agent connect` under
// faults drawn from a printed seed (SCHEDRIG_FAULT_SEED replays a draw).
// 1. serve SIGKILLed and restarted in place 20 times and the link cut 5 times
//    (tests/support/tcp_proxy.h) during a run of short sampled iterations:
//    the run ends ok with every envelope of the agent's instance stored once
//    and no seq missing, every iteration and every sample stored once.
// 2. the agent SIGKILLed mid-run 5 times, 0-0.4 s after the run flipped a
//    knob in its fake root: the next agent restores the knob before its Hello and reports the
//    run failed "agent restarted; boot_id unchanged"; a last run ends ok.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "common/envelope_codec.h"
#include "tests/faults/fault_rig.h"
#include "tests/support/eventually.h"
#include "tests/support/tcp_proxy.h"

namespace schedrig::testing {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr int kIterations = 180;  // of kIterationS each: ~30 s of run, ~1 sample each
constexpr double kIterationS = 0.15;
constexpr int kServeKills = 20;
constexpr int kCuts = 5;
constexpr int kAgentKills = 5;

void progress(const std::string& line) {
  std::printf("faults: %s\n", line.c_str());
  std::fflush(stdout);
}

// One serve incarnation's fate: up for `up_s` (a cut `cut_at_s` into it when
// >= 0), then SIGKILLed and left down `down_s` before the restart.
struct Fault {
  double up_s = 0, cut_at_s = -1, down_s = 0;
};

// 20 kills, up 0.2-0.8 s and down 0-1 s each (~25 s in all, inside the run), 5 of them with a cut
// at a moment of their up time; all from `rng`.
std::vector<Fault> draw_faults(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> up(0.2, 0.8), down(0, 1), at(0.1, 0.9);
  std::vector<Fault> faults(kServeKills);
  for (auto& f : faults) {
    f.up_s = up(rng);
    f.down_s = down(rng);
  }
  std::vector<int> order(kServeKills);
  for (int i = 0; i < kServeKills; ++i) order[static_cast<std::size_t>(i)] = i;
  std::shuffle(order.begin(), order.end(), rng);
  for (int i = 0; i < kCuts; ++i) {
    Fault& f = faults[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])];
    f.cut_at_s = f.up_s * at(rng);
  }
  return faults;
}

// Sleeps `s` seconds (fractions too).
void sleep_s(double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }

// 'S', so an empty status shows in a message.
std::string quoted(const std::string& s) { return "'" + s + "'"; }

// The run's status in the runs table ("" until its RunStarted is stored).
std::string run_status(const FaultRig& rig, const std::string& run) {
  return rig.store().text("SELECT status FROM runs WHERE run_id = ?1", {run});
}
// The run's queue row state ("" when it has none).
std::string queue_state(const FaultRig& rig, const std::string& run) {
  return rig.store().text("SELECT state FROM queue WHERE run_id = ?1", {run});
}
// A final status of a run or a queue row.
bool ended(const std::string& status) {
  return status == "ok" || status == "failed" || status == "aborted";
}

// Instances of box1 whose Topology is stored (the host can check a plan
// against them).
long long known_instances(const FaultRig& rig) {
  return rig.store().number("SELECT count(*) FROM instances WHERE agent_id = 'box1' AND pus > 0");
}

// Waits for `run` to end (status ok/failed/aborted, queue row too) while the
// agent lives; false when it did not within `limit`.
bool wait_for_end(FaultRig& rig, const std::string& run, std::chrono::milliseconds limit) {
  return eventually(
             [&] {
               return (ended(run_status(rig, run)) && ended(queue_state(rig, run))) ||
                      !rig.agent()->running();
             },
             limit, 200ms) &&
         rig.agent()->running();
}

// The plan of the collector test: kIterations short fork iterations,
// sampled at 10 Hz, no knob, no quiet wait, no disturbance check (other
// tests may load the box; the suite is about faults, not verdicts).
std::string sampled_plan() {
  return fmt::format(
      "name: faults-collector\niterations: {}\nduration_s: {}\nsample_hz: 10\n"
      "quiet: {{timeout_s: 0, disturbance: false}}\ncases: [{{name: forks, workload: fork, params: "
      "{{workers: 1}}}}]\n",
      kIterations, kIterationS);
}

// The plan of the agent test: 2 x 0.5 s as found, then 2 x 0.5 s with the
// (fake) autogroup sysctl at 0.
std::string knob_plan() {
  return "name: faults-agent\niterations: 2\nduration_s: 0.5\norder: blocked\nsample_hz: 0\n"
         "quiet: {timeout_s: 0}\ncases: [{name: forks, workload: fork, params: {workers: 1}}]\n"
         "variants: [{name: baseline}, {name: off, sysctl: {kernel.sched_autogroup_enabled: "
         "0}}]\n";
}

// Runs the drawn faults against serve and the proxy; stops early (false)
// when serve does not come back or the agent exited.
bool inflict(FaultRig& rig, TcpProxy& proxy, const std::vector<Fault>& faults, Clock::time_point t0,
             std::string* why) {
  int cuts = 0;
  for (std::size_t i = 0; i < faults.size(); ++i) {
    const Fault& f = faults[i];
    if (f.cut_at_s >= 0) {
      sleep_s(f.cut_at_s);
      proxy.cut();
      progress(fmt::format("cut {}/{} at {:.2f} s", ++cuts, kCuts, seconds_since(t0)));
    }
    sleep_s(f.up_s - std::max(0.0, f.cut_at_s));
    rig.kill_serve();
    progress(fmt::format("kill {}/{} at {:.2f} s (down {:.2f} s, run {})", i + 1, faults.size(),
                         seconds_since(t0), f.down_s, kIterations));
    sleep_s(f.down_s);
    if (!rig.start_serve(why)) return false;
    if (!rig.agent()->running()) {
      *why =
          fmt::format("the agent exited {} after kill {}", *rig.agent()->wait_for_exit(0ms), i + 1);
      return false;
    }
  }
  return true;
}

// The seqs in 1..max that the store lacks for `instance` (at most 20 named).
std::string missing_seqs(const FaultRig& rig, const std::string& instance, long long max) {
  const auto seqs = rig.store().column(
      "SELECT seq FROM envelopes WHERE instance_id = ?1 ORDER BY seq", {instance});
  std::string out;
  long long want = 1;
  int named = 0;
  for (const auto& s : seqs) {
    for (const long long got = std::stoll(s); want < got && named < 20; ++want, ++named)
      out += std::to_string(want) + " ";
    want = std::stoll(s) + 1;
  }
  for (; want <= max && named < 20; ++want, ++named) out += std::to_string(want) + " ";
  return out;
}

// The sum of SampleSummary.samples over the run's stored iterations: the
// samples the agent's sampler delivered to its link.
long long samples_sent(const FaultRig& rig, const std::string& run) {
  long long n = 0;
  for (const auto& blob :
       rig.store().column("SELECT sample_summary FROM iterations WHERE run_id = ?1", {run})) {
    v1::SampleSummary s;
    if (s.ParseFromString(blob)) n += s.samples();
  }
  return n;
}

// The RunFinished stored for `run` from `instance` (none: an empty one).
v1::RunFinished run_finished(const FaultRig& rig, const std::string& instance,
                             const std::string& run) {
  for (const auto& body : rig.store().column(
           "SELECT body FROM envelopes WHERE instance_id = ?1 AND kind = 'run_finished'",
           {instance})) {
    v1::Envelope env;
    if (env.ParseFromString(body) && env.run_finished().run_id() == run) return env.run_finished();
  }
  return {};
}

TEST(Faults, ServeKilledTwentyTimesAndTheLinkCutFiveTimesLosesNothing) {
  std::mt19937_64 rng(fault_seed());
  const std::vector<Fault> faults = draw_faults(rng);
  FaultRig rig;
  std::string why;
  ASSERT_TRUE(rig.start_serve(&why)) << why;
  TcpProxy proxy(rig.port());
  rig.start_agent(proxy.port());
  ASSERT_TRUE(eventually([&] { return known_instances(rig) == 1; }, 20s)) << rig.log_tails();
  const std::string run = rig.submit(sampled_plan(), &why);
  ASSERT_FALSE(run.empty()) << why;
  ASSERT_TRUE(eventually([&] { return run_status(rig, run) == "running"; }, 20s))
      << rig.log_tails();
  const auto t0 = Clock::now();
  progress(fmt::format("run {} started; {} kills, {} cuts", run, kServeKills, kCuts));
  const std::unique_ptr<ChildProcess> watch = rig.watch(run);  // follows across the restarts

  ASSERT_TRUE(inflict(rig, proxy, faults, t0, &why)) << why << "\n" << rig.log_tails();
  ASSERT_TRUE(wait_for_end(rig, run, 180s))
      << "run " << run << " is " << quoted(run_status(rig, run)) << " after the faults\n"
      << rig.log_tails();
  const std::string agent_log = rig.agent()->log();
  std::size_t live_connections = 0;
  for (std::size_t at = 0; (at = agent_log.find("] connected to ", at)) != std::string::npos; ++at)
    ++live_connections;
  progress(fmt::format("run ended {} at {:.2f} s; {} proxy connections, {} live connections",
                       run_status(rig, run), seconds_since(t0), proxy.accepted(),
                       live_connections));
  // The kills and cuts reached the agent as lost links (it redialed), not as
  // 45 s of silence (a proxy socket a child inherited once hid them all).
  // Kills within one backoff pause make one outage, and under ctest -j2 on a
  // loaded box the backoff stretches (8 of 20 seen): at least a quarter. The
  // inherited-socket bug gave one or two.
  EXPECT_GE(live_connections, static_cast<std::size_t>(kServeKills / 4)) << agent_log;

  // The follower rode over every restart: it saw the end and exited 0.
  const std::optional<int> watch_exit = watch->wait_for_exit(60s);
  EXPECT_EQ(watch_exit, std::optional<int>(0)) << watch->log();
  EXPECT_NE(watch->log().find("server is back"), std::string::npos) << watch->log();
  EXPECT_NE(watch->log().find("run " + run + " ok"), std::string::npos) << watch->log();

  const auto& db = rig.store();
  EXPECT_EQ(run_status(rig, run), "ok")
      << db.text("SELECT reason FROM runs WHERE run_id = ?1", {run});
  EXPECT_EQ(queue_state(rig, run), "ok");
  // The agent never restarted: one instance, whose every seq 1..N is stored
  // (UNIQUE (agent_id, instance_id, seq) makes "twice" impossible there).
  ASSERT_EQ(db.number("SELECT count(*) FROM instances WHERE agent_id = 'box1'"), 1);
  const std::string instance = db.text("SELECT instance_id FROM instances WHERE agent_id = 'box1'");
  const auto seq_count = [&] {
    return db.number("SELECT count(*) FROM envelopes WHERE instance_id = ?1", {instance});
  };
  const auto max_seq = [&] {
    return db.number("SELECT max(seq) FROM envelopes WHERE instance_id = ?1", {instance});
  };
  EXPECT_TRUE(eventually([&] { return seq_count() == max_seq(); }, 30s))
      << seq_count() << " envelopes, max seq " << max_seq() << "; missing "
      << missing_seqs(rig, instance, max_seq());
  EXPECT_EQ(db.number("SELECT min(seq) FROM envelopes WHERE instance_id = ?1", {instance}), 1);
  // Each iteration once: one IterationResult envelope each (the agent never
  // sent one twice under another seq) and one row each.
  EXPECT_EQ(db.number("SELECT count(*) FROM envelopes WHERE instance_id = ?1 AND kind = "
                      "'iteration_result'",
                      {instance}),
            kIterations);
  EXPECT_EQ(db.number("SELECT count(*) FROM iterations WHERE run_id = ?1 AND status = 'ok'", {run}),
            kIterations);
  EXPECT_EQ(db.number("SELECT completed_iterations FROM runs WHERE run_id = ?1", {run}),
            kIterations);
  // Every sample the sampler delivered is stored once, unless the spool
  // dropped it and RunFinished counted it (none with the default 256 MiB).
  const v1::RunFinished fin = run_finished(rig, instance, run);
  EXPECT_EQ(fin.dropped_samples(), 0u);
  const long long sent = samples_sent(rig, run);
  EXPECT_GE(sent, kIterations / 2) << "too few samples at 10 Hz: is sampling off?";
  const long long stored = db.number("SELECT count(*) FROM samples WHERE run_id = ?1", {run});
  EXPECT_EQ(stored, sent - static_cast<long long>(fin.dropped_samples()));
  EXPECT_EQ(db.number("SELECT count(*) FROM envelopes WHERE instance_id = ?1 AND kind = 'sample'",
                      {instance}),
            stored);
  if (HasFailure()) std::cerr << rig.log_tails();
}

TEST(Faults, AgentKilledMidRunFiveTimesRestoresTheKnobAndFailsTheRun) {
  std::mt19937_64 rng(fault_seed());
  std::uniform_real_distribution<double> into_off(0, 0.4);  // of the 1 s the knob is 0
  FaultRig rig;
  std::string why;
  ASSERT_TRUE(rig.start_serve(&why)) << why;
  rig.start_agent(rig.port());
  ASSERT_TRUE(eventually([&] { return known_instances(rig) == 1; }, 20s)) << rig.log_tails();
  const auto t0 = Clock::now();
  for (int k = 1; k <= kAgentKills; ++k) {
    const std::string run = rig.submit(knob_plan(), &why);
    ASSERT_FALSE(run.empty()) << why;
    ASSERT_TRUE(eventually([&] { return rig.knob() == "0"; }, 30s, 10ms))
        << "run " << run << " never flipped the knob\n"
        << rig.log_tails();
    sleep_s(into_off(rng));
    rig.kill_agent();
    progress(fmt::format("agent kill {}/{} at {:.2f} s (run {})", k, kAgentKills, seconds_since(t0),
                         run));
    ASSERT_EQ(rig.knob(), "0") << "the killed agent cannot have restored it";
    rig.start_agent(rig.port());
    // The knob is back as found once the host has the new instance's Hello
    // (the next run's first variant leaves it so for 1 s after that).
    ASSERT_TRUE(eventually([&] { return known_instances(rig) == k + 1; }, 30s)) << rig.log_tails();
    EXPECT_EQ(rig.knob(), "1") << "the new agent said Hello before it restored the knob";
    const std::string log = rig.agent()->log();
    const auto restored = log.find("restored 1 knob(s)");
    EXPECT_NE(restored, std::string::npos) << log;
    EXPECT_LT(restored, log.find("connected to")) << "restored after connecting:\n" << log;
    ASSERT_TRUE(wait_for_end(rig, run, 30s))
        << "run " << run << " is " << quoted(run_status(rig, run)) << "\n"
        << rig.log_tails();
    EXPECT_EQ(run_status(rig, run), "failed");
    EXPECT_EQ(queue_state(rig, run), "failed");
    const std::string reason = rig.store().text("SELECT reason FROM runs WHERE run_id = ?1", {run});
    EXPECT_NE(reason.find("agent restarted; boot_id unchanged"), std::string::npos) << reason;
    // The new instance reported it (contract 5 of issue #13).
    const std::string instance = rig.store().text(
        "SELECT instance_id FROM instances WHERE agent_id = 'box1' ORDER BY rowid DESC LIMIT 1");
    EXPECT_EQ(run_finished(rig, instance, run).status(), v1::STATUS_FAILED)
        << "no RunFinished for " << run << " from instance " << instance;
  }
  const std::string last = rig.submit(knob_plan(), &why);
  ASSERT_FALSE(last.empty()) << why;
  ASSERT_TRUE(wait_for_end(rig, last, 60s)) << rig.log_tails();
  EXPECT_EQ(run_status(rig, last), "ok")
      << rig.store().text("SELECT reason FROM runs WHERE run_id = ?1", {last});
  EXPECT_EQ(queue_state(rig, last), "ok");
  EXPECT_EQ(rig.knob(), "1");
  progress(fmt::format("{} agent kills, last run ok at {:.2f} s", kAgentKills, seconds_since(t0)));
  if (HasFailure()) std::cerr << rig.log_tails();
}

}  // namespace
}  // namespace schedrig::testing
