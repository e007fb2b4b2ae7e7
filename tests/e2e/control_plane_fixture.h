// The control plane's end-to-end fixture (docs/architecture.md "Control
// plane"): the built `schedrig serve` over TLS with a throwaway CA and a
// tokens file from `schedrig token new`, real `schedrig-agent connect`
// processes each with a fake knob root, and the CLI as a user runs it.
// Shared by control_plane_e2e_test.cpp and nightly_e2e_test.cpp.
#pragma once

#include <dirent.h>
#include <signal.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/ids.h"
#include "tests/support/child_process.h"
#include "tests/support/raw_agent_client.h"
#include "tests/support/run_command.h"
#include "tests/support/test_pki.h"

namespace schedrig::e2e {

using namespace std::chrono_literals;
using nlohmann::json;
using testing::bin;
using testing::ChildProcess;
using testing::CommandResult;
using testing::run_command;
using testing::TempDir;
using testing::TlsAgentClient;
namespace http = testing::http;
namespace websocket = testing::websocket;

inline std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::string trimmed(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  return s;
}

// Polls `done` every 50 ms for at most `limit`.
template <class F>
bool eventually(F done, std::chrono::milliseconds limit = 15s) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(50ms);
  }
  return true;
}

// A short plan: fork with one worker, `iterations` x `duration_s` per
// variant, no sampling, no quiet-box wait; the second variant turns the
// (fake) autogroup sysctl off.
inline std::string plan_yaml(int iterations, double duration_s,
                             const std::string& order = "interleaved") {
  return fmt::format(
      "name: e2e\niterations: {}\nduration_s: {}\norder: {}\nsample_hz: 0\n"
      "quiet: {{timeout_s: 0, disturbance: false}}\n"
      "cases: [{{name: forks, workload: fork, params: {{workers: 1}}}}]\n"
      "variants: [{{name: baseline}}, {{name: off, sysctl: {{kernel.sched_autogroup_enabled: "
      "0}}}}]\n",
      iterations, duration_s, order);
}

constexpr const char* kAutogroup = "root/proc/sys/kernel/sched_autogroup_enabled";

// No ESC, BEL or other C0 control byte but newline.
inline bool has_raw_control(const std::string& s) {
  for (unsigned char c : s)
    if ((c < 0x20 && c != '\n') || c == 0x7f) return true;
  return false;
}

