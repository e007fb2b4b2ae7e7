// CRC-32C (Castagnoli, polynomial 0x1EDC6F41, reflected, init and final XOR
// 0xFFFFFFFF), as iSCSI (RFC 3720 B.4), ext4 and LevelDB use it. Computed
// with Boost.CRC (boost/crc.hpp).
#pragma once

#include <cstdint>
#include <string_view>

namespace schedrig::record {

// The CRC-32C of `bytes`; crc32c("123456789") == 0xE3069283.
std::uint32_t crc32c(std::string_view bytes);

// The CRC-32C of `prefix` followed by `bytes`, without joining them.
std::uint32_t crc32c(std::string_view prefix, std::string_view bytes);

}  // namespace schedrig::record
