// What the control plane reads from the store besides the queue
// (docs/architecture.md "Control plane"): an agent's last Hello and Topology,
// and a run's envelopes for the events long poll. A StateReader has its own
// read-only connection, so a long poll never waits on the Store's mutex.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "host/store/records.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::store {

namespace sqlite {
class Db;
}

// An agent as its latest instance last said it was.
struct AgentState {
  std::string instance_id;
  schedrig::v1::Hello hello;
  bool has_topology = false;
  schedrig::v1::Topology topology;  // meaningful when has_topology
};

// One stored envelope of a run, with the store's envelope id.
struct RunEvent {
  long long id = 0;
  schedrig::v1::Envelope env;
};

// One scan of a run's envelopes: those found, and where the next scan starts.
struct RunEventsPage {
  std::vector<RunEvent> events;
  long long next_after = 0;  // the last envelope id scanned (or `after` when none)
  bool more = false;         // envelopes beyond next_after were not scanned yet
};

// The store's records of an IterationResult and a Sample as they arrived.
IterationRecord iteration_record(const schedrig::v1::IterationResult& result);
SampleRecord sample_record(const schedrig::v1::Sample& sample);

class StateReader {
 public:
  // Opens `path` read-only (it must exist: the Store created it). Throws StoreError.
  explicit StateReader(const std::string& path);
  ~StateReader();
  StateReader(const StateReader&) = delete;
  StateReader& operator=(const StateReader&) = delete;

  // The Hello and Topology of `agent_id`'s latest instance; nullopt when the
  // agent never said Hello. Throws StoreError.
  std::optional<AgentState> agent_state(const std::string& agent_id) const;

  // The envelopes of run `run_id` sent by `agent_id` with id > `after`, in id
  // order, looking at no more than `max_scan` envelope rows past `after`.
  // Throws StoreError.
  RunEventsPage run_events(const std::string& agent_id, const std::string& run_id, long long after,
                           int max_scan) const;

  // The largest envelope id received before `received_at_ns` (0 when none):
  // a run submitted then has no envelope at or below it. Ids grow with
  // arrival, so this is a binary search over ids. Throws StoreError.
  long long last_envelope_before(long long received_at_ns) const;

 private:
  std::unique_ptr<sqlite::Db> db_;
  mutable std::mutex mu_;
};

}  // namespace schedrig::store
