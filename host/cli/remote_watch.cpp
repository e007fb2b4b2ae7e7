#include "host/cli/remote_watch.h"

#include <iostream>

#include <fmt/format.h>

#include "common/error.h"
#include "common/exit_codes.h"
#include "common/printable.h"
#include "host/cli/watch_printer.h"
#include "host/client/remote_runs.h"
#include "host/client/run_events.h"

namespace schedrig::host {
namespace {

// Hands one event to the printer; an agent's error or line (a wait for the
// knob lock) goes to stderr.
void show(WatchPrinter& printer, const client::RunEvent& event, const std::string& run_id) {
  if (const auto* s = std::get_if<store::SampleRecord>(&event)) return printer.sample(*s);
  if (const auto* it = std::get_if<store::IterationRecord>(&event)) return printer.iteration(*it);
  if (const auto* e = std::get_if<client::RunErrorEvent>(&event)) {
    std::cerr << printable(fmt::format("run {}: agent error {}: {}", run_id, e->code, e->message))
              << "\n";
  }
  if (const auto* l = std::get_if<client::RunLogEvent>(&event)) {
    std::cerr << printable(fmt::format("run {}: agent: {}", run_id, l->message)) << "\n";
  }
  if (const auto* c = std::get_if<client::RunStateEvent>(&event)) {
    std::cerr << printable(client::run_state_line(run_id, *c)) << "\n";
  }
}

int follow(client::ApiClient& client, const std::string& run, bool json) {
  const store::RunRecord r = client::fetch_run(client, run);
  WatchPrinter printer(std::cout, json, r.run_id, r.planned_iterations);
  printer.start(r.status);
  client::RunFollower follower(client, r.run_id);
  client::follow_to_end(follower, kLongPollS, std::cerr, [&](const client::RunEvent& event) {
    show(printer, event, r.run_id);
    std::cout << std::flush;
  });
  printer.finish(follower.state(), follower.reason(), follower.dropped_samples());
  return kExitOk;
}

}  // namespace

int watch_on_server(client::ApiClient& client, const std::string& run, bool json) {
  client.stop_on_signals();
  try {
    return follow(client, run, json);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kInterrupted) throw;
    std::cout << std::flush;
    return kExitInterrupted;
  }
}

}  // namespace schedrig::host
