// A night simulated on this box (issue 17, docs/nightly.md): `schedrig
// serve` over TLS, agents on fake roots whose kernels boot with the test
// hook, each kept running by a supervisor that restarts it when it exits
// (systemd's Restart=always after a reboot), and `schedrig nightly` driving
// them through the server. Each agent is pinned to its own PU (taskset), so
// one box's antagonist does not slow the other.
#include <atomic>
#include <filesystem>
#include <mutex>
#include <regex>
#include <sstream>

#include "tests/e2e/control_plane_fixture.h"

namespace schedrig {
namespace {

using namespace e2e;  // the fixture and its helpers

// One agent process, started again whenever it exits, until destroyed.
// `before_restart` runs between an exit and the next start (a test's
// chance to play a bootloader that picked another kernel).
class Supervisor {
 public:
  Supervisor(std::vector<std::string> argv, std::string log, bool restart,
             std::function<void()> before_restart = {})
      : argv_(std::move(argv)),
        log_(std::move(log)),
        restart_(restart),
        before_restart_(std::move(before_restart)),
        thread_([this] { loop(); }) {}
  ~Supervisor() {
    stop_ = true;
    thread_.join();
  }
  int exits() const { return exits_.load(); }
  std::string log() const { return read_file(log_); }

 private:
  void loop() {
    while (!stop_) {
      ChildProcess child(argv_, log_);
      while (!stop_ && !child.wait_for_exit(100ms)) {
      }
      if (stop_) return;  // ~ChildProcess stops it
      ++exits_;
      if (!restart_) {
        while (!stop_) std::this_thread::sleep_for(100ms);
        return;
      }
      if (before_restart_) before_restart_();
    }
  }

  std::vector<std::string> argv_;
  std::string log_;
  bool restart_;
  std::function<void()> before_restart_;
  std::atomic<bool> stop_{false};
  std::atomic<int> exits_{0};
  std::thread thread_;
};

// 5 iterations of 0.5 s: each boot's median steady enough on a shared box.
constexpr const char* kPlan = R"(name: night-wakeup
iterations: 5
duration_s: 0.5
warmup_s: 0
cooldown_s: 0
sample_hz: 0
quiet: {timeout_s: 0, disturbance: false}
cases: [{name: w, workload: wakeup, params: {message_threads: 1, workers_per_message: 2}}]
variants: [{name: base}]
)";

// The selftest: the same case beside an antagonist of 90% (or, to make the
// detector fail, of 1%: too little to see). 10 short iterations a side:
// Mann-Whitney still calls a 40% drop when a few of them overlap (5 a side
// need all but one apart, which this shared box does not always give).
std::string selftest_plan(bool with_antagonist) {
  return fmt::format(R"(name: selftest
iterations: 10
duration_s: 0.3
warmup_s: 0
cooldown_s: 0
sample_hz: 0
quiet: {{timeout_s: 0, disturbance: false}}
cases: [{{name: w, workload: wakeup, params: {{message_threads: 1, workers_per_message: 2}}}}]
variants:
  - name: as-found
  - name: antagonist
    antagonist: {{duty_pct: {}}}
)",
                     with_antagonist ? 90 : 1);
}

class NightlyE2E : public ControlPlaneE2E {
 protected:
  // box on PU `cpu`, its config listing `kernels` (YAML under kernels:).
  void start_box(const std::string& id, int cpu, const std::string& kernels, bool restart = true,
                 std::function<void()> before_restart = {}) {
    std::filesystem::create_directories(agent_dir(id) + "/root/proc/sys/kernel");
    const std::string config = write_plan(id + ".yaml", "kernels:\n" + kernels);
    boxes_[id] = std::make_unique<Supervisor>(
        std::vector<std::string>{
            "/usr/bin/taskset", "-c", std::to_string(cpu), bin("schedrig-agent"), "connect",
            agent_url(), "--id", id, "--token-file", token_file(id), "--ca", pki_.ca_cert, "--root",
            agent_dir(id) + "/root", "--state-dir", agent_dir(id) + "/state", "--config", config},
        dir_.file(id + ".log"), restart, std::move(before_restart));
    EXPECT_TRUE(eventually([&] {
      const json a = agent_json(id);
      return a.value("connected", false) && a.value("pus", 0) > 0;
    })) << boxes_[id]->log();
  }

