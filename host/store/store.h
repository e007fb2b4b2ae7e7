// The host's results store (docs/architecture.md "Wire protocol", "Results model"): one
// SQLite file in WAL mode, created 0600. Every envelope is kept raw, unique on (agent_id,
// instance_id, seq), and the agents/instances/runs/iterations/metrics/samples
// tables are derived from it in the same transaction. Table `queue` holds the
// runs submitted to `serve`.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "host/store/ingest_policy.h"
#include "host/store/records.h"
#include "host/store/store_error.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::store {

// An open store file. Thread-safe: every call takes an internal mutex. Other
// processes may open the same file at the same time (WAL: readers never wait
// for the writer; writers wait up to 5 s for each other).
class Store {
 public:
  // Opens `path`, creating it if missing with mode 0600 whatever the umask
  // (its -wal and -shm take the same mode; ":memory:" works too; a symbolic
  // link is refused); sets WAL and
  // a 5000 ms busy timeout, then brings the schema up to this build's version.
  // Throws StoreError naming the path and the reason: cannot open, not a
  // SQLite database, schema newer than this build knows (both versions named).
  explicit Store(const std::string& path);

  // kReadOnly (readers: `results`, `compare`): the file must exist and hold
  // a schedrig schema of this build's version; nothing is created or
  // written, so a user without write access can read the lab's store.
  // Throws StoreError naming the path: missing, not a schedrig store,
  // schema older or newer than this build.
  enum class Mode { kReadWrite, kReadOnly };
  Store(const std::string& path, Mode mode);
  ~Store();
  Store(Store&&) noexcept;
  Store& operator=(Store&&) noexcept;
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  enum class Ingest { kStored, kDuplicate };

  // Stores `raw_bytes` (the envelope as received) and derives the tables from
  // `env`, in one transaction: all of it or nothing. An envelope whose
  // (agent_id, instance_id, seq) is already stored returns kDuplicate and
  // changes nothing. Results for a run not (yet) started are kept and show up
  // once its RunStarted arrives; a second result for the same (run, case,
  // variant, iteration) or a second RunStarted for a run keeps the first.
  // RunStarted moves the run's queue row (if any, of the same agent) from
  // queued to "running" (a runs row it makes for a row already interrupted
  // or ended takes that state); RunFinished sets the state of a row not
  // ended yet to the run's status and its finished_at_ns, and updates the
  // runs row only for the run's agent.
  // Ownership: an envelope whose instance_id is recorded for another
  // agent_id is refused, and with policy.require_assigned_run so is a run
  // envelope (RunStarted, IterationResult, Sample, RunFinished, Error or Log
  // with a run_id) whose run is not dispatched to env.agent_id (queue row
  // of another agent, none, or still "queued"; a run dispatched to it and
  // since disconnected, interrupted or ended takes it: a late replay),
  // unless it is an exact duplicate of a stored envelope: StoreError
  // kNotOwner (peer_message()
  // for the sender), nothing stored. Throws StoreError (also kBadContent for an
  // envelope without agent_id or instance_id, or with seq 0).
  Ingest ingest(const schedrig::v1::Envelope& env, std::string_view raw_bytes,
                IngestPolicy policy = {});

  // One envelope of a batch and its bytes as received; both must outlive
  // the call.
  struct IngestItem {
    const schedrig::v1::Envelope* env = nullptr;
    std::string_view raw;
    bool replay_session = false;  // its sender: IngestPolicy::replay_session
  };
  // What became of one item. When `error` is set nothing of the item was
  // stored (and `result` means nothing).
  struct IngestOutcome {
    Ingest result = Ingest::kStored;
    std::optional<StoreError> error;
  };

  // ingest() of every item in one transaction (the collector's hot path):
  // an item that fails changes nothing and gets its error in its outcome,
  // and the rest commit. (Refusals are checked before an item writes; only
  // when an item fails after writing is the batch redone with a SAVEPOINT
  // per item.) Ownership answers are reused within the batch, and each
  // agent's last_seen_ns is updated once per batch. Outcomes are in item
  // order. Throws StoreError only when the batch itself cannot commit (then
  // nothing of it is stored).
  std::vector<IngestOutcome> ingest_batch(std::span<const IngestItem> items,
                                          IngestPolicy policy = {});

