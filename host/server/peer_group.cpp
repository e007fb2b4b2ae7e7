#include "host/server/peer_group.h"

namespace schedrig::server {

namespace ip = boost::asio::ip;

std::string peer_group(const ip::address& address) {
  if (address.is_v4()) return address.to_v4().to_string();
  const ip::address_v6 v6 = address.to_v6();
  if (v6.is_v4_mapped()) return ip::make_address_v4(ip::v4_mapped, v6).to_string();
  ip::address_v6::bytes_type bytes = v6.to_bytes();
  for (std::size_t i = 8; i < bytes.size(); ++i) bytes[i] = 0;  // keep the /64 prefix
  return ip::make_address_v6(bytes).to_string() + "/64";
}

}  // namespace schedrig::server