  // Writes the plan, the selftest and the lab file; the flags of a night
  // on them but --out/--resume (words split by spaces).
  std::string night_flags(const std::string& lab_yaml, bool antagonist = true) {
    write_plan("plan.yaml", kPlan);
    write_plan("selftest.yaml", selftest_plan(antagonist));
    const std::string lab = write_plan("lab.yaml", lab_yaml);
    return fmt::format("--lab {} --history {} --selftest-plan {} --poll 0.2{}", lab,
                       dir_.file("history.jsonl"), dir_.file("selftest.yaml"), server_flags());
  }

  CommandResult nightly(const std::string& lab_yaml, const std::string& extra = "",
                        bool antagonist = true) {
    return schedrig(fmt::format("nightly --out {} {} {}", dir_.file("night"),
                                night_flags(lab_yaml, antagonist), extra),
                    600);
  }

  json summary() { return json::parse(read_file(dir_.file("night/summary.json"))); }

  void TearDown() override {
    if (HasFailure())
      for (const auto& [id, b] : boxes_) std::cerr << id << " log:\n" << b->log();
    boxes_.clear();
    ControlPlaneE2E::TearDown();
  }

  std::map<std::string, std::unique_ptr<Supervisor>> boxes_;
};

constexpr const char* kKernels =
    "  fake-a: {release: 6.1.0-fake-a, test: {}}\n"
    "  fake-b: {release: 6.1.0-fake-b, test: {}}\n";
// On box1, fake-b is a slower kernel: an antagonist beside every workload.
constexpr const char* kSlowB =
    "  fake-a: {release: 6.1.0-fake-a, test: {}}\n"
    "  fake-b: {release: 6.1.0-fake-b, test: {antagonist: {duty_pct: 90}}}\n";