  // The host's own verdict on a run whose agent went away before
  // RunFinished (lab saw it die or time out): a run still `running` becomes
  // `failed` with `reason`. A terminal status is final: a RunFinished that
  // arrives later (import of the agent's file, a replay) is stored but
  // changes neither status nor reason. Throws StoreError.
  void fail_unfinished_run(const std::string& run_id, const std::string& reason);

  // An imported offline file that holds the run's RunStarted but not its
  // RunFinished (docs/architecture.md "Wire protocol", offline files): a run
  // still `running` becomes `incomplete` with `reason`. Not final: a
  // RunFinished stored later (the whole file, a replay) still sets the run's
  // status. Returns the run's status after the call ("" when it is not
  // stored). Throws StoreError.
  std::string mark_run_incomplete(const std::string& run_id, const std::string& reason);

  // Runs whose run_id starts with `run_id_prefix` ("" = all), oldest first
  // (by started_at_ns), each with its iterations in position order and their
  // metrics in the order the agent sent them, and (unless `options` says
  // not to) their sample summaries. Reads one consistent snapshot.
  // Throws StoreError.
  std::vector<RunRecord> runs(const std::string& run_id_prefix = "",
                              RunsOptions options = {}) const;

  // The run_ids that start with `run_id_prefix` ("" = all), oldest first as
  // runs() orders them, without loading the runs (cheap on a big store).
  // Throws StoreError.
  std::vector<std::string> run_ids(const std::string& run_id_prefix = "") const;

  // Samples (one per Sample envelope) of the runs whose run_id starts with
  // `run_id_prefix` ("" = all; an exact id matches itself and any id it
  // prefixes), with id > `after_id`, in id order, which is arrival order: a
  // reader that keeps the last id it saw gets only new samples next time.
  // Samples are kept whether or not their run is stored. Throws StoreError.
  std::vector<SampleRecord> samples(const std::string& run_id_prefix, long long after_id = 0) const;

  // One poll of run `run_id` (exact) for `schedrig watch`, in one snapshot:
  // its status, its iterations with id > after_iteration_id and its samples
  // with id > after_sample_id. A run that is no longer "running" in this
  // snapshot has every sample and result it will get. Throws StoreError.
  RunProgress run_progress(const std::string& run_id, long long after_sample_id,
                           long long after_iteration_id) const;

  // The runs that start with `run_id_prefix` ("" = all) that the store knows
  // of: run_ids() then queue rows not started yet (FIFO). For resolving an
  // ID given by an operator (`serve`'s API). Throws StoreError.
  std::vector<std::string> known_run_ids(const std::string& run_id_prefix = "") const;

  // A run that is queued but has no RunStarted yet, as `results --json`
  // shows a run: status "queued" (or the queue state, "aborted"/"failed",
  // when it ended before starting, with its reason and finished_at_ns),
  // agent_id, labels and plan from the queue; instance, host, fingerprint
  // and iterations empty, times 0. nullopt when `run_id` (exact) is not
  // queued or has started (runs() has it then). Throws StoreError.
  std::optional<RunRecord> queued_run_record(const std::string& run_id) const;

  // --- The queue (`serve`): one row per submitted (run, agent). ---

  // Adds `run` in state "queued" at the end of its agent's FIFO (its state,
  // reason and dispatched/finished times are ignored; submitted_at_ns 0 =
  // now). Throws StoreError kBadContent when run_id or agent_id is empty or
  // the run_id is already queued or stored.
  void enqueue_run(const QueuedRun& run);

  // The oldest "queued" run of `agent_id`, if any. Throws StoreError.
  std::optional<QueuedRun> next_queued_run(const std::string& agent_id) const;

