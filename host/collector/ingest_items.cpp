// The one spot that knows how the store takes a batch and says "not yours".
#include <spdlog/spdlog.h>

#include "common/envelope_codec.h"
#include "common/printable.h"
#include "host/collector/store_writer.h"

namespace schedrig::collector {

namespace {

using Status = WriteOutcome::Status;

// One envelope, up to `attempts` tries (a busy store: its own 5 s timeout
// paces the retries).
WriteOutcome ingest_one(store::Store& store, const WriteItem& item, int attempts) {
  for (int attempt = 1;; ++attempt) {
    try {
      const auto result = store.ingest(*item.env, item.raw);
      return {result == store::Store::Ingest::kStored ? Status::kStored : Status::kDuplicate, ""};
    } catch (const std::exception& e) {
      spdlog::error("{}: cannot store {} seq {} (attempt {} of {}): {}",
                    printable(item.env->agent_id()), body_name(*item.env), item.env->seq(), attempt,
                    attempts, e.what());
      if (attempt >= attempts) return {Status::kFailed, std::string("store: ") + e.what()};
    }
  }
}

}  // namespace

std::vector<WriteOutcome> ingest_items(store::Store& store, const std::vector<WriteItem>& items,
                                       const StoreWriterOptions& options) {
  std::vector<WriteOutcome> outcomes;
  outcomes.reserve(items.size());
  for (const WriteItem& item : items) outcomes.push_back(ingest_one(store, item, options.attempts));
  return outcomes;
}

}  // namespace schedrig::collector