// 2 agents x 2 kernels x 3 boots (3: with 2 boots a side the boot-level
// test needs the boots to agree closely, which this shared box does not
// promise; a 30% gate: boot-to-boot noise on this shared box reached 32%
// under load, box1's slow kernel drops 40-52%): the boots interleave A B A B A B on each
// box, box1's fake-b is a gated regression (exit 1), box2's is not, and the selftest found its
// antagonist in every boot.
TEST_F(NightlyE2E, TwoAgentsTwoKernelsThreeBootsFindBox1sSlowKernel) {
  start_box("box1", 0, kSlowB);
  start_box("box2", 1, kKernels);
  const CommandResult r = nightly(
      "agents: [box1, box2]\nkernels: [fake-a, fake-b]\nplans: [plan.yaml]\n"
      "boots_per_kernel: 3\ngates: {threshold_pct: 30}\n");
  std::cout << r.output;
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const json s = summary();
  EXPECT_EQ(s["exit_code"], 1);
  EXPECT_FALSE(s["detector_failed"].get<bool>());
  ASSERT_EQ(s["selftests"].size(), 2u) << s.dump(2);
  for (const json& t : s["selftests"]) EXPECT_EQ(t["regressed"], 6) << t.dump();
  std::map<std::string, json> rows;
  for (const json& row : s["rows"]) rows[row["agent"].get<std::string>()] = row;
  ASSERT_EQ(rows.size(), 2u) << s.dump(2);
  EXPECT_EQ(rows["box1"]["kernel"], "fake-b");
  EXPECT_EQ(rows["box1"]["baseline"], "fake-a");
  EXPECT_EQ(rows["box1"]["verdict"], "(R)") << rows["box1"].dump();
  EXPECT_TRUE(rows["box1"]["gate_failed"].get<bool>());
  EXPECT_LT(rows["box1"]["change_pct"].get<double>(), -20);
  EXPECT_EQ(rows["box1"]["level"], "boot");
  EXPECT_EQ(rows["box1"]["kernel_boots"], 3);
  EXPECT_FALSE(rows["box2"]["gate_failed"].get<bool>()) << rows["box2"].dump();

  // The order, from the server's stored runs: per box A B A B, each slot on
  // the kernel and a boot of its own.
  const json night = json::parse(read_file(dir_.file("night/night.json")));
  for (const char* box : {"box1", "box2"}) {
    std::vector<std::string> kernels, releases;
    std::set<std::string> boots;
    long long last_started = 0;
    for (const json& slot : night["agents"][box]) {
      EXPECT_EQ(slot["state"], "done") << slot.dump();
      const json run = api_json("/api/v1/runs/" + slot["runs"]["plan.yaml"].get<std::string>());
      const json& rec = run["runs"][0];
      kernels.push_back(rec["labels"]["kernel"]);
      releases.push_back(rec["kernel_release"]);
      boots.insert(rec["boot_id"].get<std::string>());
      const long long started = rec["started_at_ns"].get<long long>();
      EXPECT_GT(started, last_started);
      last_started = started;
    }
    EXPECT_EQ(kernels, (std::vector<std::string>{"fake-a", "fake-b", "fake-a", "fake-b", "fake-a",
                                                 "fake-b"}))
        << box;
    EXPECT_EQ(releases[1], "6.1.0-fake-b");
    EXPECT_EQ(releases[4], "6.1.0-fake-a");
    EXPECT_EQ(boots.size(), 6u) << box;  // every slot its own boot
  }
  EXPECT_NE(r.output.find("exit 1: a gated regression"), std::string::npos);

  // The night's page (OUT/report.html): its verdicts, and per box the
  // iterations per kernel and the trend over the six boots.
  const std::string page = read_file(dir_.file("night/report.html"));
  EXPECT_NE(page.find("id=\"verdict-table\""), std::string::npos);
  EXPECT_NE(page.find("FAILED"), std::string::npos);  // box1's gate
  std::size_t strips = 0, trends = 0;
  for (auto at = page.find("<svg class=\"strip\""); at != std::string::npos;
       at = page.find("<svg class=\"strip\"", at + 1)) {
    ++strips;
  }
  for (auto at = page.find("<svg class=\"trend\""); at != std::string::npos;
       at = page.find("<svg class=\"trend\"", at + 1)) {
    ++trends;
  }
  EXPECT_EQ(strips, 2u);  // box1 and box2, one case each
  EXPECT_EQ(trends, 2u);
  // Made again from OUT and the server: the same plots.
  const CommandResult again =
      run_command(fmt::format("{} report --nightly {} --html {}{}", bin("schedrig"),
                              dir_.file("night"), dir_.file("again.html"), server_flags()));
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(read_file(dir_.file("again.html")).find("<svg class=\"trend\""), std::string::npos);
}

// A box that does not come back from its boot (nobody restarts it) fails
// its slot with the reason and the night exits 3.
TEST_F(NightlyE2E, ABoxThatNeverReturnsIsAnInfrastructureFailure) {
  start_box("box1", 0, kKernels, /*restart=*/false);
  const CommandResult r = nightly(
      "agents: [box1]\nkernels: [fake-a, fake-b]\nplans: [plan.yaml]\nboots_per_kernel: 2\n",
      "--boot-timeout 3");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("box1: slot 1 (fake-a): did not come back within 3 s"), std::string::npos)
      << r.output;
}

