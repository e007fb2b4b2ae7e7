// The one spot that knows how the store takes a batch and says "not yours".
#include <spdlog/spdlog.h>

#include "common/envelope_codec.h"
#include "common/printable.h"
#include "host/collector/store_writer.h"

namespace schedrig::collector {

namespace {

using Status = WriteOutcome::Status;

// What the agent is told when the store failed (the reason is the host's).
constexpr const char* kStoreFailed = "the host could not store it; try again later";

WriteOutcome outcome_of(const store::IngestOutcome& o) {
  if (!o.error) {
    return {o.result == store::Store::Ingest::kStored ? Status::kStored : Status::kDuplicate, "",
            ""};
  }
  const std::string& peer = o.error->peer_message();
  if (o.error->reason() == store::StoreError::Reason::kNotOwner) {
    return {Status::kRefused, o.error->what(), peer.empty() ? "refused" : peer};
  }
  if (o.error->reason() == store::StoreError::Reason::kUnknownRun) {
    return {Status::kSkipped, o.error->what(), peer.empty() ? "refused" : peer};
  }
  return {Status::kFailed, std::string("store: ") + o.error->what(), kStoreFailed};
}

}  // namespace

std::vector<WriteOutcome> ingest_items(store::Store& store, const std::vector<WriteItem>& items,
                                       const StoreWriterOptions& options) {
  std::vector<store::IngestItem> batch;
  batch.reserve(items.size());
  for (const WriteItem& item : items) {
    batch.push_back({item.env.get(), item.raw, item.replay_session});
  }
  const store::IngestPolicy policy{options.require_assigned_run};
  for (int attempt = 1;; ++attempt) {
    try {
      std::vector<WriteOutcome> outcomes;
      outcomes.reserve(items.size());
      for (const auto& o : store.ingest_batch(batch, policy)) outcomes.push_back(outcome_of(o));
      return outcomes;
    } catch (const std::exception& e) {
      // The batch could not commit (a busy store: its own 5 s timeout paced
      // this try); nothing of it is stored.
      spdlog::error("cannot store a batch of {} envelope(s) (attempt {} of {}): {}", items.size(),
                    attempt, options.attempts, e.what());
      if (attempt >= options.attempts) {
        return std::vector<WriteOutcome>(
            items.size(), {Status::kFailed, std::string("store: ") + e.what(), kStoreFailed});
      }
    }
  }
}

}  // namespace schedrig::collector
