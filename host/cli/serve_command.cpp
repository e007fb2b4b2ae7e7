// `schedrig serve`: the server (docs/architecture.md "Server"): agents dial
// ws[s]://ADDR:PORT/agent, operators use /api/v1/...; tokens always.
#include <spdlog/spdlog.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <functional>
#include <thread>

#include "common/cli_error.h"
#include "common/printable.h"
#include "common/wire_names.h"
#include "host/cli/commands.h"
#include "host/cli/serve_settings.h"
#include "host/collector/collector.h"
#include "host/control/control.h"
#include "host/control/fan_out_events.h"
#include "host/metrics/server_metrics.h"
#include "host/server/listener.h"
#include "host/store/default_db_path.h"
#include "host/store/store.h"

namespace schedrig::host {
namespace {

// Logs what agents do; the store already has it all.
class ServeEvents : public collector::CollectorEvents {
 public:
  void on_stored(const schedrig::v1::Envelope& env) override {
    const std::string agent = printable(env.agent_id());
    if (env.has_hello()) {
      spdlog::info("agent {}: hello from {} ({})", agent, printable(env.hello().hostname()),
                   printable(env.hello().kernel_release()));
    } else if (env.has_run_started()) {
      spdlog::info("agent {}: run {} started", agent, printable(env.run_started().run_id()));
    } else if (env.has_run_finished()) {
      const auto& done = env.run_finished();
      spdlog::info("agent {}: run {} finished {}{}", agent, printable(done.run_id()),
                   status_name(done.status()),
                   done.reason().empty() ? "" : ": " + printable(done.reason()));
    } else if (env.has_error()) {
      spdlog::warn("agent {}: error: {}", agent, printable(env.error().message()));
    }
  }
};

// How long serve waits, after SIGINT/SIGTERM, for its agents' close handshakes.
constexpr std::chrono::seconds kCloseGrace{3};

// The bound, listening acceptor for `endpoint`, made before the store is
// opened so a busy port leaves no store behind. Throws CliError
// (kUnreachable) naming the address.
boost::asio::ip::tcp::acceptor bind_listen_address(boost::asio::io_context& ioc,
                                                   const boost::asio::ip::tcp::endpoint& endpoint) {
  try {
    return server::listen_on(ioc, endpoint);
  } catch (const server::ServerError& e) {
    throw CliError(ErrorKind::kUnreachable, e.what());
  }
}

// The listener of `s` on `acceptor`: tokens, TLS, limits.
std::unique_ptr<server::Listener> make_listener(
    boost::asio::io_context& ioc, const ServeSettings& s, boost::asio::ip::tcp::acceptor acceptor,
    std::shared_ptr<boost::asio::ssl::context> tls, const auth::TokenSet& tokens,
    collector::Collector& agents, server::ApiHandler& api) {
  server::ServerOptions so;
  so.endpoint = acceptor.local_endpoint();
  so.tls = std::move(tls);
  so.tokens = &tokens;
  so.agents = &agents;
  so.api = &api;
  so.max_connections = s.max_connections;
  so.max_pending_per_peer = s.max_pending_per_peer;
  return std::make_unique<server::Listener>(ioc, std::move(so), std::move(acceptor));
}

void log_start(const server::Listener& listener, const ServeSettings& s, const store::Store& store,
               std::size_t tokens) {
  const std::string at = server::endpoint_text(listener.local_endpoint());
  const char* ws = s.tls_cert.empty() ? "ws" : "wss";
  const char* http = s.tls_cert.empty() ? "http" : "https";
  spdlog::info(
      "serving on {}: agents {}://{}/agent, API {}://{}/api/v1/, {} token(s), into {}; at most {} "
      "connections, {} per address before a token is accepted",
      at, ws, at, http, at, tokens, store.path(), s.max_connections, s.max_pending_per_peer);
  if (s.insecure && s.tls_cert.empty()) {
    spdlog::warn("--insecure: no TLS; tokens and envelopes cross the network in the clear");
  }
}

void run_serve(const ServeSettings& s) {
  const auto endpoint = checked_endpoint(s);
  const auth::TokenSet tokens = load_serve_tokens(s);
  auto tls = serve_tls_context(s);  // a bad key or certificate is refused before the store opens
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::acceptor acceptor =
      bind_listen_address(ioc, endpoint);  // so is a busy port
  std::unique_ptr<store::Store> store;
  try {
    store = std::make_unique<store::Store>(s.db.empty() ? store::default_db_path() : s.db);
  } catch (const std::exception& e) {
    throw CliError(ErrorKind::kUsage, e.what());
  }
  ServeEvents events;
  metrics::ServerMetrics server_metrics;  // GET /metrics
  // The queue and the API (docs/architecture.md "Queue"); it hears every event first.
  control::ControlOptions co;
  co.interrupt_after = std::chrono::seconds(s.interrupt_after_s);
  co.metrics = &server_metrics;
  control::Control control(*store, ioc.get_executor(), co);
  control::FanOutEvents fan_out({&control, &events, &server_metrics});
  collector::CollectorOptions collector_options;
  collector_options.writer.on_committed = [&server_metrics](std::chrono::nanoseconds latency) {
    server_metrics.envelope_committed(latency);
  };
  collector::Collector agents(*store, fan_out, collector_options);
  std::unique_ptr<server::Listener> listener =
      make_listener(ioc, s, std::move(acceptor), std::move(tls), tokens, agents, control);
  listener->start();
  log_start(*listener, s, *store, tokens.size());
  boost::asio::signal_set signals(ioc, SIGINT, SIGTERM);
  boost::asio::steady_timer drain(ioc);
  std::chrono::steady_clock::time_point give_up;  // set when the signal comes
  std::function<void()> wait_for_closes = [&] {
    if (listener->open_connections() == 0 || std::chrono::steady_clock::now() >= give_up) {
      return ioc.stop();
    }
    drain.expires_after(std::chrono::milliseconds(50));
    drain.async_wait([&](boost::system::error_code) { wait_for_closes(); });
  };
  signals.async_wait([&](boost::system::error_code, int sig) {
    // Every agent gets a close frame, 1001 going away (it keeps its run and
    // reconnects to the next serve), before the process goes; a peer that
    // never answers waits kCloseGrace.
    spdlog::info("signal {}: closing {} connection(s), then stopping", sig,
                 listener->open_connections());
    give_up = std::chrono::steady_clock::now() + kCloseGrace;
    control.stopping("serve stopped");
    agents.close_going_away_on_stop();
    listener->stop();
    wait_for_closes();
  });
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < s.threads; ++i) pool.emplace_back([&] { ioc.run(); });
  ioc.run();
  for (auto& t : pool) t.join();
}

// Flags whose presence on the command line decides over --config.
constexpr const char* kSettledFlags[] = {
    "--listen",
    "--db",
    "--tokens",
    "--tls-cert",
    "--tls-key",
    "--max-connections",
    "--max-pending-per-peer",
    "--insecure",
    "--threads",
    "--interrupt-after",
};

}  // namespace

