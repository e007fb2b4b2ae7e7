// The server's pieces without sockets: routes, token checks, the
// rate-limited log, accept backoff, the connection tracker, listen addresses.
#include <gtest/gtest.h>

#include "host/server/connection_tracker.h"
#include "host/server/listen_address.h"
#include "host/server/listener.h"
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

TEST(PendingPeers, CapsEachPeerAndTheTotal) {
  auto peers = std::make_shared<PendingPeers>(2, 3);
  PendingRefusal why = PendingRefusal::kNone;
  PendingTicket a1 = peers->try_enter("10.0.0.1", why);
  PendingTicket a2 = peers->try_enter("10.0.0.1", why);
  EXPECT_EQ(why, PendingRefusal::kNone);
  EXPECT_TRUE(peers->try_enter("10.0.0.1", why).empty());
  EXPECT_EQ(why, PendingRefusal::kPeerFull);
  PendingTicket b1 = peers->try_enter("10.0.0.2", why);
  EXPECT_FALSE(b1.empty());
  EXPECT_TRUE(peers->try_enter("10.0.0.3", why).empty());
  EXPECT_EQ(why, PendingRefusal::kTotalFull);
  EXPECT_EQ(peers->pending(), 3u);
  EXPECT_EQ(peers->pending("10.0.0.1"), 2u);
  a1.release();
  a1.release();  // once only
  PendingTicket moved = std::move(a2);
  EXPECT_TRUE(a2.empty());
  EXPECT_EQ(peers->pending("10.0.0.1"), 1u);
  PendingTicket c1 = peers->try_enter("10.0.0.3", why);
  EXPECT_FALSE(c1.empty());
  { PendingTicket gone = std::move(c1); }
  EXPECT_EQ(peers->pending("10.0.0.3"), 0u);
  EXPECT_EQ(peers->pending(), 2u);
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
