// `schedrig serve`: the collector. Agents dial ws://ADDR:PORT/agent.
#include <spdlog/spdlog.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <functional>
#include <thread>

#include "common/cli_error.h"
#include "common/printable.h"
#include "host/cli/commands.h"
#include "host/collector/collector.h"
#include "host/store/default_db_path.h"
#include "host/store/store.h"

namespace schedrig::host {
namespace {

struct ServeOptions {
  std::string listen = "127.0.0.1:7878";
  std::string db;
  unsigned threads = 2;
};

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
      spdlog::info("agent {}: run {} finished", agent, printable(env.run_finished().run_id()));
    } else if (env.has_error()) {
      spdlog::warn("agent {}: error: {}", agent, printable(env.error().message()));
    }
  }
};

// How long serve waits, after SIGINT/SIGTERM, for its agents' close handshakes.
constexpr std::chrono::seconds kCloseGrace{3};

void run_serve(const ServeOptions& o) {
  std::unique_ptr<store::Store> store;
  boost::asio::ip::tcp::endpoint endpoint;
  try {
    endpoint = collector::parse_listen_address(o.listen);
    store = std::make_unique<store::Store>(o.db.empty() ? store::default_db_path() : o.db);
  } catch (const std::exception& e) {
    throw CliError(ErrorKind::kUsage, e.what());
  }
  boost::asio::io_context ioc;
  ServeEvents events;
  std::unique_ptr<collector::Collector> c;
  try {
    c = std::make_unique<collector::Collector>(ioc, endpoint, *store, events);
  } catch (const collector::CollectorError& e) {
    throw CliError(ErrorKind::kUnreachable, e.what());
  }
  c->start();
  const auto at = c->local_endpoint();
  spdlog::info(
      "collecting on ws://{}:{}/agent into {}",
      at.address().is_v6() ? "[" + at.address().to_string() + "]" : at.address().to_string(),
      at.port(), store->path());
  boost::asio::signal_set signals(ioc, SIGINT, SIGTERM);
  boost::asio::steady_timer drain(ioc);
  std::chrono::steady_clock::time_point give_up;  // set when the signal comes
  std::function<void()> wait_for_closes = [&] {
    if (c->open_sessions() == 0 || std::chrono::steady_clock::now() >= give_up) return ioc.stop();
    drain.expires_after(std::chrono::milliseconds(50));
    drain.async_wait([&](boost::system::error_code) { wait_for_closes(); });
  };
  signals.async_wait([&](boost::system::error_code, int sig) {
    // Every agent gets a close frame (its run aborts and restores its knobs)
    // before the process goes; a peer that never answers waits kCloseGrace.
    spdlog::info("signal {}: closing {} agent connection(s), then stopping", sig,
                 c->open_sessions());
    give_up = std::chrono::steady_clock::now() + kCloseGrace;
    c->stop();
    wait_for_closes();
  });
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < o.threads; ++i) pool.emplace_back([&] { ioc.run(); });
  ioc.run();
  for (auto& t : pool) t.join();
}

}  // namespace

void add_serve_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<ServeOptions>();
  auto* cmd = app.add_subcommand(
      "serve",
      "run the collector: agents dial ws://ADDR:PORT/agent; every envelope is stored raw in "
      "SQLite (WAL), its tables derived, then acked. Stops on SIGINT/SIGTERM");
  cmd->add_option("--listen", o->listen, "ADDR:PORT to listen on (default 127.0.0.1:7878)");
  cmd->add_option("--db", o->db, "SQLite file (default: the lab's schedrig.db)");
  cmd->add_option("--threads", o->threads, "I/O threads")->check(CLI::Range(1u, 64u));
  cmd->callback([o, &exit_code] {
    run_serve(*o);
    exit_code = kExitOk;
  });
}

}  // namespace schedrig::host
