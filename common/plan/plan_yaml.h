// Plan files (docs/architecture.md "Plan files (YAML)"): YAML in, a validated
// schedrig::v1::Plan out. Shared by host (which sends it as StartRun) and
// agent (`run --plan F`).
#pragma once

#include <map>
#include <stdexcept>
#include <string>

#include "schedrig/v1/plan.pb.h"

namespace schedrig {

// A plan that cannot be used. what() is one line:
// "FILE:LINE: key 'cases[1].params': must be a map of scalars".
// TEMPORARY STUB (P5 control) of P6's fields until P6 lands.
class PlanError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  PlanError(std::string file, int line, std::string key, std::string value, const std::string& why)
      : std::runtime_error(file + ":" + std::to_string(line) + ": key '" + key + "': " + why),
        file_(std::move(file)), line_(line), key_(std::move(key)), value_(std::move(value)) {}
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& key() const { return key_; }
  const std::string& value() const { return value_; }

 private:
  std::string file_;
  int line_ = 0;
  std::string key_;
  std::string value_;
};

struct PlanLines {
  std::map<std::string, int> lines;
  int line_of(const std::string& key) const {
    auto it = lines.find(key);
    return it == lines.end() ? 0 : it->second;
  }
};

// Parses YAML text. `source` names it in errors (a path, or "<built-in>").
// Checks: unknown keys, duplicate keys, wrong types, impossible values
// (iterations 1..100000, duration_s > 0, warmup_s/cooldown_s >= 0,
// sample_hz in [0, 20] (0 = no sampling), quiet {max_runnable, hold_s, timeout_s},
// starvation {idle_after_pct, lookahead, wait_share_pct, idle_pct}, order
// interleaved|blocked|shuffled, unique case and variant names, at least one case). No variants
// means one: "baseline". Throws PlanError.
schedrig::v1::Plan parse_plan_yaml(const std::string& text, const std::string& source,
                                   PlanLines* lines = nullptr);

// The quiet-box check a plan gets when it has no `quiet:` key (or leaves
// some of its keys out): max_runnable 1, hold_s 1, timeout_s 10.
schedrig::v1::QuietCheck default_quiet_check();

// Reads and parses a plan file. Throws PlanError (also when unreadable).
schedrig::v1::Plan load_plan_file(const std::string& path);

// Name of an order value as plans spell it ("interleaved").
std::string order_name(schedrig::v1::Order order);

}  // namespace schedrig
