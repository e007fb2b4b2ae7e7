// Encoding and validating Envelope messages (docs/architecture.md "Wire protocol").
// One Envelope per binary WebSocket message; bytes are protobuf-lite.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "schedrig/v1/envelope.pb.h"

namespace schedrig {

// The protocol_version this build speaks.
inline constexpr std::uint32_t kProtocolVersion = 1;

// Largest Envelope a peer accepts, bytes. Larger WebSocket messages are closed
// with 1009 (message too big) by Beast's read_message_max.
inline constexpr std::size_t kMaxEnvelopeBytes = 4 * 1024 * 1024;

// Outcome of decode_envelope: either an envelope or a one-line reason.
struct DecodeResult {
  std::optional<schedrig::v1::Envelope> envelope;
  std::string error;  // empty on success
  schedrig::v1::ErrorCode code = schedrig::v1::ERROR_UNSPECIFIED;
};

// Serializes `env`. Throws std::runtime_error when protobuf refuses it.
std::string encode_envelope(const schedrig::v1::Envelope& env);

// Parses `bytes` as an Envelope and checks it: it must parse, carry a body,
// and speak kProtocolVersion. Never throws on bad input.
DecodeResult decode_envelope(std::string_view bytes);

// The name of the oneof body ("hello", "iteration_result", ...), or "none".
std::string body_name(const schedrig::v1::Envelope& env);

// The run an envelope belongs to: RunStarted, IterationResult, Sample and
// RunFinished always name one (even an empty run_id, which no queue holds),
// an Error or a Log when its run_id is set; nullptr for every other body.
const std::string* run_id_of(const schedrig::v1::Envelope& env);

}  // namespace schedrig
