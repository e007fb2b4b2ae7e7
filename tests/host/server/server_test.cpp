// The server on loopback, plain and TLS (docs/architecture.md "Server"):
// tokens by role on /agent and /api/v1 (401 with WWW-Authenticate, 403),
// 404 elsewhere, the API handler with keep-alive and a late answer, header
// and body limits, max_connections.
#include "host/server/listener.h"

#include <future>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>

#include "tests/host/server/test_server.h"
#include "tests/support/run_command.h"
#include "tests/support/test_pki.h"

namespace schedrig::server {
namespace {

using namespace std::chrono_literals;
using namespace schedrig::testing;

// Answers every request with its method, target, body and principal; a
// target with "late" is answered 200 ms later from another thread.
class EchoApi : public ApiHandler {
 public:
  void handle(ApiRequest request, std::function<void(ApiResponse)> done) override {
    const std::string text =
        request.method + " " + request.target + " " + request.body + " " + request.principal.name;
    {
      std::lock_guard lock(mu_);
      peers_.push_back(request.peer);
    }
    if (request.target.find("late") == std::string::npos) return done({200, text, "text/plain"});
    std::thread([done, text] {
      std::this_thread::sleep_for(200ms);
      done({202, text, "text/plain"});
      done({500, "second answer: ignored", "text/plain"});
    }).detach();
  }
  std::vector<std::string> peers() {
    std::lock_guard lock(mu_);
    return peers_;
  }

 private:
  std::mutex mu_;
  std::vector<std::string> peers_;
};

TEST(ServerAuth, NoTokenOrAnUnknownOneIs401WithWwwAuthenticate) {
  EchoApi api;
  TestServer server({.api = &api});
  for (const char* target : {"/agent", "/api/v1/agents"}) {
    for (const std::string token : {"", "not-a-token"}) {
      HttpResult r = http_request(server.port(), http::verb::get, target, token);
      EXPECT_EQ(r.status, 401u) << target << " token '" << token << "'";
      EXPECT_EQ(r.www_authenticate, "Bearer realm=\"schedrig\"");
    }
  }
  HttpResult api_error = http_request(server.port(), http::verb::get, "/api/v1/agents", "");
  EXPECT_EQ(api_error.content_type, "application/json");
  EXPECT_EQ(api_error.body, "{\"error\":\"a valid Bearer token is required\"}\n");
  AgentClient agent(server.port(), "");
  EXPECT_TRUE(agent.error());
  EXPECT_EQ(upgrade_status(server.port(), ""), 401u);
  EXPECT_EQ(upgrade_status(server.port(), kBox1Token), 101u);
  EXPECT_TRUE(api.peers().empty());
}

TEST(ServerAuth, WrongRoleIs403OnBothEndpoints) {
  EchoApi api;
  TestServer server({.api = &api});
  AgentClient operator_as_agent(server.port(), kAliceToken);
  EXPECT_TRUE(operator_as_agent.error());
  EXPECT_EQ(upgrade_status(server.port(), kAliceToken), 403u);
  HttpResult agent_on_api =
      http_request(server.port(), http::verb::get, "/api/v1/runs", kBox1Token);
  EXPECT_EQ(agent_on_api.status, 403u);
  EXPECT_EQ(agent_on_api.body, "{\"error\":\"this token's role may not use /api/v1/\"}\n");
  EXPECT_TRUE(api.peers().empty());
}

TEST(ServerRouting, OtherPathsAre404AndNoHandlerMeans404) {
  TestServer without_api;
  EXPECT_EQ(http_request(without_api.port(), http::verb::get, "/api/v1/agents", kAliceToken).status,
            404u);
  EXPECT_EQ(http_request(without_api.port(), http::verb::get, "/metrics", kAliceToken).status,
            404u);
  EchoApi api;
  TestServer server({.api = &api});
  for (const char* target :
       {"/", "/metrics/x", "/metricsx", "/agent/x", "/api", "/api/v2/agents", "/api/v1x"}) {
    HttpResult r = http_request(server.port(), http::verb::get, target, kAliceToken);
    EXPECT_EQ(r.status, 404u) << target;
  }
  EXPECT_EQ(http_request(server.port(), http::verb::get, "/agent", kBox1Token).status, 426u)
      << "an agent token without an upgrade";
  // /metrics goes to the API handler, for operator tokens only.
  const HttpResult metrics = http_request(server.port(), http::verb::get, "/metrics", kAliceToken);
  EXPECT_EQ(metrics.status, 200u);
  EXPECT_EQ(metrics.body, "GET /metrics  alice");
  EXPECT_EQ(http_request(server.port(), http::verb::get, "/metrics", kBox1Token).status, 403u);
  EXPECT_EQ(http_request(server.port(), http::verb::get, "/metrics", "").status, 401u);
}

TEST(ServerApi, TheHandlerGetsTheRequestAndKeepAliveServesTheNext) {
  EchoApi api;
  TestServer server({.api = &api});
  asio::io_context ioc;
  beast::tcp_stream s(ioc);
  s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), server.port()));
  beast::flat_buffer buf;
  for (const char* target : {"/api/v1/runs?state=queued", "/api/v1/runs/late"}) {
    http::request<http::string_body> req(http::verb::post, target, 11);
    req.set(http::field::authorization, "Bearer " + kAliceToken);
    req.body() = "{}";
    req.prepare_payload();
    http::write(s, req);
    http::response<http::string_body> res;
    http::read(s, buf, res);
    const bool late = std::string(target).find("late") != std::string::npos;
    EXPECT_EQ(res.result_int(), late ? 202u : 200u);
    EXPECT_EQ(res.body(), std::string("POST ") + target + " {} alice");
    EXPECT_TRUE(res.keep_alive());
  }
  ASSERT_EQ(api.peers().size(), 2u);
  EXPECT_EQ(api.peers()[0], api.peers()[1]) << "one connection";
  EXPECT_TRUE(api.peers()[0].starts_with("127.0.0.1:"));
}

