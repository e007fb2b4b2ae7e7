// The server's pieces without sockets: routes, token checks, the
// rate-limited log, accept backoff, the connection tracker, pending
// connections and peer groups, listen addresses.
#include <gtest/gtest.h>

#include "host/server/connection_tracker.h"
#include "host/server/listen_address.h"
#include "host/server/listener.h"
#include "host/server/peer_group.h"
#include "host/server/pending_peers.h"
#include "host/server/rate_limited_log.h"
#include "host/server/routing.h"
#include "tests/host/server/test_server.h"

namespace schedrig::server {
namespace {

using namespace std::chrono_literals;
using namespace schedrig::testing;

TEST(Routing, PathsAndRoles) {
  EXPECT_EQ(route_of("/agent"), Route::kAgent);
  EXPECT_EQ(route_of("/agent?x=1"), Route::kAgent);
  EXPECT_EQ(route_of("/api/v1/runs?state=queued"), Route::kApi);
  EXPECT_EQ(route_of("/api/v1"), Route::kApi);
  EXPECT_EQ(route_of("/api/v1x"), Route::kNotFound);
  EXPECT_EQ(route_of("/agents"), Route::kNotFound);
  EXPECT_EQ(role_for(Route::kAgent), auth::Role::kAgent);
  EXPECT_EQ(role_for(Route::kApi), auth::Role::kOperator);
}

TEST(Routing, AuthorizeByRole) {
  const auth::TokenSet tokens = test_tokens();
  Request req(http::verb::get, "/agent", 11);
  EXPECT_EQ(authorize(req, tokens, auth::Role::kAgent).status, http::status::unauthorized);
  req.set(http::field::authorization, "Basic " + kBox1Token);
  EXPECT_EQ(authorize(req, tokens, auth::Role::kAgent).reason, "not a Bearer token");
  req.set(http::field::authorization, "Bearer " + kBox1Token);
  Authorization ok = authorize(req, tokens, auth::Role::kAgent);
  ASSERT_TRUE(ok.principal);
  EXPECT_EQ(ok.principal->name, "box1");
  Authorization wrong = authorize(req, tokens, auth::Role::kOperator);
  EXPECT_EQ(wrong.status, http::status::forbidden);
  EXPECT_EQ(wrong.reason.find(kBox1Token), std::string::npos) << "never the token in a log";
}

TEST(RateLimitedLog, OneLinePerPeriodWithTheCount) {
  RateLimitedLog log(5s);
  const auto t0 = RateLimitedLog::Clock::now();
  EXPECT_EQ(log.admit(t0), 0);
  EXPECT_EQ(log.admit(t0 + 1s), -1);
  EXPECT_EQ(log.admit(t0 + 4s), -1);
  EXPECT_EQ(log.admit(t0 + 5s), 2);
  EXPECT_EQ(log.admit(t0 + 6s), -1);
  EXPECT_EQ(log.lines(), 2u);
}

TEST(AcceptBackoff, DoublesFrom100msTo1s) {
  std::chrono::milliseconds wait{0};
  std::vector<long> waits;
  for (int i = 0; i < 6; ++i) waits.push_back((wait = next_backoff(wait)).count());
  EXPECT_EQ(waits, (std::vector<long>{100, 200, 400, 800, 1000, 1000}));
  EXPECT_TRUE(
      is_resource_exhaustion(boost::system::error_code(EMFILE, boost::system::system_category())));
  EXPECT_TRUE(
      is_resource_exhaustion(boost::system::error_code(ENFILE, boost::system::system_category())));
  EXPECT_FALSE(is_resource_exhaustion(boost::asio::error::connection_aborted));
}

struct CountingStop : Stoppable {
  void stop() override { ++stops; }
  int stops = 0;
};

TEST(ConnectionTracker, CountsUpToTheLimitAndStopsOwners) {
  auto tracker = std::make_shared<ConnectionTracker>(2);
  auto a = tracker->try_open();
  auto b = tracker->try_open();
  ASSERT_TRUE(a && b);
  EXPECT_FALSE(tracker->try_open());
  auto owner = std::make_shared<CountingStop>();
  a->attach(owner);
  b->release();
  EXPECT_EQ(tracker->open(), 1u);
  tracker->stop_all();
  EXPECT_EQ(owner->stops, 1);
  auto late = std::make_shared<CountingStop>();
  auto c = tracker->try_open();
  c->attach(late);  // attached after stop_all: stopped at once
  EXPECT_EQ(late->stops, 1);
}

TEST(PendingPeers, CapsEachPeerAndEvictsTheOldestAtTheTotal) {
  auto peers = std::make_shared<PendingPeers>(2, 3);
  PendingTicket a1 = peers->try_enter("10.0.0.1").ticket;
  PendingTicket a2 = peers->try_enter("10.0.0.1").ticket;
  EXPECT_FALSE(a1.empty() || a2.empty());
  PendingAdmission third = peers->try_enter("10.0.0.1");
  EXPECT_TRUE(third.ticket.empty());
  EXPECT_TRUE(third.peer_full);
  auto oldest = std::make_shared<CountingStop>();
  a1.attach(oldest);
  PendingTicket b1 = peers->try_enter("10.0.0.2").ticket;
  EXPECT_FALSE(b1.empty());
  EXPECT_EQ(peers->pending(), 3u);
  PendingAdmission c1 = peers->try_enter("10.0.0.3");  // at the total: a1 goes
  EXPECT_FALSE(c1.ticket.empty());
  EXPECT_FALSE(c1.peer_full);
  EXPECT_EQ(c1.evicted, "10.0.0.1");
  EXPECT_EQ(oldest->stops, 1);
  EXPECT_EQ(peers->pending(), 3u);
  EXPECT_EQ(peers->pending("10.0.0.1"), 1u);
  a1.release();  // evicted: uncounted once only
  EXPECT_EQ(peers->pending("10.0.0.1"), 1u);
  EXPECT_EQ(peers->pending(), 3u);
  PendingAdmission d1 = peers->try_enter("10.0.0.4");  // a2 goes, before it had an owner
  EXPECT_EQ(d1.evicted, "10.0.0.1");
  auto late = std::make_shared<CountingStop>();
  a2.attach(late);
  EXPECT_EQ(late->stops, 1) << "evicted before attach: stopped at once";
  PendingTicket moved = std::move(b1);
  EXPECT_TRUE(b1.empty());
  { PendingTicket gone = std::move(moved); }
  EXPECT_EQ(peers->pending("10.0.0.2"), 0u);
  EXPECT_EQ(peers->pending(), 2u);
  EXPECT_EQ(peers->try_enter("10.0.0.5").evicted, "") << "room again: nothing evicted";
}

TEST(PeerGroup, IPv4AloneIPv6By64) {
  auto group = [](const char* text) { return peer_group(asio::ip::make_address(text)); };
  EXPECT_EQ(group("10.1.2.3"), "10.1.2.3");
  EXPECT_EQ(group("::ffff:10.1.2.3"), "10.1.2.3") << "IPv4-mapped counts as its IPv4 address";
  EXPECT_EQ(group("2001:db8:1:2:aaaa::1"), "2001:db8:1:2::/64");
  EXPECT_EQ(group("2001:db8:1:2:ffff:ffff:ffff:ffff"), "2001:db8:1:2::/64");
  EXPECT_EQ(group("2001:db8:1:3::1"), "2001:db8:1:3::/64");
  EXPECT_EQ(group("::1"), "::/64");
}

TEST(ListenAddress, ParsesAndRefuses) {
  EXPECT_EQ(parse_listen_address("127.0.0.1:7878").port(), 7878);
  EXPECT_TRUE(parse_listen_address("[::1]:0").address().is_v6());
  EXPECT_EQ(endpoint_text(parse_listen_address("[::1]:80")), "[::1]:80");
  for (const char* bad : {"localhost", "127.0.0.1:99999", "nohost:80"}) {
    try {
      parse_listen_address(bad);
      FAIL() << bad;
    } catch (const ServerError& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kUsage);
      EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
  }
}

TEST(ListenAddress, AnAddressInUseIsUnreachable) {
  const auth::TokenSet tokens = test_tokens();
  asio::io_context ioc;
  ServerOptions o;
  o.endpoint = parse_listen_address("127.0.0.1:0");
  o.tokens = &tokens;
  Listener first(ioc, o);
  o.endpoint = first.local_endpoint();
  try {
    Listener second(ioc, o);
    FAIL() << "expected ServerError";
  } catch (const ServerError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUnreachable);
    EXPECT_EQ(e.exit_code(), kExitUnreachable);
  }
}

}  // namespace
}  // namespace schedrig::server
