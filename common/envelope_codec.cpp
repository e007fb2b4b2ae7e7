#include "common/envelope_codec.h"

#include <stdexcept>

#include <fmt/format.h>

namespace schedrig {

using v1::Envelope;

std::string encode_envelope(const Envelope& env) {
  std::string out;
  if (!env.SerializeToString(&out)) throw std::runtime_error("envelope: serialization failed");
  return out;
}

DecodeResult decode_envelope(std::string_view bytes) {
  DecodeResult r;
  Envelope env;
  if (bytes.size() > kMaxEnvelopeBytes) {
    r.code = v1::ERROR_UNDECODABLE;
    r.error = fmt::format("envelope of {} bytes is over the {}-byte limit", bytes.size(),
                          kMaxEnvelopeBytes);
    return r;
  }
  if (!env.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    r.code = v1::ERROR_UNDECODABLE;
    r.error = fmt::format("{} bytes do not decode as a schedrig.v1.Envelope", bytes.size());
    return r;
  }
  if (env.protocol_version() != kProtocolVersion) {
    r.code = v1::ERROR_UNSUPPORTED_VERSION;
    r.error = fmt::format("protocol_version {} is not supported (this build speaks {})",
                          env.protocol_version(), kProtocolVersion);
    return r;
  }
  if (env.body_case() == Envelope::BODY_NOT_SET) {
    r.code = v1::ERROR_UNDECODABLE;
    r.error = "envelope has no body (unknown message type or empty)";
    return r;
  }
  r.envelope = std::move(env);
  return r;
}

std::string body_name(const Envelope& env) {
  switch (env.body_case()) {
    case Envelope::kHello:
      return "hello";
    case Envelope::kTopology:
      return "topology";
    case Envelope::kRunStarted:
      return "run_started";
    case Envelope::kIterationResult:
      return "iteration_result";
    case Envelope::kRunFinished:
      return "run_finished";
    case Envelope::kError:
      return "error";
    case Envelope::kLog:
      return "log";
    case Envelope::kSample:
      return "sample";
    case Envelope::kAck:
      return "ack";
    case Envelope::kStartRun:
      return "start_run";
    case Envelope::kAbort:
      return "abort";
    case Envelope::kPing:
      return "ping";
    case Envelope::kBoot:
      return "boot";
    case Envelope::BODY_NOT_SET:
      break;
  }
  return "none";
}

const std::string* run_id_of(const Envelope& env) {
  switch (env.body_case()) {
    case Envelope::kRunStarted:
      return &env.run_started().run_id();
    case Envelope::kIterationResult:
      return &env.iteration_result().run_id();
    case Envelope::kSample:
      return &env.sample().run_id();
    case Envelope::kRunFinished:
      return &env.run_finished().run_id();
    case Envelope::kError:
      return env.error().run_id().empty() ? nullptr : &env.error().run_id();
    case Envelope::kLog:
      return env.log().run_id().empty() ? nullptr : &env.log().run_id();
    default:
      return nullptr;
  }
}

}  // namespace schedrig