// What schedrig-nightly.service runs: --nights DIR puts the night in a
// directory of its own named by its UTC start (NewNightDir.* has the
// names), and a night is given exactly one of --out, --nights and --resume.
TEST_F(NightlyE2E, ANightOfNightsDirGetsADirectoryOfItsOwn) {
  start_box("box1", 0, kKernels, /*restart=*/false);
  const std::string lab = night_flags(
      "agents: [box1]\nkernels: [fake-a, fake-b]\nplans: [plan.yaml]\nboots_per_kernel: 2\n");
  const std::string nights = dir_.file("nights");
  const CommandResult both =
      schedrig(fmt::format("nightly --nights {} --out {} {}", nights, dir_.file("x"), lab));
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.output.find("nightly: give one of --out DIR, --nights DIR and --resume DIR"),
            std::string::npos)
      << both.output;
  const CommandResult r =
      schedrig(fmt::format("nightly --nights {} {} --boot-timeout 2", nights, lab), 120);
  EXPECT_EQ(r.exit_code, 3) << r.output;  // the box never comes back: the night still has its dir
  std::vector<std::filesystem::path> made;
  for (const auto& e : std::filesystem::directory_iterator(nights)) made.push_back(e.path());
  ASSERT_EQ(made.size(), 1u);
  EXPECT_TRUE(
      std::regex_match(made[0].filename().string(), std::regex(R"(\d{4}-\d\d-\d\dT\d{4}Z)")))
      << made[0];
  EXPECT_TRUE(std::filesystem::exists(made[0] / "night.json"));
  EXPECT_TRUE(std::filesystem::exists(made[0] / "summary.json"));
  EXPECT_EQ(std::filesystem::status(nights).permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_all);
}

// A box that comes back on another kernel than the one asked for (the
// bootloader fell back) fails its slot and the night exits 3.
TEST_F(NightlyE2E, AWrongKernelAfterTheBootIsAnInfrastructureFailure) {
  const std::string osrelease = agent_dir("box1") + "/root/proc/sys/kernel/osrelease";
  start_box("box1", 0, kKernels, true,
            [osrelease] { std::ofstream(osrelease, std::ios::trunc) << "6.1.0-fallback\n"; });
  const CommandResult r = nightly(
      "agents: [box1]\nkernels: [fake-a, fake-b]\nplans: [plan.yaml]\nboots_per_kernel: 2\n");
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("came back on 6.1.0-fallback instead of fake-a (6.1.0-fake-a)"),
            std::string::npos)
      << r.output;
}

// On the running kernel (no reboot) with a selftest whose antagonist is
// too light to see (1%): the detector cannot see it, every verdict of the night
// is marked, and the exit is 3. The same night with the antagonist is
// clean (exit 0).
TEST_F(NightlyE2E, ASelftestThatSeesNothingFailsTheNightAndOneThatDoesPasses) {
  start_box("box1", 0, kKernels);
  const std::string lab =
      "agents: [box1]\nkernels: current\nplans: [plan.yaml]\nboots_per_kernel: 2\n";
  CommandResult r = nightly(lab, "", /*antagonist=*/false);
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_NE(r.output.find("DETECTOR FAILED"), std::string::npos) << r.output;
  EXPECT_TRUE(summary()["detector_failed"].get<bool>());

  // A selftest plan without an antagonist is refused before anything runs.
  std::filesystem::remove_all(dir_.file("night"));
  write_plan("bad-selftest.yaml", kPlan);
  r = schedrig(fmt::format("nightly --lab {} --out {} --selftest-plan {}{}", dir_.file("lab.yaml"),
                           dir_.file("night"), dir_.file("bad-selftest.yaml"), server_flags()));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("a selftest plan needs variants after its first, each with an "
                          "antagonist"),
            std::string::npos)
      << r.output;

  std::filesystem::remove_all(dir_.file("night"));
  r = nightly(lab);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("selftest box1: the antagonist was (R) in 2 of 2 boots: ok"),
            std::string::npos)
      << r.output;
}

