// How a fuzz input carries several messages (the ingest target's session of
// envelopes): each message is a 2-byte little-endian length and that many
// bytes; a last message shorter than its length takes what is left. Any
// byte string splits, so every mutation is a valid input.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace schedrig::fuzz {

// Largest message one frame holds (a 2-byte length).
inline constexpr std::size_t kMaxFrameBytes = 0xFFFF;

// The messages of `input`, views into it, in order.
std::vector<std::string_view> split_frames(std::string_view input);

// The input that split_frames turns into `messages` (for writing seeds).
// Throws std::length_error for a message over kMaxFrameBytes.
std::string join_frames(const std::vector<std::string>& messages);

}  // namespace schedrig::fuzz
