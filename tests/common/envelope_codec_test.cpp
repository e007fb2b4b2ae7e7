// encode_envelope / decode_envelope / body_name (docs/architecture.md "Wire protocol").
#include <cstdint>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "common/envelope_codec.h"

namespace schedrig {
namespace {

using v1::Envelope;

Envelope header() {
  Envelope env;
  env.set_protocol_version(kProtocolVersion);
  env.set_agent_id("altra-01");
  env.set_boot_id("0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9");
  env.set_instance_id("11111111-2222-4333-8444-555555555555");
  env.set_seq(42);
  env.set_sent_at_ns(1'700'000'000'123'456'789LL);
  return env;
}

Envelope hello_envelope() {
  Envelope env = header();
  auto* h = env.mutable_hello();
  h->set_hostname("altra-01");
  h->set_kernel_release("6.18.44");
  h->set_agent_version("0.1.0");
  h->set_allowed_pus(80);
  auto* k = h->add_knobs();
  k->set_name("NI_RANDOM");
  k->set_path("/sys/kernel/debug/sched/features");
  k->set_readable(true);
  k->set_writable(false);
  k->set_errno_value(13);
  auto* s = h->add_sources();
  s->set_path("/proc/schedstat");
  s->set_present(true);
  s->set_version(15);
  return env;
}

Envelope result_envelope() {
  Envelope env = header();
  auto* r = env.mutable_iteration_result();
  r->set_run_id("aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee");
  r->set_case_name("fork-all");
  r->set_variant("no-ni-random");
  r->set_iteration(3);
  r->set_position(17);
  r->set_status(v1::STATUS_OK);
  auto* m = r->add_metrics();
  m->set_name("bogo_ops_per_s");
  m->set_value(12345.625);
  m->set_unit("ops/s");
  m->set_direction(v1::HIGHER_IS_BETTER);
  auto* m2 = r->add_metrics();
  m2->set_name("p99_us");
  m2->set_value(87.5);
  m2->set_unit("us");
  m2->set_direction(v1::LOWER_IS_BETTER);
  auto* h = r->add_histograms();
  h->set_name("wakeup_latency");
  h->set_unit("us");
  for (double b : {1.0, 2.0, 4.0, 8.5}) h->add_lower_bounds(b);
  for (std::uint64_t c : {10u, 200u, 3000u, 1u}) h->add_counts(c);
  (*r->mutable_knobs())["NI_RANDOM"] = "off";
  (*r->mutable_knobs())["kernel.sched_autogroup_enabled"] = "1";
  r->set_started_at_ns(100);
  r->set_finished_at_ns(5'000'000'100LL);
  r->set_cpus("0-79");
  return env;
}

void expect_header(const Envelope& env) {
  EXPECT_EQ(env.protocol_version(), kProtocolVersion);
  EXPECT_EQ(env.agent_id(), "altra-01");
  EXPECT_EQ(env.boot_id(), "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9");
  EXPECT_EQ(env.instance_id(), "11111111-2222-4333-8444-555555555555");
  EXPECT_EQ(env.seq(), 42u);
  EXPECT_EQ(env.sent_at_ns(), 1'700'000'000'123'456'789LL);
}

TEST(EnvelopeCodec, HelloRoundTrips) {
  const std::string bytes = encode_envelope(hello_envelope());
  ASSERT_FALSE(bytes.empty());
  DecodeResult r = decode_envelope(bytes);
  ASSERT_TRUE(r.envelope.has_value()) << r.error;
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.code, v1::ERROR_UNSPECIFIED);
  const Envelope& env = *r.envelope;
  expect_header(env);
  ASSERT_EQ(env.body_case(), Envelope::kHello);
  const auto& h = env.hello();
  EXPECT_EQ(h.hostname(), "altra-01");
  EXPECT_EQ(h.kernel_release(), "6.18.44");
  EXPECT_EQ(h.agent_version(), "0.1.0");
  EXPECT_EQ(h.allowed_pus(), 80u);
  ASSERT_EQ(h.knobs_size(), 1);
  EXPECT_EQ(h.knobs(0).name(), "NI_RANDOM");
  EXPECT_EQ(h.knobs(0).path(), "/sys/kernel/debug/sched/features");
  EXPECT_TRUE(h.knobs(0).readable());
  EXPECT_FALSE(h.knobs(0).writable());
  EXPECT_EQ(h.knobs(0).errno_value(), 13);
  ASSERT_EQ(h.sources_size(), 1);
  EXPECT_EQ(h.sources(0).path(), "/proc/schedstat");
  EXPECT_TRUE(h.sources(0).present());
  EXPECT_EQ(h.sources(0).version(), 15u);
  // Re-encoding the decoded message gives the same bytes.
  EXPECT_EQ(encode_envelope(env), bytes);
}

TEST(EnvelopeCodec, IterationResultWithMetricsAndHistogramRoundTrips) {
  DecodeResult r = decode_envelope(encode_envelope(result_envelope()));
  ASSERT_TRUE(r.envelope.has_value()) << r.error;
  expect_header(*r.envelope);
  ASSERT_EQ(r.envelope->body_case(), Envelope::kIterationResult);
  const auto& res = r.envelope->iteration_result();
  EXPECT_EQ(res.run_id(), "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee");
  EXPECT_EQ(res.case_name(), "fork-all");
  EXPECT_EQ(res.variant(), "no-ni-random");
  EXPECT_EQ(res.iteration(), 3u);
  EXPECT_EQ(res.position(), 17u);
  EXPECT_EQ(res.status(), v1::STATUS_OK);
  ASSERT_EQ(res.metrics_size(), 2);
  EXPECT_EQ(res.metrics(0).name(), "bogo_ops_per_s");
  EXPECT_DOUBLE_EQ(res.metrics(0).value(), 12345.625);
  EXPECT_EQ(res.metrics(0).unit(), "ops/s");
  EXPECT_EQ(res.metrics(0).direction(), v1::HIGHER_IS_BETTER);
  EXPECT_EQ(res.metrics(1).name(), "p99_us");
  EXPECT_DOUBLE_EQ(res.metrics(1).value(), 87.5);
  EXPECT_EQ(res.metrics(1).direction(), v1::LOWER_IS_BETTER);
  ASSERT_EQ(res.histograms_size(), 1);
  const auto& h = res.histograms(0);
  EXPECT_EQ(h.name(), "wakeup_latency");
  EXPECT_EQ(h.unit(), "us");
  ASSERT_EQ(h.lower_bounds_size(), 4);
  ASSERT_EQ(h.counts_size(), 4);
  EXPECT_DOUBLE_EQ(h.lower_bounds(3), 8.5);
  EXPECT_EQ(h.counts(0), 10u);
  EXPECT_EQ(h.counts(2), 3000u);
  EXPECT_EQ(res.knobs().size(), 2u);
  EXPECT_EQ(res.knobs().at("NI_RANDOM"), "off");
  EXPECT_EQ(res.knobs().at("kernel.sched_autogroup_enabled"), "1");
  EXPECT_EQ(res.started_at_ns(), 100);
  EXPECT_EQ(res.finished_at_ns(), 5'000'000'100LL);
  EXPECT_EQ(res.cpus(), "0-79");
}

TEST(EnvelopeCodec, RejectsRandomGarbage) {
  for (std::uint32_t seed : {1u, 2u, 3u, 42u, 1234u, 99999u}) {
    std::mt19937 rng(seed);
    for (std::size_t len : {1u, 7u, 64u, 1000u}) {
      std::string bytes(len, '\0');
      for (auto& b : bytes) b = static_cast<char>(rng() & 0xFF);
      DecodeResult r = decode_envelope(bytes);
      EXPECT_FALSE(r.envelope.has_value()) << "seed " << seed << " len " << len;
      EXPECT_NE(r.code, v1::ERROR_UNSPECIFIED) << "seed " << seed << " len " << len;
      EXPECT_FALSE(r.error.empty()) << "seed " << seed << " len " << len;
    }
  }
}

TEST(EnvelopeCodec, RejectsInvalidWireBytes) {
  // Field 1 as a varint whose bytes all have the continuation bit: not protobuf.
  std::string bytes = "\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff";
  DecodeResult r = decode_envelope(bytes);
  EXPECT_FALSE(r.envelope.has_value());
  EXPECT_EQ(r.code, v1::ERROR_UNDECODABLE);
  EXPECT_NE(r.error.find("do not decode"), std::string::npos) << r.error;
}

TEST(EnvelopeCodec, RejectsEmptyBuffer) {
  DecodeResult r = decode_envelope("");
  EXPECT_FALSE(r.envelope.has_value());
  EXPECT_NE(r.code, v1::ERROR_UNSPECIFIED);
  EXPECT_FALSE(r.error.empty());
}

TEST(EnvelopeCodec, RejectsEnvelopeWithoutBody) {
  DecodeResult r = decode_envelope(encode_envelope(header()));
  EXPECT_FALSE(r.envelope.has_value());
  EXPECT_EQ(r.code, v1::ERROR_UNDECODABLE);
  EXPECT_NE(r.error.find("no body"), std::string::npos) << r.error;
}

TEST(EnvelopeCodec, RejectsOtherProtocolVersionNamingBoth) {
  Envelope env = hello_envelope();
  env.set_protocol_version(2);
  DecodeResult r = decode_envelope(encode_envelope(env));
  EXPECT_FALSE(r.envelope.has_value());
  EXPECT_EQ(r.code, v1::ERROR_UNSUPPORTED_VERSION);
  EXPECT_NE(r.error.find("protocol_version 2"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("speaks 1"), std::string::npos) << r.error;
}

TEST(EnvelopeCodec, RejectsOverSizeInput) {
  std::string bytes(kMaxEnvelopeBytes + 1, '\0');
  DecodeResult r = decode_envelope(bytes);
  EXPECT_FALSE(r.envelope.has_value());
  EXPECT_EQ(r.code, v1::ERROR_UNDECODABLE);
  EXPECT_NE(r.error.find(std::to_string(kMaxEnvelopeBytes + 1)), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("limit"), std::string::npos) << r.error;
}

TEST(EnvelopeCodec, SizeLimitAppliesToValidEnvelopes) {
  // A Log whose message brings the encoding to exactly the limit, then one byte over.
  Envelope env = header();
  env.mutable_log()->set_level("info");
  env.mutable_log()->set_message(std::string(kMaxEnvelopeBytes - 200, 'x'));
  std::size_t size = encode_envelope(env).size();
  ASSERT_LT(size, kMaxEnvelopeBytes);
  env.mutable_log()->mutable_message()->append(kMaxEnvelopeBytes - size, 'y');
  ASSERT_EQ(encode_envelope(env).size(), kMaxEnvelopeBytes);
  DecodeResult at = decode_envelope(encode_envelope(env));
  ASSERT_TRUE(at.envelope.has_value()) << at.error;
  EXPECT_EQ(at.envelope->log().message().size(), env.log().message().size());

  env.mutable_log()->mutable_message()->push_back('z');
  ASSERT_EQ(encode_envelope(env).size(), kMaxEnvelopeBytes + 1);
  DecodeResult over = decode_envelope(encode_envelope(env));
  EXPECT_FALSE(over.envelope.has_value());
  EXPECT_EQ(over.code, v1::ERROR_UNDECODABLE);
}

TEST(EnvelopeCodec, RejectsEveryTruncationOfAValidEncoding) {
  // The body (fields 10..23) is serialized after the header fields, so every
  // proper prefix either cuts the body short or leaves it out.
  for (const Envelope& env : {hello_envelope(), result_envelope()}) {
    const std::string bytes = encode_envelope(env);
    ASSERT_TRUE(decode_envelope(bytes).envelope.has_value());
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      DecodeResult r = decode_envelope(std::string_view(bytes).substr(0, n));
      EXPECT_FALSE(r.envelope.has_value()) << "prefix of " << n << " of " << bytes.size();
      EXPECT_FALSE(r.error.empty()) << "prefix of " << n;
    }
  }
}

TEST(EnvelopeCodec, BodyNames) {
  Envelope env = header();
  EXPECT_EQ(body_name(env), "none");
  env.mutable_hello();
  EXPECT_EQ(body_name(env), "hello");
  env.mutable_topology();
  EXPECT_EQ(body_name(env), "topology");
  env.mutable_run_started();
  EXPECT_EQ(body_name(env), "run_started");
  env.mutable_iteration_result();
  EXPECT_EQ(body_name(env), "iteration_result");
  env.mutable_run_finished();
  EXPECT_EQ(body_name(env), "run_finished");
  env.mutable_error();
  EXPECT_EQ(body_name(env), "error");
  env.mutable_log();
  EXPECT_EQ(body_name(env), "log");
  env.mutable_ack();
  EXPECT_EQ(body_name(env), "ack");
  env.mutable_start_run();
  EXPECT_EQ(body_name(env), "start_run");
  env.mutable_abort();
  EXPECT_EQ(body_name(env), "abort");
  env.mutable_ping();
  EXPECT_EQ(body_name(env), "ping");
  env.clear_body();
  EXPECT_EQ(body_name(env), "none");
}

TEST(EnvelopeCodec, EmptyBodiesStillRoundTrip) {
  // An empty sub-message is still encoded (tag + zero length), so the body survives.
  Envelope env = header();
  env.mutable_ping();
  DecodeResult r = decode_envelope(encode_envelope(env));
  ASSERT_TRUE(r.envelope.has_value()) << r.error;
  EXPECT_EQ(body_name(*r.envelope), "ping");
}

TEST(EnvelopeCodec, RunIdOfNamesTheRunOfRunEnvelopesOnly) {
  Envelope sample;
  sample.mutable_sample()->set_run_id("r1");
  ASSERT_NE(run_id_of(sample), nullptr);
  EXPECT_EQ(*run_id_of(sample), "r1");
  Envelope started;
  started.mutable_run_started();  // a run envelope with an empty run_id still names one
  ASSERT_NE(run_id_of(started), nullptr);
  EXPECT_EQ(*run_id_of(started), "");
  Envelope error;
  error.mutable_error()->set_message("bad message");
  EXPECT_EQ(run_id_of(error), nullptr);  // an Error about no run
  error.mutable_error()->set_run_id("r2");
  ASSERT_NE(run_id_of(error), nullptr);
  EXPECT_EQ(*run_id_of(error), "r2");
  Envelope log;
  log.mutable_log()->set_message("waiting for the knob lock");
  EXPECT_EQ(run_id_of(log), nullptr);  // a line about no run
  log.mutable_log()->set_run_id("r3");
  ASSERT_NE(run_id_of(log), nullptr);
  EXPECT_EQ(*run_id_of(log), "r3");
  Envelope hello;
  hello.mutable_hello();
  EXPECT_EQ(run_id_of(hello), nullptr);
}

}  // namespace
}  // namespace schedrig
