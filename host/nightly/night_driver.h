// Running one agent's part of a night (docs/nightly.md "The schedule"):
// each slot not done yet boots its kernel through the server (POST
// /api/v1/agents/ID/boot), waits for the agent to come back with a new
// boot_id on the release expected, then queues every plan and the selftest
// (labels night, kernel, boot, slot) and waits for each to end. Every step
// is written to the NightState before the next, so a night can resume.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <string>

#include "host/client/server_target.h"
#include "host/nightly/lab_file.h"
#include "host/nightly/night_agents.h"
#include "host/nightly/night_state.h"

namespace schedrig::nightly {

struct NightContext {
  const LabFile* lab = nullptr;
  client::ServerTarget target;  // each agent's thread has its own client
  NightState* state = nullptr;
  // What each boot runs, in order: the lab's plans, then the selftest
  // (night_plans).
  std::vector<LabPlan> plans;
  std::chrono::seconds boot_timeout{900};      // a box not back by then is lost
  std::chrono::seconds run_timeout{6 * 3600};  // a run not ended by then is given up
  std::chrono::milliseconds poll{1000};
  // Set by SIGINT/SIGTERM (common/stop_signal.h): the agent's night stops
  // at its next request or poll, leaving its slot as it stood for --resume.
  const std::atomic<bool>* stop = nullptr;
  // One progress line ("box1: slot 2/4 fake-b boot 1/2: booted ..."); called
  // from agents' threads, so it must be thread-safe.
  std::function<void(const std::string&)> progress;
};

// Runs `agent`'s slots that are not done. Returns "" when every slot ran,
// else why the agent's night stopped (the slot is marked failed with it):
// "box1: slot 3 (fake-b): did not come back within 900 s", "... came back
// on 6.1.0 instead of fake-b (6.1.0-fake-b)", a boot the server or agent
// refused, a run given up. Never throws for the server's answers; a lost
// server ends the slot the same way. Stopped by `stop`: "interrupted", the
// slot left as it stood.
std::string run_agent_night(const NightContext& ctx, const NightAgent& agent);

// The lab's plans, then the selftest named "selftest" when `selftest_yaml`
// is not "": what every boot runs and what is checked before the first.
std::vector<LabPlan> night_plans(const LabFile& lab, const std::string& selftest_yaml);

// The selftest plan (docs/nightly.md "Selftest"): a short wakeup case as
// found and beside an antagonist of 80% on its PUs, interleaved.
std::string builtin_selftest_yaml();

}  // namespace schedrig::nightly
