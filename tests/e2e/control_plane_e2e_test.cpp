// The control plane end to end (issue #12, docs/architecture.md "Control
// plane"): the built `schedrig serve` over TLS with a throwaway CA and a
// tokens file from `schedrig token new`, real `schedrig-agent connect`
// processes (each with a fake knob root, so no real knob is touched), driven
// by the CLI as a user runs it; and every attack of the issue, each refused
// with nothing stored (checked in the store's envelopes table).
#include <sstream>

#include "tests/e2e/control_plane_fixture.h"

namespace schedrig {
namespace {

using namespace e2e;  // the fixture and its helpers

// Booting a kernel (docs/nightly.md "Boot hooks"): the host may name only a
// kernel the agent's config lists; the test hook rewrites the agent's fake
// tree and the agent ends its session; started again (systemd's part), it
// says Hello on the new release with a new boot_id.
TEST_F(ControlPlaneE2E, BootNamesOnlyAListedKernelAndTheAgentComesBackOnIt) {
  const std::string config = write_plan("agent.yaml", R"(kernels:
  fake-a: {release: 6.1.0-fake-a, test: {}}
  fake-b: {release: 6.1.0-fake-b, test: {}}
)");
  start_agent("box1", config);
  const json before = agent_json("box1");
  ASSERT_EQ(before["kernels"].size(), 2u) << before.dump();
  EXPECT_EQ(before["kernels"][1]["name"], "fake-b");
  EXPECT_EQ(before["kernels"][1]["release"], "6.1.0-fake-b");
  EXPECT_EQ(before["kernels"][1]["hook"], "test");
  const std::string old_boot = before.value("boot_id", "");
  ASSERT_FALSE(old_boot.empty());

  auto r = api(http::verb::post, "/api/v1/agents/box1/boot", "alice", R"({"kernel":"rhel-9"})");
  EXPECT_EQ(r.status, 400u);
  EXPECT_NE(r.body.find("agent box1 does not list kernel 'rhel-9' (its config lists: fake-a, "
                        "fake-b)"),
            std::string::npos)
      << r.body;
  r = api(http::verb::post, "/api/v1/agents/box1/boot", "alice", R"({"kernel":"a;reboot"})");
  EXPECT_EQ(r.status, 400u) << r.body;
  r = api(http::verb::post, "/api/v1/agents/box1/boot", "box1", R"({"kernel":"fake-b"})");
  EXPECT_EQ(r.status, 403u) << r.body;  // an agent's token cannot boot anything
  r = api(http::verb::post, "/api/v1/agents/box9/boot", "alice", R"({"kernel":"fake-b"})");
  EXPECT_EQ(r.status, 409u) << r.body;  // not connected

  r = api(http::verb::post, "/api/v1/agents/box1/boot", "alice",
          R"({"kernel":"fake-b","reason":"test night"})");
  ASSERT_EQ(r.status, 202u) << r.body;
  const json accepted = json::parse(r.body);
  EXPECT_EQ(accepted["release"], "6.1.0-fake-b");
  EXPECT_EQ(accepted["boot_id"], old_boot);
  EXPECT_EQ(agents_["box1"]->wait_for_exit(20s), std::optional<int>(0)) << agents_["box1"]->log();
  EXPECT_NE(agents_["box1"]->log().find("booting kernel 'fake-b' (release 6.1.0-fake-b) with the "
                                        "test hook: operator 'alice': test night"),
            std::string::npos)
      << agents_["box1"]->log();

  start_agent("box1", config);  // what systemd's Restart=always does after a reboot
  EXPECT_TRUE(eventually([&] {
    const json a = agent_json("box1");
    return a.value("kernel_release", "") == "6.1.0-fake-b" && a.value("boot_id", "") != old_boot;
  })) << agent_json("box1").dump();

  // A hook that fails (a file where its directory should be): the agent
  // stays up on its kernel, says why, and is not left "booting".
  const std::string random = agent_dir("box1") + "/root/proc/sys/kernel/random";
  std::filesystem::remove_all(random);
  std::ofstream(random) << "not a directory\n";
  const std::string boot_now = agent_json("box1").value("boot_id", "");
  r = api(http::verb::post, "/api/v1/agents/box1/boot", "alice", R"({"kernel":"fake-a"})");
  ASSERT_EQ(r.status, 202u) << r.body;
  EXPECT_TRUE(eventually([&] {
    const json a = agent_json("box1");
    return a.value("booting", "x").empty() && !a.value("boot_error", "").empty();
  })) << agent_json("box1").dump();
  const json after = agent_json("box1");
  EXPECT_NE(after.value("boot_error", "").find("test: fake-a: "), std::string::npos)
      << after.dump();
  EXPECT_EQ(after.value("boot_id", ""), boot_now);
  EXPECT_EQ(after.value("kernel_release", ""), "6.1.0-fake-b");
  EXPECT_TRUE(agents_["box1"]->running());
}

// (1) Two agents with different ids, listed live as text and JSON.
TEST_F(ControlPlaneE2E, TwoAgentsAreListedConnectedAndIdle) {
  start_agent("box1");
  start_agent("box2");
  const long pus = ::sysconf(_SC_NPROCESSORS_ONLN);
  auto text = schedrig("agents" + server_flags());
  ASSERT_EQ(text.exit_code, 0) << text.output;
  for (const char* id : {"box1", "box2"}) {
    std::smatch m;
    ASSERT_TRUE(
        std::regex_search(text.output, m,
                          std::regex(std::string("\n") + id + " +connected +idle +(\\S+) +" +
                                     std::to_string(pus) + " ")))
        << text.output;
    EXPECT_EQ(m[1], kernel_release());
  }
  auto js = schedrig("agents --json" + server_flags());
  ASSERT_EQ(js.exit_code, 0) << js.output;
  const json j = json::parse(js.output);
  ASSERT_EQ(j["agents"].size(), 2u) << js.output;
  std::set<std::string> instances;
  for (const auto& a : j["agents"]) {
    EXPECT_TRUE(a["connected"].get<bool>()) << a.dump();
    EXPECT_EQ(a["state"], "idle");
    EXPECT_EQ(a["queued"], 0);
    EXPECT_EQ(a["kernel_release"], kernel_release());
    EXPECT_EQ(a["pus"], pus);
    EXPECT_EQ(a["hostname"], host_name());
    EXPECT_TRUE(is_uuid(a["instance_id"].get<std::string>())) << a.dump();
    instances.insert(a["instance_id"].get<std::string>());
  }
  EXPECT_EQ(j["agents"][0]["agent_id"], "box1");
  EXPECT_EQ(j["agents"][1]["agent_id"], "box2");
  EXPECT_EQ(instances.size(), 2u);
}

// (2) run --agent box1 --wait: progress, the run's end, its compare table;
// results RUN --server shows the stored run.
TEST_F(ControlPlaneE2E, RunWaitOnOneAgentPrintsTheComparison) {
  start_agent("box1");
  const std::string plan = write_plan("p.yaml", plan_yaml(2, 0.2));
  auto r = schedrig("run" + server_flags() + " --agent box1 --plan " + plan + " --wait");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string run = run_id_in(r.output, "box1");
  ASSERT_FALSE(run.empty()) << r.output;
  EXPECT_NE(r.output.find("[4/4] forks / "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("run " + run + " ok"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("each variant against 'baseline'"), std::string::npos) << r.output;
  EXPECT_TRUE(std::regex_search(r.output, std::regex("\nCASE +METRIC "))) << "no compare table:\n"
                                                                          << r.output;
  EXPECT_TRUE(std::regex_search(r.output, std::regex("\nforks +bogo_ops_per_s "))) << r.output;
  EXPECT_EQ(knob("box1"), "1");

  auto res = schedrig("results " + run.substr(0, 8) + server_flags());
  ASSERT_EQ(res.exit_code, 0) << res.output;
  EXPECT_NE(res.output.find("run       " + run), std::string::npos) << res.output;
  EXPECT_NE(res.output.find("agent     box1"), std::string::npos) << res.output;
  EXPECT_NE(res.output.find("status    ok (4/4 iterations)"), std::string::npos) << res.output;
  auto js = schedrig("results " + run + " --json" + server_flags());
  ASSERT_EQ(js.exit_code, 0) << js.output;
  const json j = json::parse(js.output);
  ASSERT_EQ(j["runs"].size(), 1u);
  EXPECT_EQ(j["runs"][0]["status"], "ok");
  // The fingerprint comes over the API, and so does a whole page.
  EXPECT_FALSE(j["runs"][0]["fingerprint"]["kernel_release"].get<std::string>().empty());
  auto page =
      schedrig("report " + run.substr(0, 8) + " --html " + dir_.file("r.html") + server_flags());
  ASSERT_EQ(page.exit_code, 0) << page.output;
  const std::string html = read_file(dir_.file("r.html"));
  EXPECT_NE(html.find("id=\"verdict-table\""), std::string::npos);
  EXPECT_NE(html.find("data-metric=\"bogo_ops_per_s\""), std::string::npos);
  EXPECT_NE(html.find("<td>kernel_release</td>"), std::string::npos);
  EXPECT_EQ(j["runs"][0]["iterations"].size(), 4u);
  // The off variant ran with the fake knob at 0, the baseline as found.
  for (const auto& it : j["runs"][0]["iterations"])
    EXPECT_EQ(it["knobs"]["kernel.sched_autogroup_enabled"], it["variant"] == "off" ? "0" : "1")
        << it.dump();
}

// (3) run --all: one run per connected agent, both running at once, both ok.
TEST_F(ControlPlaneE2E, RunAllStartsOnBothAgentsAtOnce) {
  start_agent("box1");
  start_agent("box2");
  const std::string plan = write_plan("p.yaml", plan_yaml(2, 0.3));
  auto r = schedrig("run" + server_flags() + " --all --plan " + plan + " --wait");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string run1 = run_id_in(r.output, "box1"), run2 = run_id_in(r.output, "box2");
  ASSERT_FALSE(run1.empty()) << r.output;
  ASSERT_FALSE(run2.empty()) << r.output;
  EXPECT_NE(run1, run2);
  EXPECT_NE(r.output.find("box1: run " + run1 + " ok"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("box2: run " + run2 + " ok"), std::string::npos) << r.output;
  const json a = queue_row(run1), b = queue_row(run2);
  EXPECT_EQ(a["state"], "ok");
  EXPECT_EQ(b["state"], "ok");
  // At once: each started before the other finished.
  EXPECT_LT(a["dispatched_at_ns"].get<long long>(), b["finished_at_ns"].get<long long>());
  EXPECT_LT(b["dispatched_at_ns"].get<long long>(), a["finished_at_ns"].get<long long>());
  EXPECT_EQ(envelopes("kind = 'run_finished'"), 2);
}

// (4) + (6) Two runs queued on one agent run in order; while the first runs,
// `queue` shows it running and the second queued, `agents` "running RUN, 1 queued".
TEST_F(ControlPlaneE2E, TwoRunsOnOneAgentRunInOrderAndQueueShowsThem) {
  start_agent("box1");
  start_agent("box2");
  // Long enough (3 x 2 x 1.5 s) that the second submission, `queue` and
  // `agents` all happen while it runs, even on a loaded box under ASan.
  const std::string first = submit("box1", write_plan("long.yaml", plan_yaml(3, 1.5)));
  auto second_out = schedrig("run" + server_flags() + " --agent box1 --plan " +
                             write_plan("short.yaml", plan_yaml(1, 0.2)));
  ASSERT_EQ(second_out.exit_code, 0) << second_out.output;
  const std::string second = run_id_in(second_out.output, "box1");
  ASSERT_FALSE(first.empty());
  ASSERT_FALSE(second.empty());
  EXPECT_NE(second_out.output.find(": queued, 1 run ahead"), std::string::npos)
      << second_out.output;

  auto q = schedrig("queue" + server_flags());
  ASSERT_EQ(q.exit_code, 0) << q.output;
  EXPECT_TRUE(std::regex_search(q.output, std::regex(first + " +box1 +running +- "))) << q.output;
  EXPECT_TRUE(std::regex_search(q.output, std::regex(second + " +box1 +queued +1 "))) << q.output;
  auto ag = schedrig("agents" + server_flags());
  ASSERT_EQ(ag.exit_code, 0) << ag.output;
  EXPECT_TRUE(std::regex_search(
      ag.output, std::regex("\nbox1 +connected +running " + first.substr(0, 8) + ", 1 queued ")))
      << ag.output;
  EXPECT_TRUE(std::regex_search(ag.output, std::regex("\nbox2 +connected +idle "))) << ag.output;
  const json box1 = agent_json("box1");
  EXPECT_EQ(box1["state"], "running");
  EXPECT_EQ(box1["run_id"], first);
  EXPECT_EQ(box1["queued"], 1);

  ASSERT_TRUE(wait_for_state(second, "ok", 90s)) << queue_row(second).dump();
  auto qj = schedrig("queue --all --json" + server_flags());
  ASSERT_EQ(qj.exit_code, 0) << qj.output;
  json a, b;
  const json rows = json::parse(qj.output);
  for (const auto& row : rows["runs"]) {
    if (row["run_id"] == first) a = row;
    if (row["run_id"] == second) b = row;
  }
  ASSERT_FALSE(a.is_null()) << qj.output;
  ASSERT_FALSE(b.is_null()) << qj.output;
  EXPECT_EQ(a["state"], "ok");
  EXPECT_EQ(b["state"], "ok");
  EXPECT_EQ(a["submitted_by"], "alice");
  EXPECT_GE(b["dispatched_at_ns"].get<long long>(), a["finished_at_ns"].get<long long>())
      << "the second run started before the first finished:\n"
      << qj.output;
  EXPECT_EQ(agent_json("box1")["state"], "idle");
  EXPECT_EQ(schedrig("queue" + server_flags()).output.find(first), std::string::npos);
}

// (5) abort mid-run: the agent stops, restores the knob it changed, the run
// ends `aborted`; the agent takes the next run.
TEST_F(ControlPlaneE2E, AbortMidRunRestoresTheKnobAndEndsAborted) {
  const std::string run = run_until_the_knob_changes("box1");
  ASSERT_FALSE(run.empty());
  auto ab = schedrig("abort " + run.substr(0, 8) + server_flags());
  ASSERT_EQ(ab.exit_code, 0) << ab.output;
  EXPECT_NE(ab.output.find("aborting"), std::string::npos) << ab.output;
  ASSERT_TRUE(wait_for_state(run, "aborted", 15s)) << queue_row(run).dump();
  EXPECT_EQ(knob("box1"), "1") << "the knob was not restored";
  auto js = schedrig("results " + run + " --json" + server_flags());
  ASSERT_EQ(js.exit_code, 0) << js.output;
  const json j = json::parse(js.output);
  EXPECT_EQ(j["runs"][0]["status"], "aborted") << js.output;
  EXPECT_LT(j["runs"][0]["iterations"].size(), 6u);
  EXPECT_NE(queue_row(run).value("reason", "").find("aborted"), std::string::npos)
      << queue_row(run).dump();
  EXPECT_TRUE(agents_["box1"]->running());
  EXPECT_EQ(agent_json("box1")["state"], "idle");
  // A second abort of an ended run is refused (409 -> exit 2).
  EXPECT_EQ(schedrig("abort " + run + server_flags()).exit_code, 2);
  auto next = schedrig("run" + server_flags() + " --agent box1 --wait --plan " +
                       write_plan("q.yaml", plan_yaml(1, 0.1)));
  EXPECT_EQ(next.exit_code, 0) << next.output;
}

// A stop signal to `connect` (systemd stop) mid-run aborts the run as an
// operator's abort does: the knob is restored, the run ends aborted, the
// agent exits 0 once the host has it.
TEST_F(ControlPlaneE2E, SigtermToTheAgentMidRunAbortsAndRestoresTheKnob) {
  const std::string run = run_until_the_knob_changes("box1");
  ASSERT_FALSE(run.empty());
  ASSERT_EQ(::kill(agents_["box1"]->pid(), SIGTERM), 0);
  const std::optional<int> code = agents_["box1"]->wait_for_exit(15s);
  ASSERT_TRUE(code.has_value()) << "the agent kept running:\n" << agents_["box1"]->log();
  EXPECT_EQ(*code, 0) << agents_["box1"]->log();
  EXPECT_EQ(knob("box1"), "1") << "the knob was not restored";
  ASSERT_TRUE(wait_for_state(run, "aborted", 15s)) << queue_row(run).dump();
  const json j = json::parse(schedrig("results " + run + " --json" + server_flags()).output);
  EXPECT_EQ(j["runs"][0]["status"], "aborted");
  EXPECT_LT(j["runs"][0]["iterations"].size(), 6u);
}

// Attack: no token, or one the server does not know: 401, nothing stored.
TEST_F(ControlPlaneE2E, NoTokenIsRefusedWith401) {
  std::ofstream(dir_.file("bogus.token")) << std::string(64, 'a') << "\n";
  std::filesystem::permissions(dir_.file("bogus.token"), std::filesystem::perms::owner_read |
                                                             std::filesystem::perms::owner_write);
  EXPECT_EQ(testing::upgrade_status(port_, "", tls_.get()), 401u);
  EXPECT_EQ(testing::upgrade_status(port_, token("bogus"), tls_.get()), 401u);
  auto raw = raw_agent("");
  EXPECT_TRUE(raw->error()) << "a WebSocket without a token was upgraded";
  const auto get = api(http::verb::get, "/api/v1/agents", "");
  EXPECT_EQ(get.status, 401u) << get.body;
  EXPECT_EQ(get.www_authenticate.rfind("Bearer", 0), 0u) << get.www_authenticate;
  EXPECT_EQ(api(http::verb::get, "/api/v1/runs", "bogus").status, 401u);
  const json body = {{"agents", {"box1"}}, {"plan_yaml", plan_yaml(1, 0.1)}};
  EXPECT_EQ(api(http::verb::post, "/api/v1/runs", "", body.dump()).status, 401u);

  auto connect = run_command(fmt::format(
      "timeout --foreground 20 {} connect {} --id box1 --token-file {} --ca {} --root {} "
      "--state-dir {}",
      bin("schedrig-agent"), agent_url(), dir_.file("bogus.token"), pki_.ca_cert, empty_root(),
      dir_.file("state")));
  EXPECT_EQ(connect.exit_code, 2) << connect.output;  // a configuration error, as for 1008
  EXPECT_NE(connect.output.find("401"), std::string::npos) << connect.output;
  auto cli = schedrig("agents" + server_flags("bogus"));
  EXPECT_EQ(cli.exit_code, 2) << cli.output;
  EXPECT_NE(cli.output.find("401"), std::string::npos) << cli.output;
  EXPECT_EQ(envelopes(), 0);
  EXPECT_EQ(count("SELECT count(*) FROM queue"), 0);
}

// GET /metrics over TLS on serve's port: an operator's token only; the
// exposition parses, counts the live agents and the envelopes they sent, and
// carries each agent's spool backlog from its upgrade header.
TEST_F(ControlPlaneE2E, MetricsAreScrapedWithAnOperatorTokenOnly) {
  start_agent("box1");
  EXPECT_EQ(api(http::verb::get, "/metrics", "").status, 401u);
  EXPECT_EQ(api(http::verb::get, "/metrics", "box1").status, 403u);
  const auto scrape = api(http::verb::get, "/metrics", "alice");
  ASSERT_EQ(scrape.status, 200u) << scrape.body;
  std::map<std::string, double> series;
  std::istringstream in(scrape.body);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const auto space = line.rfind(' ');
    ASSERT_NE(space, std::string::npos) << line;
    series[line.substr(0, space)] = std::stod(line.substr(space + 1));
  }
  EXPECT_EQ(series.at("schedrig_agents_connected"), 1);
  EXPECT_GE(series.at("schedrig_envelopes_stored_total"), 2);  // its Hello and Topology
  EXPECT_EQ(series.at("schedrig_ingest_latency_seconds_count"),
            series.at("schedrig_envelopes_stored_total"));
  EXPECT_EQ(series.count("schedrig_agent_spool_backlog_envelopes{agent=\"box1\"}"), 1u)
      << scrape.body;
  EXPECT_NE(scrape.body.find("# TYPE schedrig_ingest_latency_seconds histogram"),
            std::string::npos);
}

// Attack: the wrong role: an agent token on the API, an operator's on /agent: 403.
TEST_F(ControlPlaneE2E, WrongRoleIsRefusedWith403) {
  EXPECT_EQ(api(http::verb::get, "/api/v1/agents", "box1").status, 403u);
  const json body = {{"agents", {"box1"}}, {"plan_yaml", plan_yaml(1, 0.1)}};
  EXPECT_EQ(api(http::verb::post, "/api/v1/runs", "box2", body.dump()).status, 403u);
  EXPECT_EQ(testing::upgrade_status(port_, token("alice"), tls_.get()), 403u);
  auto connect = run_command(fmt::format(
      "timeout --foreground 20 {} connect {} --id alice --token-file {} --ca {} --root {} "
      "--state-dir {}",
      bin("schedrig-agent"), agent_url(), token_file("alice"), pki_.ca_cert, empty_root(),
      dir_.file("state")));
  EXPECT_EQ(connect.exit_code, 2) << connect.output;
  EXPECT_NE(connect.output.find("403"), std::string::npos) << connect.output;
  auto cli = schedrig("queue" + server_flags("box1"));
  EXPECT_EQ(cli.exit_code, 2) << cli.output;
  EXPECT_NE(cli.output.find("403"), std::string::npos) << cli.output;
  EXPECT_EQ(envelopes(), 0);
  EXPECT_EQ(count("SELECT count(*) FROM queue"), 0);
}

// A real agent with box1's token and `--id box2`: the host closes with 1008
// and the agent exits 2 (as for a refused token), printing the host's reason.
TEST_F(ControlPlaneE2E, AnIdTheTokenWasNotMadeForExits2WithTheHostsReason) {
  auto connect = run_command(fmt::format(
      "timeout --foreground 20 {} connect {} --id box2 --token-file {} --ca {} --root {} "
      "--state-dir {}",
      bin("schedrig-agent"), agent_url(), token_file("box1"), pki_.ca_cert, empty_root(),
      dir_.file("state")));
  EXPECT_EQ(connect.exit_code, 2) << connect.output;
  EXPECT_NE(connect.output.find("host refused this agent: host closed the connection (1008 "
                                "refused: agent_id 'box2' is not the id this token speaks for "
                                "('box1'))"),
            std::string::npos)
      << connect.output;
  EXPECT_EQ(envelopes(), 0);
}

// Attack: box2's token, a Hello that says it is box1.
TEST_F(ControlPlaneE2E, ForgedAgentIdIsRefused) {
  start_agent("box1");
  const json before = agent_json("box1");
  const long long stored = envelopes();
  auto c = raw_agent("box2");
  ASSERT_FALSE(c->error()) << c->error().message();
  v1::Envelope forged = testing::hello("box1", 1, "mallory-instance");
  forged.mutable_hello()->set_hostname("mallory");
  expect_refused(send_and_read(*c, forged), "Hello as box1 on box2's token");
  EXPECT_EQ(envelopes(), stored);
  EXPECT_EQ(envelopes("instance_id = 'mallory-instance'"), 0);
  const json after = agent_json("box1");
  EXPECT_EQ(after["instance_id"], before["instance_id"]);
  EXPECT_EQ(after["hostname"], host_name());
  EXPECT_TRUE(after["connected"].get<bool>());
  EXPECT_TRUE(std::regex_search(
      serve_->log(),
      std::regex("127\\.0\\.0\\.1:[0-9]+ \\(agent box2\\): refused: [^\n]*closing with 1008")))
      << "the violation is not logged with the peer address:\n"
      << serve_->log();
}

// Attacks on a run box1 is running: box2 sends an IterationResult and a
// RunFinished for it, squats box1's instance_id; a client without a token
// cannot even upgrade. Each is refused and stores nothing; box1's run goes
// on and ends ok with exactly its own results.
TEST_F(ControlPlaneE2E, AnotherAgentCannotTouchARunOrItsSeqRange) {
  start_agent("box1");
  const std::string run = submit("box1", write_plan("p.yaml", plan_yaml(2, 1.2)));
  ASSERT_FALSE(run.empty());
  ASSERT_TRUE(eventually([&] { return envelopes("kind = 'run_started'") == 1; }));
  const std::string box1_instance = agent_json("box1")["instance_id"];
  ASSERT_FALSE(box1_instance.empty());

  {  // another agent's run id
    auto c = hello_as("box2", "box2", "mallory-1");
    v1::Envelope env = testing::stamped("box2", 2, "mallory-1");
    auto* it = env.mutable_iteration_result();
    it->set_run_id(run);
    it->set_case_name("forks");
    it->set_variant("baseline");
    it->set_iteration(1);
    it->set_status(v1::STATUS_OK);
    auto* m = it->add_metrics();
    m->set_name("bogo_ops_per_s");
    m->set_value(1e12);
    m->set_unit("ops/s");
    expect_refused(send_and_read(*c, env), "IterationResult for box1's run");
  }
  {  // RunFinished from an authenticated stranger
    auto c = hello_as("box2", "box2", "mallory-2");
    v1::Envelope env = testing::stamped("box2", 2, "mallory-2");
    env.mutable_run_finished()->set_run_id(run);
    env.mutable_run_finished()->set_status(v1::STATUS_ABORTED);
    expect_refused(send_and_read(*c, env), "RunFinished for box1's run");
  }
  {  // RunFinished from a client without a token: no upgrade at all
    auto c = raw_agent("");
    EXPECT_TRUE(c->error());
    EXPECT_EQ(testing::upgrade_status(port_, "", tls_.get()), 401u);
  }
  {  // seq squatting: box2 says Hello with box1's instance_id
    auto c = raw_agent("box2");
    ASSERT_FALSE(c->error());
    expect_refused(send_and_read(*c, testing::hello("box2", 1000000, box1_instance)),
                   "Hello with box1's instance_id");
  }
  EXPECT_EQ(envelopes("instance_id LIKE 'mallory-%' AND kind != 'hello'"), 0);
  EXPECT_EQ(envelopes("agent_id = 'box2' AND instance_id = '" + box1_instance + "'"), 0);
  EXPECT_EQ(envelopes("instance_id = '" + box1_instance + "' AND agent_id != 'box1'"), 0);
  EXPECT_EQ(run_state(run), "running") << "a stranger ended the run";

  ASSERT_TRUE(wait_for_state(run, "ok")) << queue_row(run).dump();
  auto js = schedrig("results " + run + " --json" + server_flags());
  ASSERT_EQ(js.exit_code, 0) << js.output;
  const json j = json::parse(js.output);
  EXPECT_EQ(j["runs"][0]["status"], "ok");
  ASSERT_EQ(j["runs"][0]["iterations"].size(), 4u) << "box1's own results were dropped";
  for (const auto& it : j["runs"][0]["iterations"])
    EXPECT_LT(it["metrics"][0]["value"].get<double>(), 1e11) << it.dump();
  // Everything box1 sent was stored and acked: its envelopes are seq 1..N.
  EXPECT_EQ(envelopes("instance_id = '" + box1_instance + "'"),
            count("SELECT max(seq) FROM envelopes WHERE instance_id = '" + box1_instance + "'"));
  // Three violations, each logged with the peer address.
  const std::string log = serve_->log();
  const std::regex refused(
      "127\\.0\\.0\\.1:[0-9]+ \\(agent box2\\): refused: [^\n]*closing with 1008");
  EXPECT_EQ(
      std::distance(std::sregex_iterator(log.begin(), log.end(), refused), std::sregex_iterator()),
      3)
      << log;
}

// Attack: a second `connect --id box1` while the first is alive: refused and
// logged; the first keeps running and takes runs.
TEST_F(ControlPlaneE2E, DuplicateIdIsRefusedAndTheFirstCarriesOn) {
  ChildProcess& first = start_agent("box1");
  const std::string instance = agent_json("box1")["instance_id"];
  auto second = run_command(fmt::format(
      "timeout --foreground 30 {} connect {} --id box1 --token-file {} --ca {} --root {} "
      "--state-dir {}",
      bin("schedrig-agent"), agent_url(), token_file("box1"), pki_.ca_cert,
      agent_dir("box1") + "/root", dir_.file("second-state")));
  EXPECT_EQ(second.exit_code, 2) << second.output;  // refused with 1008: a configuration error
  EXPECT_NE(second.output.find("another agent with id box1 is connected"), std::string::npos)
      << second.output;
  EXPECT_TRUE(serve_->wait_for_log("two agents share id box1", 5s)) << serve_->log();
  EXPECT_TRUE(first.running()) << first.log();
  const json a = agent_json("box1");
  EXPECT_EQ(a["instance_id"], instance);
  EXPECT_TRUE(a["connected"].get<bool>());
  auto r = schedrig("run" + server_flags() + " --agent box1 --wait --plan " +
                    write_plan("p.yaml", plan_yaml(1, 0.1)));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(count("SELECT count(DISTINCT instance_id) FROM envelopes WHERE agent_id = 'box1'"), 1)
      << "the refused instance stored something";
}

// The pids of `parent`'s children, from /proc/*/stat.
std::vector<pid_t> children_of(pid_t parent) {
  std::vector<pid_t> out;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string name = e.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string stat = read_file(e.path() / "stat");
    const auto close = stat.rfind(')');
    if (close == std::string::npos) continue;
    int ppid = 0;
    char state = 0;
    if (std::sscanf(stat.c_str() + close + 1, " %c %d", &state, &ppid) == 2 && ppid == parent)
      out.push_back(std::stoi(name));
  }
  return out;
}

bool has_token_like(const std::string& s) {
  return std::regex_search(s, std::regex("[0-9a-f]{64}"));
}

// Attack: lab-token theft. While `schedrig lab` runs, its agent's command
// line and environment hold no token; a client on the lab's port without the
// token gets 401 and cannot end the run. (A baseline-only plan: no real knob.)
TEST_F(ControlPlaneE2E, LabTokenIsNotOnTheAgentsCommandLineAndStrangersCannotEndTheRun) {
  const std::string plan =
      write_plan("lab.yaml",
                 "name: lab-e2e\niterations: 3\nduration_s: 0.8\nsample_hz: 0\n"
                 "quiet: {timeout_s: 0, disturbance: false}\ncases: [{name: forks, workload: fork, "
                 "params: {workers: "
                 "1}}]\n");
  ChildProcess lab({bin("schedrig"), "lab", "--plan", plan, "--db", dir_.file("lab.db")},
                   dir_.file("lab.log"));
  pid_t agent = -1;
  ASSERT_TRUE(eventually([&] {
    for (pid_t c : children_of(lab.pid()))
      if (read_file(fmt::format("/proc/{}/cmdline", c)).find("connect") != std::string::npos)
        agent = c;
    return agent > 0;
  })) << lab.log();
  std::string cmdline = read_file(fmt::format("/proc/{}/cmdline", agent));
  const std::string environ_text = read_file(fmt::format("/proc/{}/environ", agent));
  std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
  EXPECT_FALSE(has_token_like(cmdline)) << cmdline;
  EXPECT_EQ(cmdline.find("--token "), std::string::npos) << cmdline;
  EXPECT_NE(cmdline.find("--token-fd"), std::string::npos) << cmdline;
  EXPECT_FALSE(has_token_like(environ_text)) << "a token-like value in the agent's environment";
  EXPECT_EQ(environ_text.find("TOKEN"), std::string::npos);
  // Nor in lab's own command line or environment.
  EXPECT_FALSE(has_token_like(read_file(fmt::format("/proc/{}/cmdline", lab.pid()))));
  EXPECT_FALSE(has_token_like(read_file(fmt::format("/proc/{}/environ", lab.pid()))));

  std::smatch m;
  ASSERT_TRUE(std::regex_search(cmdline, m, std::regex("ws://127\\.0\\.0\\.1:([0-9]+)")))
      << cmdline;
  const auto lab_port = static_cast<unsigned short>(std::stoi(m[1]));
  EXPECT_EQ(testing::upgrade_status(lab_port, ""), 401u);
  EXPECT_EQ(testing::upgrade_status(lab_port, std::string(64, 'f')), 401u);
  testing::AgentClient stranger(lab_port, "");
  EXPECT_TRUE(stranger.error()) << "a client without the token was upgraded";

  ASSERT_TRUE(lab.wait_for_exit(60s).has_value()) << lab.log();
  EXPECT_EQ(lab.wait_for_exit(0ms), 0) << lab.log();
  auto js = schedrig("results --json --db " + dir_.file("lab.db"));
  ASSERT_EQ(js.exit_code, 0) << js.output;
  const json j = json::parse(js.output);
  ASSERT_EQ(j["runs"].size(), 1u);
  EXPECT_EQ(j["runs"][0]["status"], "ok");
  EXPECT_EQ(j["runs"][0]["iterations"].size(), 3u) << "the run ended early";
}

// Control characters in agent-supplied strings and labels are escaped in
// text output, local (--db) and remote (--server): never a raw ESC or BEL.
TEST_F(ControlPlaneE2E, ControlCharactersAreEscapedInTextOutput) {
  start_agent("box1");
  auto r = run_command(
      fmt::format("timeout --foreground 60 {} run{} --agent box1 --wait --plan {} "
                  "--label \"note=$(printf 'x\\033]0;pwned\\007y')\"",
                  bin("schedrig"), server_flags(), write_plan("p.yaml", plan_yaml(1, 0.1))));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string run = run_id_in(r.output, "box1");
  ASSERT_FALSE(run.empty()) << r.output;
  EXPECT_FALSE(has_raw_control(r.output)) << r.output;
  const std::string escaped = "x\\e]0;pwned\\x07y";
  for (const std::string& where : {server_flags(), " --db " + db()}) {
    auto res = schedrig("results " + run + where);
    ASSERT_EQ(res.exit_code, 0) << where << "\n" << res.output;
    EXPECT_FALSE(has_raw_control(res.output)) << where << "\n" << res.output;
    EXPECT_NE(res.output.find(escaped), std::string::npos) << where << "\n" << res.output;
  }
  auto q = schedrig("queue --all" + server_flags());
  EXPECT_FALSE(has_raw_control(q.output)) << q.output;
  EXPECT_NE(q.output.find(escaped), std::string::npos) << q.output;
  // The JSON keeps the label as it was given.
  auto js = schedrig("results " + run + " --json" + server_flags());
  EXPECT_EQ(json::parse(js.output)["runs"][0]["labels"]["note"], "x\x1b]0;pwned\x07y");

  // An agent (box2, its own token) whose Hello carries ESC sequences.
  auto c = raw_agent("box2");
  ASSERT_FALSE(c->error());
  v1::Envelope h = testing::hello("box2", 1, "evil-instance");
  h.mutable_hello()->set_hostname("evil\x1b[2J");
  h.mutable_hello()->set_kernel_release("6.6\x1b]0;pwned\x07");
  c->send(h);
  ASSERT_TRUE(c->read().has_ack());
  for (const std::string& where : {server_flags(), " --db " + db()}) {
    auto ag = schedrig("agents" + where);
    ASSERT_EQ(ag.exit_code, 0) << where << "\n" << ag.output;
    EXPECT_FALSE(has_raw_control(ag.output)) << where << "\n" << ag.output;
    EXPECT_NE(ag.output.find("6.6\\e]0;pwned\\x07"), std::string::npos) << where << "\n"
                                                                        << ag.output;
  }
  const std::string log = serve_->log();
  EXPECT_FALSE(has_raw_control(log)) << "serve logged a raw control byte";
}

}  // namespace
}  // namespace schedrig
