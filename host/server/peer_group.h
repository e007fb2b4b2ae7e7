// Which pending-connection count a peer address falls in
// (docs/architecture.md "Server"): one IPv4 address, or one IPv6 /64 (a
// single host or site is routinely given a whole /64, so counting IPv6
// addresses one by one would not bound it).
#pragma once

#include <string>

#include <boost/asio/ip/address.hpp>

namespace schedrig::server {

// "10.0.0.1" for IPv4 and IPv4-mapped IPv6 (::ffff:10.0.0.1);
// "2001:db8:1:2::/64" for any other IPv6 address of that /64.
std::string peer_group(const boost::asio::ip::address& address);

}  // namespace schedrig::server
