// fuzz_envelope_ingest: one agent session per input, as the collector runs
// it (host/collector/agent_session.cpp): the input's frames (fuzz/frames.h)
// are the session's WebSocket messages; each is decoded
// (common/envelope_codec.h), checked by the session rules
// (host/collector/session_rules.h) with the agent id of the first envelope
// that decodes as the token's, and what they pass is stored in one batch
// through collector::ingest_items into an in-memory store (`lab`'s policy:
// no queue row needed), then read back as `results` does. A violation ends
// the session, as its close does. Each input starts from an empty store.
#include <memory>
#include <string>
#include <vector>

#include "common/envelope_codec.h"
#include "fuzz/frames.h"
#include "fuzz/fuzz_target.h"
#include "host/collector/session_rules.h"
#include "host/collector/store_writer.h"
#include "host/store/store.h"

namespace {

namespace v1 = schedrig::v1;
using schedrig::collector::EnvelopeCheck;
using schedrig::collector::WriteItem;
using schedrig::collector::WriteOutcome;

// The session's items to store: every message the rules pass, up to the
// first violation.
std::vector<WriteItem> session_items(const std::vector<std::string_view>& messages) {
  std::vector<WriteItem> items;
  schedrig::collector::SessionLedger ledger;
  std::string agent_id;
  for (std::string_view bytes : messages) {
    schedrig::DecodeResult r = schedrig::decode_envelope(bytes);
    if (!r.envelope) continue;  // the session answers an Error and reads on
    if (agent_id.empty()) agent_id = r.envelope->agent_id();
    const EnvelopeCheck check = schedrig::collector::check_envelope(*r.envelope, agent_id, ledger);
    if (check.verdict == EnvelopeCheck::Verdict::kViolation) break;
    if (check.verdict == EnvelopeCheck::Verdict::kReplyError) continue;
    ledger.take(*r.envelope);
    items.push_back({std::make_shared<const v1::Envelope>(std::move(*r.envelope)),
                     std::string(bytes), nullptr});
  }
  return items;
}

// The replay after a reconnect: the same items again store nothing twice
// (the store is idempotent on (agent_id, instance_id, seq)).
void require_replay_stores_nothing(schedrig::store::Store& store,
                                   const std::vector<WriteItem>& items,
                                   const std::vector<WriteOutcome>& first,
                                   const schedrig::collector::StoreWriterOptions& options) {
  const std::vector<WriteOutcome> again = schedrig::collector::ingest_items(store, items, options);
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (first[i].status != WriteOutcome::Status::kStored) continue;
    schedrig::fuzz::require(again[i].status == WriteOutcome::Status::kDuplicate,
                            "an envelope stored once is a duplicate the second time");
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  schedrig::fuzz::quiet_logs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::vector<WriteItem> items = session_items(schedrig::fuzz::split_frames(input));
  if (items.empty()) return 0;
  schedrig::store::Store store(":memory:");
  schedrig::collector::StoreWriterOptions options;
  options.require_assigned_run = false;
  options.attempts = 1;
  const auto outcomes = schedrig::collector::ingest_items(store, items, options);
  schedrig::fuzz::require(outcomes.size() == items.size(), "one outcome per item");
  require_replay_stores_nothing(store, items, outcomes, options);
  (void)store.runs();
  (void)store.samples("");
  (void)store.agents();
  return 0;
}