void add_serve_command(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<ServeFlags>();
  ServeSettings* o = &flags->values;
  auto* cmd = app.add_subcommand(
      "serve",
      "run the server: agents dial ws[s]://ADDR:PORT/agent with an agent token, operators use "
      "/api/v1/ with an operator token; every envelope is stored raw in SQLite (WAL), its tables "
      "derived, then acked. Stops on SIGINT/SIGTERM");
  cmd->add_option("--config", flags->config,
                  "YAML file of settings, keys as the flags name them ('-' as '_': listen, db, "
                  "tokens, tls_cert, tls_key, max_connections, max_pending_per_peer, insecure, "
                  "threads, interrupt_after_s); flags win; an "
                  "unknown key is an error. Only read when given (the packages pass --config "
                  "/etc/schedrig/serve.yaml)");
  cmd->add_option("--listen", o->listen,
                  "ADDR:PORT to listen on (default 127.0.0.1:7878); not loopback: TLS or "
                  "--insecure");
  cmd->add_option("--db", o->db, "SQLite file (default: the lab's schedrig.db)");
  cmd->add_option("--tokens", o->tokens,
                  "tokens file, owner-only (default: STATE_DIR/tokens; `schedrig token new`)");
  cmd->add_option("--tls-cert", o->tls_cert, "PEM certificate chain (with --tls-key)");
  cmd->add_option("--tls-key", o->tls_key, "PEM private key of --tls-cert");
  cmd->add_option("--max-connections", o->max_connections,
                  "open connections at most (default 4096); more are closed at once")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1'000'000}));
  cmd->add_option("--max-pending-per-peer", o->max_pending_per_peer,
                  "connections from one address (IPv6: one /64) that have not sent an accepted "
                  "token yet, at most (default 64); more are closed at once. Over 1024 from all "
                  "addresses the oldest is closed. Agents past their upgrade do not count")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1'000'000}));
  cmd->add_flag("--insecure", o->insecure,
                "serve plain TCP on a non-loopback address (tokens are still required)");
  cmd->add_option("--threads", o->threads, "I/O threads")->check(CLI::Range(1u, 64u));
  cmd->add_option("--interrupt-after", o->interrupt_after_s,
                  "S: a run whose agent stays disconnected S seconds is marked interrupted "
                  "(default 3600; a RunFinished that comes later still sets its status). While "
                  "disconnected, the run resumes when the same agent instance is back")
      ->check(CLI::Range(1u, 30u * 24u * 3600u));
  cmd->callback([cmd, flags, &exit_code] {
    for (const char* flag : kSettledFlags) {
      if (cmd->count(flag) > 0) flags->given.insert(flag);
    }
    run_serve(serve_settings(*flags));
    exit_code = kExitOk;
  });
}

}  // namespace schedrig::host
