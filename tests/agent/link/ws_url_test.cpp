// The URLs `schedrig-agent connect` dials: ws:// and wss://, default ports
// per scheme, IPv6 in brackets, and what is refused.
#include "agent/link/ws_url.h"

#include <gtest/gtest.h>

namespace schedrig::link {
namespace {

TEST(WsUrl, SchemesAndTheirDefaultPorts) {
  WsUrl u = parse_ws_url("ws://host1");
  EXPECT_FALSE(u.tls);
  EXPECT_EQ(u.host, "host1");
  EXPECT_EQ(u.port, "80");
  EXPECT_EQ(u.path, "/agent");
  u = parse_ws_url("wss://collector.lab");
  EXPECT_TRUE(u.tls);
  EXPECT_EQ(u.host, "collector.lab");
  EXPECT_EQ(u.port, "443");
  EXPECT_EQ(u.path, "/agent");
  u = parse_ws_url("wss://collector.lab:7878/agent");
  EXPECT_TRUE(u.tls);
  EXPECT_EQ(u.port, "7878");
  EXPECT_EQ(host_header(u), "collector.lab:7878");
}

TEST(WsUrl, Ipv6InBrackets) {
  const WsUrl u = parse_ws_url("wss://[::1]:7443/x/agent");
  EXPECT_TRUE(u.tls);
  EXPECT_EQ(u.host, "::1");
  EXPECT_EQ(u.port, "7443");
  EXPECT_EQ(u.path, "/x/agent");
  EXPECT_EQ(host_header(u), "[::1]:7443");
  EXPECT_EQ(parse_ws_url("wss://[::1]").port, "443");
}

TEST(WsUrl, RefusedWithTheReason) {
  auto what = [](const std::string& url) {
    try {
      parse_ws_url(url);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(what("https://h:1/agent"), "URL 'https://h:1/agent': must start with ws:// or wss://");
  EXPECT_EQ(what("WSS://h"), "URL 'WSS://h': must start with ws:// or wss://");
  EXPECT_EQ(what("wss://:443/agent"), "URL 'wss://:443/agent': no host");
  EXPECT_EQ(what("wss://h:0"), "URL 'wss://h:0': port '0' is not in 1..65535");
  EXPECT_EQ(what("wss://h:"), "URL 'wss://h:': port '' is not in 1..65535");
  EXPECT_EQ(what("wss://[::1"), "URL 'wss://[::1': unclosed '['");
}

}  // namespace
}  // namespace schedrig::link
