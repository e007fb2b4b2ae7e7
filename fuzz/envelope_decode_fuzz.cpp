// fuzz_envelope_decode: bytes -> decode_envelope (common/envelope_codec.h),
// which never throws; a decoded envelope is encoded again and its body
// named, as the collector and the store do. The fast target (goal: 10 M
// execs in 10 minutes).
#include <string_view>

#include "common/envelope_codec.h"
#include "fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const schedrig::DecodeResult r = schedrig::decode_envelope(bytes);
  schedrig::fuzz::require(r.envelope.has_value() == r.error.empty(),
                          "decode_envelope gives an envelope or a reason, never both or neither");
  if (r.envelope) {
    (void)schedrig::body_name(*r.envelope);
    (void)schedrig::run_id_of(*r.envelope);
    (void)schedrig::encode_envelope(*r.envelope);
  }
  return 0;
}
