// What a night has done so far, kept in OUT/night.json after every step
// (docs/nightly.md "Resuming"): per agent, each slot's state, the boot it
// ran on and the runs it queued. `nightly --resume OUT` reads it back and
// carries on from the first slot not done. Thread-safe: one mutex, agents'
// threads each update their own rows.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/nightly/night_schedule.h"

namespace schedrig::nightly {

// One slot of one agent.
struct SlotRecord {
  NightSlot slot;
  std::string state = "pending";            // pending, booting, running, done, failed
  std::string reason;                       // why it failed
  std::string boot_id, release;             // what the agent ran during it
  std::map<std::string, std::string> runs;  // plan file name (or "selftest") -> run_id
};

class NightState {
 public:
  // A fresh night: `night` names it (an RFC 3339 UTC time), each agent with
  // `slots`.
  NightState(std::string path, std::string night, std::string lab,
             const std::vector<std::string>& agents, const std::vector<NightSlot>& slots);
  // Reads OUT/night.json. Throws CliError(kUsage) naming the file when it
  // is missing, not JSON or not a night.
  static std::unique_ptr<NightState> load(const std::string& path);

  const std::string& night() const { return night_; }
  const std::string& lab() const { return lab_; }
  std::vector<std::string> agents() const;
  // A copy of `agent`'s slots.
  std::vector<SlotRecord> slots(const std::string& agent) const;
  // Replaces `agent`'s slot `r.slot.index` and writes the file (a
  // temporary file, then rename(2)). Throws std::runtime_error when it
  // cannot be written.
  void update(const std::string& agent, const SlotRecord& r);

  nlohmann::json to_json() const;

 private:
  NightState() = default;
  void save_locked() const;
  nlohmann::json json_locked() const;

  std::string path_, night_, lab_;
  mutable std::mutex mu_;
  std::map<std::string, std::vector<SlotRecord>> agents_;
};

}  // namespace schedrig::nightly
