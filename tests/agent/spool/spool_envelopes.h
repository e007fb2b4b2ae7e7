// Test envelopes for the spool: stamped as the link would (protocol
// version, agent, boot, instance, seq), bodies of the kinds the spool treats
// differently, and helpers over a spool directory's files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "agent/spool/spool.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::spool::testing {

inline const std::string kInstanceA = "zzzzzzzz-0000-4000-8000-00000000000a";  // sorts last
inline const std::string kInstanceB = "aaaaaaaa-0000-4000-8000-00000000000b";
inline const std::string kRun = "11111111-1111-4111-8111-111111111111";

v1::Envelope hello(const std::string& instance, std::uint64_t seq);
v1::Envelope sample(const std::string& instance, std::uint64_t seq,
                    const std::string& run_id = kRun);
// An IterationResult with `pad` bytes in its reason, to size records.
v1::Envelope result(const std::string& instance, std::uint64_t seq, std::size_t pad = 0);
// A RunFinished with `pad` bytes in its reason.
v1::Envelope run_finished(const std::string& instance, std::uint64_t seq, std::size_t pad = 0);

// The seqs of `envelopes`, in order.
std::vector<std::uint64_t> seqs(const std::vector<v1::Envelope>& envelopes);

// seq from..to inclusive.
std::vector<std::uint64_t> seq_range(std::uint64_t from, std::uint64_t to);

// Names of the segment files in `dir`, sorted.
std::vector<std::string> segment_files(const std::string& dir);

std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& bytes);

}  // namespace schedrig::spool::testing