  // Queue rows in state `state` ("" = all), FIFO order. Throws StoreError.
  std::vector<QueuedRun> queued_runs(const std::string& state = "") const;

  // --- Nights (`schedrig nightly` reports each to serve; /metrics shows them). ---

  // Stores `night` in one transaction: its row in `nights` and, per agent
  // and plan it has rows for, those rows in place of the older night's.
  // Throws StoreError.
  void save_night(const NightRecord& night);
  // Each agent and plan's latest verdict rows. Throws StoreError.
  std::vector<NightlyVerdictRecord> nightly_verdicts() const;
  // Stored nights whose selftest missed its regression. Throws StoreError.
  unsigned detector_failed_nights() const;

  // The queue row of `run_id` (exact), if any. Throws StoreError.
  std::optional<QueuedRun> queued_run(const std::string& run_id) const;

  // queued -> "running", dispatched_at_ns now, to agent instance
  // `instance_id` ("" = unknown). A row in any other state (or none) is
  // left alone. Throws StoreError.
  void mark_run_dispatched(const std::string& run_id, const std::string& instance_id = "");

  // Notes on run_id's "running" or "disconnected" queue row who aborted it
  // (`note`, e.g. "aborted by operator 'alice'"): its abort_note, its reason
  // while running, and the start of the reason its RunFinished with status
  // aborted stores ("NOTE (the agent's reason)"). Throws StoreError.
  void note_abort(const std::string& run_id, const std::string& note);

  // Ends the run's queue row if it is still queued, running, disconnected
  // or interrupted: `state` "ok" | "failed" | "aborted", `reason`,
  // finished_at_ns now; a runs row of it still "running" or "interrupted"
  // gets the same status and reason. A terminal state is final: a later
  // RunFinished or call changes neither. Throws StoreError (kBadContent for
  // another state).
  void finish_queued_run(const std::string& run_id, const std::string& state,
                         const std::string& reason);

  // --- Runs across outages (docs/architecture.md "Queue"). Each returns
  // whether the row changed; each throws StoreError. ---

  // Its agent's link closed: "running" -> "disconnected" with `reason`
  // ("agent A disconnected: WHY"), the abort note kept aside.
  bool mark_run_disconnected(const std::string& run_id, const std::string& reason);
  // The same instance said Hello again: "disconnected" or "interrupted" ->
  // "running" (reason: its abort note, or ""); its runs row too.
  bool resume_run(const std::string& run_id);
  // "running" or "disconnected" -> "interrupted" with `reason`, and its
  // runs row if running. Not final (a later RunFinished sets the verdict).
  bool interrupt_run(const std::string& run_id, const std::string& reason);
  // The rows "disconnected" for `after` or longer -> "interrupted" ("agent
  // A disconnected for more than S s"); returns them as they were.
  std::vector<QueuedRun> interrupt_stale_runs(std::chrono::seconds after);
  // At serve start: every "running" or "disconnected" queue row (its agent
  // was told by the serve that is gone) -> "disconnected" with `reason`.
  // Returns how many queue rows that is.
  int disconnect_dispatched_runs(const std::string& reason);
  // `agent_id`'s rows "running", "disconnected" or "interrupted", FIFO.
  std::vector<QueuedRun> dispatched_runs(const std::string& agent_id) const;
  // True when `run_id` (exact) has a runs row (its RunStarted is stored).
  bool run_started(const std::string& run_id) const;

  // Every agent that ever said Hello, by agent_id, each with its latest
  // instance and that instance's topology counts (`schedrig agents`).
  // Throws StoreError.
  std::vector<AgentRecord> agents() const;

  // The file's schema version (PRAGMA user_version); this build writes 4.
  int schema_version() const;

  // The path given to the constructor.
  const std::string& path() const;

 private:
  struct Impl;
  std::string path_;
  std::unique_ptr<Impl> impl_;
};

// Both spellings work: store::IngestItem and Store::IngestItem.
using IngestItem = Store::IngestItem;
using IngestOutcome = Store::IngestOutcome;

}  // namespace schedrig::store