TEST(ServerLimits, OversizedHeaderIs431AndBodyIs413) {
  EchoApi api;
  TestServer server({.api = &api});
  asio::io_context ioc;
  {
    beast::tcp_stream s(ioc);
    s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), server.port()));
    http::request<http::string_body> req(http::verb::get, "/api/v1/agents", 11);
    req.set(http::field::authorization, "Bearer " + kAliceToken);
    req.set("X-Pad", std::string(20 * 1024, 'a'));
    http::write(s, req);
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(s, buf, res);
    EXPECT_EQ(res.result_int(), 431u);
  }
  {
    beast::tcp_stream s(ioc);
    s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), server.port()));
    // Only the header: the server answers from the Content-Length alone.
    const std::string head = "POST /api/v1/runs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
                             kAliceToken +
                             "\r\nContent-Length: " + std::to_string(2 * 1024 * 1024) + "\r\n\r\n";
    asio::write(s, asio::buffer(head));
    beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(s, buf, res);
    EXPECT_EQ(res.result_int(), 413u);
    EXPECT_EQ(res.body(), "{\"error\":\"request body over 1048576 bytes\"}\n");
  }
  EXPECT_TRUE(api.peers().empty());
}

TEST(ServerLimits, MaxConnectionsClosesTheExtraAtOnce) {
  TestServer server({.max_connections = 2});
  AgentClient a(server.port(), kBox1Token);
  AgentClient b(server.port(), kBox2Token);
  ASSERT_FALSE(a.error());
  ASSERT_FALSE(b.error());
  AgentClient extra(server.port(), kBox1Token);
  EXPECT_TRUE(extra.error()) << "the third connection is closed";
  EXPECT_EQ(server.listener().open_connections(), 2u);
  EXPECT_EQ(server.listener().over_limit_lines(), 1u);
  a.ws().close(websocket::close_code::normal);
  for (int i = 0; i < 100 && server.listener().open_connections() > 1; ++i) {
    std::this_thread::sleep_for(10ms);
  }
  AgentClient again(server.port(), kBox1Token);
  EXPECT_FALSE(again.error()) << again.error().message();
}

class ServerTls : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    pki_ = new TestPki(make_test_pki(dir_->path()));
  }
  static void TearDownTestSuite() {
    delete pki_;
    delete dir_;
  }
  std::shared_ptr<asio::ssl::context> server_context() {
    auto ctx = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_server);
    ctx->use_certificate_chain_file(pki_->server_cert);
    ctx->use_private_key_file(pki_->server_key, asio::ssl::context::pem);
    return ctx;
  }
  static TempDir* dir_;
  static TestPki* pki_;
};
TempDir* ServerTls::dir_ = nullptr;
TestPki* ServerTls::pki_ = nullptr;

TEST_F(ServerTls, AgentsAreStoredAndAckedAndTokensStillChecked) {
  EchoApi api;
  TestServer server({.tls = server_context(), .api = &api});
  auto client = client_context(pki_->ca_cert);
  TlsAgentClient agent(server.port(), kBox1Token, client.get());
  ASSERT_FALSE(agent.error()) << agent.error().message();
  agent.send(hello("box1", 1));
  v1::Envelope ack = agent.read();
  ASSERT_TRUE(ack.has_ack());
  EXPECT_EQ(ack.ack().seq(), 1u);
  TlsAgentClient forger(server.port(), kBox2Token, client.get());
  forger.send(hello("box1", 1));
  beast::error_code ec;
  for (int i = 0; i < 5 && !ec; ++i) forger.read(ec);
  EXPECT_EQ(forger.ws().reason().code, websocket::close_code::policy_error);
  EXPECT_EQ(upgrade_status(server.port(), "", client.get()), 401u);
  EXPECT_EQ(upgrade_status(server.port(), kAliceToken, client.get()), 403u);
  EXPECT_EQ(http_request(server.port(), http::verb::get, "/api/v1/x", kBox1Token, "", client.get())
                .status,
            403u);
  HttpResult ok =
      http_request(server.port(), http::verb::get, "/api/v1/x", kAliceToken, "", client.get());
  EXPECT_EQ(ok.status, 200u);
  EXPECT_EQ(ok.body, "GET /api/v1/x  alice");
}

TEST_F(ServerTls, PlainTextOnATlsPortGetsNoAnswer) {
  TestServer server({.tls = server_context()});
  HttpResult r = http_request(server.port(), http::verb::get, "/api/v1/x", kAliceToken);
  EXPECT_TRUE(r.error) << "a plain request on a TLS port got status " << r.status;
}

}  // namespace
}  // namespace schedrig::server