// The host stops mid-night (SIGKILL to `schedrig nightly` once the first
// slot is done); `--resume` carries on from night.json: the done slot is
// not run again and the rest are.
TEST_F(NightlyE2E, ANightKilledMidwayIsResumedFromItsState) {
  start_box("box1", 0, kKernels);
  const std::string common = night_flags(
      "agents: [box1]\nkernels: [fake-a, fake-b]\nplans: [plan.yaml]\nboots_per_kernel: 2\n");
  {
    std::vector<std::string> argv{bin("schedrig"), "nightly", "--out", dir_.file("night")};
    std::istringstream words(common);
    for (std::string w; words >> w;) argv.push_back(w);
    ChildProcess first(argv, dir_.file("first.log"));
    ASSERT_TRUE(eventually(
        [&] {
          const json n = json::parse(read_file(dir_.file("night/night.json")), nullptr, false);
          return !n.is_discarded() && n["agents"]["box1"][0]["state"] == "done";
        },
        120s))
        << first.log();
    ::kill(first.pid(), SIGKILL);
  }
  const json before = json::parse(read_file(dir_.file("night/night.json")));
  const std::string first_run = before["agents"]["box1"][0]["runs"]["plan.yaml"];
  const CommandResult r = schedrig("nightly --resume " + dir_.file("night") + " " + common, 600);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const json after = json::parse(read_file(dir_.file("night/night.json")));
  EXPECT_EQ(after["night"], before["night"]);
  EXPECT_EQ(after["agents"]["box1"][0]["runs"]["plan.yaml"], first_run);  // not run again
  for (const json& slot : after["agents"]["box1"]) EXPECT_EQ(slot["state"], "done") << slot.dump();
  EXPECT_EQ(r.output.find("slot 1/4"), std::string::npos) << r.output;  // nothing of slot 1 redone
}

// baseline: last_good takes the newest kernel the history says passed:
// night 1 runs fake-a alone; night 2 runs fake-b against it.
TEST_F(NightlyE2E, LastGoodIsTheNewestKernelThatPassedOnThatAgentAndPlan) {
  start_box("box1", 0, kKernels);
  CommandResult r =
      nightly("agents: [box1]\nkernels: [fake-a]\nplans: [plan.yaml]\nboots_per_kernel: 2\n");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json line = json::parse(read_file(dir_.file("history.jsonl")));  // one line: one kernel
  EXPECT_EQ(line["kernel"], "fake-a");
  EXPECT_EQ(line["agent"], "box1");
  EXPECT_EQ(line["plan"], "plan.yaml");
  EXPECT_TRUE(line["passed"].get<bool>());
  EXPECT_EQ(line["runs"].size(), 2u);
  std::filesystem::rename(dir_.file("night"), dir_.file("night1"));
  r = nightly(
      "agents: [box1]\nkernels: [fake-b]\nplans: [plan.yaml]\nboots_per_kernel: 2\n"
      "baseline: last_good\ngates: {threshold_pct: 25}\n");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("box1 plan.yaml: baseline last_good = fake-a (night "), std::string::npos)
      << r.output;
  const json s = summary();
  ASSERT_EQ(s["rows"].size(), 1u) << s.dump(2);
  EXPECT_EQ(s["rows"][0]["kernel"], "fake-b");
  EXPECT_EQ(s["rows"][0]["baseline"], "fake-a");
  EXPECT_EQ(s["rows"][0]["baseline_boots"], 2);
}

// An agent is told to boot only what its config lists: a lab file naming
// another kernel is refused before anything runs (exit 2).
TEST_F(NightlyE2E, AKernelTheAgentDoesNotListIsRefusedBeforeAnythingRuns) {
  start_box("box1", 0, kKernels);
  const CommandResult r =
      nightly("agents: [box1]\nkernels: [fake-a, rhel-10.2]\nplans: [plan.yaml]\n");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("agent box1 does not list kernel 'rhel-10.2' (its config lists: "
                          "fake-a, fake-b)"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(boxes_["box1"]->exits(), 0);  // never booted
}

}  // namespace
}  // namespace schedrig
