// The collector's one store writer (docs/architecture.md "Server"): sessions
// never call the store on their strand; they queue (envelope, bytes,
// completion) here, one thread takes up to max_batch items at a time, stores
// them in one transaction, and after the commit calls each completion (which
// posts back to its session's strand: the Ack goes out only then). The queue
// is bounded: when it is full submit() refuses and calls `on_room` once there
// is space again, so a session stops reading (backpressure; nothing is
// dropped).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "host/store/store.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::collector {

// What became of one envelope.
struct WriteOutcome {
  enum class Status {
    kStored,     // committed, new
    kDuplicate,  // already stored: nothing changed (acked again)
    kRefused,    // the store refused it for ownership: nothing stored
    kSkipped,    // refused alone (a run the queue does not know: a stale spool): nothing
                 // stored, the agent told with an Error, and acked so it is not resent
    kFailed,     // the store failed after every try: nothing stored
  };
  Status status = Status::kStored;
  std::string error;  // kRefused, kSkipped, kFailed: one line, for the host's log
  // kRefused, kSkipped, kFailed: what the agent is told (its own envelope only: no
  // store path, no other agent's ids).
  std::string peer_error;
};

struct WriteItem {
  std::shared_ptr<const schedrig::v1::Envelope> env;
  std::string raw;  // the bytes as received
  // Called once on the writer thread after the commit (or the failure).
  std::function<void(const WriteOutcome&)> done;
  bool replay_session = false;  // from a `?replay=1` session (store::IngestPolicy)
  std::chrono::steady_clock::time_point submitted{};  // set by submit(): ingest latency
};

struct StoreWriterOptions {
  std::size_t capacity = 4096;   // queued items, all sessions together
  std::size_t max_batch = 1024;  // items per transaction
  int attempts = 3;              // tries of a batch before its items fail
  // Run envelopes must belong to a queue row of their agent (the store's
  // IngestPolicy::require_assigned_run).
  bool require_assigned_run = true;
  // Called on the writer thread for each item stored for the first time,
  // with the time from submit() to its commit (serve's ingest latency
  // histogram); may be empty.
  std::function<void(std::chrono::nanoseconds)> on_committed;
};

// Thread-safe.
class StoreWriter {
 public:
  StoreWriter(store::Store& store, StoreWriterOptions options);
  ~StoreWriter();  // stop()
  StoreWriter(const StoreWriter&) = delete;
  StoreWriter& operator=(const StoreWriter&) = delete;

  // Queues `item` (moved from) and returns true while there is room. Else
  // returns false, leaves `item` as it was, and calls `on_room` once (on
  // the writer thread) when the queue has room again. After stop() the item
  // is taken and fails at once (kFailed).
  bool submit(WriteItem& item, std::function<void()> on_room);
  // Stores everything queued, then joins the thread. Idempotent.
  void stop();
  // Items waiting (not yet taken into a batch).
  std::size_t queued() const;
  // Tests: hold the writer before its next batch, and let it go.
  void pause();
  void resume();

 private:
  void loop();
  std::vector<WriteItem> take_batch();
  void write(std::vector<WriteItem>& batch);

  store::Store& store_;
  const StoreWriterOptions options_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<WriteItem> queue_;
  std::vector<std::function<void()>> waiting_for_room_;
  bool stopping_ = false;
  bool paused_ = false;
  std::thread thread_;
};

// Stores `items` (the one place that knows the store's batch and ownership
// API), trying up to `attempts` times; one outcome per item, in order.
std::vector<WriteOutcome> ingest_items(store::Store& store, const std::vector<WriteItem>& items,
                                       const StoreWriterOptions& options);

}  // namespace schedrig::collector
