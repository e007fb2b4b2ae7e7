#include "host/cli/watch_printer.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/printable.h"
#include "host/report/results_json.h"

namespace schedrig::host {

WatchPrinter::WatchPrinter(std::ostream& out, bool json, std::string run_id, unsigned planned)
    : out_(out), json_(json), run_id_(std::move(run_id)), planned_(planned), lines_(out, planned) {}

void WatchPrinter::start(const std::string& status) {
  if (json_) return;
  out_ << printable(fmt::format("run {} ({}, {} iterations planned)", run_id_, status, planned_))
       << "\n";
  lines_.header();
}

void WatchPrinter::print(const store::RunProgress& p) {
  auto s = p.samples.begin();
  auto it = p.iterations.begin();
  while (s != p.samples.end() || it != p.iterations.end()) {
    if (it == p.iterations.end() || (s != p.samples.end() && s->position <= it->position)) {
      sample(*s++);
    } else {
      iteration(*it++);
    }
  }
}

void WatchPrinter::sample(const store::SampleRecord& s) {
  if (!json_) return lines_.sample(s);
  nlohmann::json j = report::sample_json(s);
  j["event"] = "sample";
  out_ << j.dump() << "\n";
}

void WatchPrinter::iteration(const store::IterationRecord& it) {
  ++results_;
  if (!json_) return lines_.iteration(it);
  nlohmann::json j = report::iteration_json(it);
  j["event"] = "iteration";
  j["run_id"] = run_id_;
  j["position"] = it.position;
  out_ << j.dump() << "\n";
}

void WatchPrinter::finish(const std::string& status, const std::string& reason,
                          unsigned long long dropped_samples) {
  if (json_) {
    nlohmann::json j{{"event", "run_finished"}, {"run_id", run_id_}, {"status", status}};
    if (!reason.empty()) j["reason"] = reason;
    if (dropped_samples > 0) j["dropped_samples"] = dropped_samples;
    out_ << j.dump() << "\n";
    return;
  }
  const std::string dropped =
      dropped_samples > 0 ? fmt::format("; {} samples dropped", dropped_samples) : "";
  if (reason.empty()) {
    out_ << printable(fmt::format("run {} {}: {} iteration results{}", run_id_, status, results_,
                                  dropped))
         << "\n";
  } else {
    out_ << printable(fmt::format("run {} {}: {} ({} iteration results{})", run_id_, status, reason,
                                  results_, dropped))
         << "\n";
  }
}

}  // namespace schedrig::host