class ControlPlaneE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    pki_ = testing::make_test_pki(dir_.path());
    tls_ = testing::client_context(pki_.ca_cert);
    tokens_ = dir_.file("tokens");
    for (const char* agent : {"box1", "box2"}) new_token(fmt::format("--agent {}", agent), agent);
    new_token("--operator alice", "alice");
    start_serve();
  }

  void TearDown() override {
    agents_.clear();  // SIGTERM (then SIGKILL) each agent, then serve
    if (serve_ && HasFailure()) std::cerr << "serve log:\n" << serve_->log();
    serve_.reset();
  }

  // Starts `agent` and a blocked 3 x 3 s run on it, and waits until the run
  // reaches its second variant (the fake autogroup knob 0): the run id, or
  // "" with a failure when the variant never applied.
  std::string run_until_the_knob_changes(const std::string& agent) {
    start_agent(agent);
    const std::string run = submit(agent, write_plan("p.yaml", plan_yaml(3, 3, "blocked")));
    if (run.empty()) return "";
    if (!eventually([&] { return knob(agent) == "0"; }, 30s)) {
      ADD_FAILURE() << "the variant never applied:\n" << agents_[agent]->log();
      return "";
    }
    return run;
  }

  // `schedrig token new OPTS` into the tokens file; the token to NAME.token (0600).
  void new_token(const std::string& opts, const std::string& name) {
    // A subshell: run_command's own 2>&1 must not send the note into the file.
    auto r =
        run_command(fmt::format("(umask 077; timeout --foreground 20 {} token new {} --tokens "
                                "{} > {} 2>/dev/null)",
                                bin("schedrig"), opts, tokens_, token_file(name)));
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  std::string token_file(const std::string& name) const { return dir_.file(name + ".token"); }
  std::string token(const std::string& name) const { return trimmed(read_file(token_file(name))); }

  // An empty knob root for a `connect` that is refused before it runs anything.
  std::string empty_root() const {
    std::filesystem::create_directories(dir_.file("empty-root"));
    return dir_.file("empty-root");
  }

  void start_serve() {
    serve_ = std::make_unique<ChildProcess>(
        std::vector<std::string>{host_bin_, "serve", "--listen", "127.0.0.1:0", "--tls-cert",
                                 pki_.server_cert, "--tls-key", pki_.server_key, "--tokens",
                                 tokens_, "--db", db()},
        dir_.file("serve.log"));
    ASSERT_TRUE(serve_->wait_for_log("serving on ", 10s)) << serve_->log();
    std::smatch m;
    const std::string log = serve_->log();
    ASSERT_TRUE(std::regex_search(log, m, std::regex("serving on 127\\.0\\.0\\.1:([0-9]+)")))
        << log;
    port_ = static_cast<unsigned short>(std::stoi(m[1]));
    ASSERT_NE(log.find("agents wss://"), std::string::npos) << log;
  }

  std::string db() const { return dir_.file("serve.db"); }
  std::string agent_dir(const std::string& id) const { return dir_.file(id); }
  std::string knob(const std::string& id) const {
    return trimmed(read_file(agent_dir(id) + "/" + kAutogroup));
  }

  // `schedrig-agent connect wss://.../agent --id ID` with its own fake knob
  // root (`root`, "" = a fresh one under the test's dir) and state dir;
  // returns once the server lists it connected. `config` ("" = none) is
  // given as --config.
  ChildProcess& start_agent(const std::string& id, const std::string& config = "",
                            const std::string& root = "") {
    std::filesystem::create_directories(agent_dir(id) + "/root/proc/sys/kernel");
    if (!std::filesystem::exists(agent_dir(id) + "/" + kAutogroup))
      std::ofstream(agent_dir(id) + "/" + kAutogroup) << "1\n";
    std::vector<std::string> argv = agent_cmd_;
    argv.insert(argv.end(),
                {"connect", agent_url(), "--id", id, "--token-file", token_file(id), "--ca",
                 pki_.ca_cert, "--root", root.empty() ? agent_dir(id) + "/root" : root,
                 "--state-dir", agent_dir(id) + "/state"});
    if (!config.empty()) argv.insert(argv.end(), {"--config", config});
    auto& p = agents_[id];
    p.reset();  // an earlier process of this id first
    p = std::make_unique<ChildProcess>(argv, dir_.file(id + ".log"));
    const bool up = eventually([&] {
      const json a = agent_json(id);
      return a.value("connected", false) && a.value("pus", 0) > 0;
    });
    EXPECT_TRUE(up) << id << " never showed up connected:\n" << p->log();
    return *p;
  }
  std::string agent_url() const { return fmt::format("wss://127.0.0.1:{}/agent", port_); }

  // An HTTP(S) request to the server with `token_name`'s token ("" = none).
  testing::HttpResult api(http::verb verb, const std::string& target,
                          const std::string& token_name = "alice", const std::string& body = "") {
    return testing::http_request(port_, verb, target, token_name.empty() ? "" : token(token_name),
                                 body, tls_.get());
  }
  json api_json(const std::string& target) {
    auto r = api(http::verb::get, target);
    EXPECT_EQ(r.status, 200u) << target << ": " << r.body;
    return r.status == 200 ? json::parse(r.body) : json::object();
  }
  json agent_json(const std::string& id) {
    for (const auto& a : api_json("/api/v1/agents").value("agents", json::array()))
      if (a["agent_id"] == id) return a;
    return json::object();
  }
  json queue_row(const std::string& run_id) {
    for (const auto& r : api_json("/api/v1/runs").value("runs", json::array()))
      if (r["run_id"] == run_id) return r;
    return json::object();
  }
  std::string run_state(const std::string& run_id) { return queue_row(run_id).value("state", ""); }
  bool wait_for_state(const std::string& run_id, const std::string& state,
                      std::chrono::milliseconds limit = 20s) {
    return eventually([&] { return run_state(run_id) == state; }, limit);
  }

  // `schedrig ARGS` bounded by `timeout --foreground`.
  CommandResult schedrig(const std::string& args, int timeout_s = 60) {
    return run_command(fmt::format("timeout --foreground {} {} {}", timeout_s, host_bin_, args));
  }
  // The flags of a command that talks to the server as `token_name`.
  std::string server_flags(const std::string& token_name = "alice") const {
    return fmt::format(" --server https://127.0.0.1:{} --ca {} --token-file {}", port_,
                       pki_.ca_cert, token_file(token_name));
  }
  std::string write_plan(const std::string& name, const std::string& yaml) {
    const std::string path = dir_.file(name);
    std::ofstream(path) << yaml;
    return path;
  }
  // `schedrig run --agent ID --plan P` (no --wait): the run id it printed.
  std::string submit(const std::string& agent, const std::string& plan,
                     const std::string& extra = "") {
    auto r = schedrig("run" + server_flags() + " --agent " + agent + " --plan " + plan + extra);
    EXPECT_EQ(r.exit_code, 0) << r.output;
    return run_id_in(r.output, agent);
  }
  static std::string run_id_in(const std::string& output, const std::string& agent) {
    std::smatch m;
    if (!std::regex_search(output, m, std::regex("run ([0-9a-f-]{36}) on " + agent + ":")))
      return "";
    return m[1];
  }

  // One number from the store (read-only, beside the live serve: WAL).
  long long count(const std::string& sql) const {
    sqlite3* h = nullptr;
    long long n = -1;
    if (sqlite3_open_v2(db().c_str(), &h, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
      sqlite3_busy_timeout(h, 2000);
      sqlite3_stmt* st = nullptr;
      if (sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
          sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
      sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return n;
  }
  long long envelopes(const std::string& where = "1") const {
    return count("SELECT count(*) FROM envelopes WHERE " + where);
  }

  // A raw agent over TLS as `token_name` ("" = no token).
  std::unique_ptr<TlsAgentClient> raw_agent(const std::string& token_name) {
    return std::make_unique<TlsAgentClient>(port_, token_name.empty() ? "" : token(token_name),
                                            tls_.get());
  }
  // Sends `env` (a write into a link the host already closed is fine) and
  // reads what comes back until the host closes.
  static testing::AgentReplies send_and_read(TlsAgentClient& c, const v1::Envelope& env) {
    try {
      c.send(env);
    } catch (const std::exception&) {
    }
    return c.read_until_closed();
  }
  // A raw agent as `token_name`: a well-formed Hello of `agent_id` and
  // `instance`, acked; then the test's envelopes.
  std::unique_ptr<TlsAgentClient> hello_as(const std::string& token_name,
                                           const std::string& agent_id,
                                           const std::string& instance) {
    auto c = raw_agent(token_name);
    EXPECT_FALSE(c->error()) << c->error().message();
    c->send(testing::hello(agent_id, 1, instance));
    EXPECT_TRUE(c->read().has_ack());
    return c;
  }
  static void expect_refused(const testing::AgentReplies& r, const char* what) {
    bool not_owner = false;
    for (const auto& e : r.envelopes)
      not_owner = not_owner || (e.has_error() && e.error().code() == v1::ERROR_NOT_OWNER);
    EXPECT_TRUE(not_owner) << what << ": no ERROR_NOT_OWNER back";
    EXPECT_EQ(r.code, websocket::close_code::policy_error) << what << ": " << r.reason;
  }

  // The host and agent command lines (a test's own build of them may stand in).
  std::string host_bin_ = bin("schedrig");
  std::vector<std::string> agent_cmd_ = {bin("schedrig-agent")};
  TempDir dir_;
  testing::TestPki pki_;
  std::shared_ptr<testing::asio::ssl::context> tls_;
  std::string tokens_;
  std::unique_ptr<ChildProcess> serve_;
  std::map<std::string, std::unique_ptr<ChildProcess>> agents_;
  unsigned short port_ = 0;
};

}  // namespace schedrig::e2e
