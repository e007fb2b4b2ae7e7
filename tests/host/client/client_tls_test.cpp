// host/client over TLS against a fake API with a throwaway CA
// (tests/support/test_pki): the server's chain and name verified, SNI, a
// wrong CA or a name the certificate does not carry refused as unreachable
// with OpenSSL's reason and what it was checked against; http:// to a TLS
// port and https:// to a plain one each told which scheme the server speaks.
#include <algorithm>

#include <gtest/gtest.h>

#include "common/error.h"
#include "common/tls/tls_context.h"
#include "host/client/api_client.h"
#include "host/client/api_paths.h"
#include "tests/host/client/fake_api.h"
#include "tests/host/client/token_file.h"
#include "tests/support/run_command.h"
#include "tests/support/test_pki.h"

namespace schedrig::client {
namespace {

using testing::FakeAnswer;
using testing::FakeApi;
using testing::FakeRequest;
using testing::kOperatorToken;

// The Error a GET of /api/v1/agents from `url` trusting `ca` throws ("" none).
std::string get_error(const std::string& url, const std::string& ca, ErrorKind* kind = nullptr) {
  try {
    ApiClient(ServerTarget{url, kOperatorToken, ca}).get(agents_path());
  } catch (const Error& e) {
    if (kind) *kind = e.kind();
    return e.what();
  }
  return "";
}

class ClientTls : public ::testing::Test {
 protected:
  testing::TempDir dir_;
  testing::TestPki pki_ = testing::make_test_pki(dir_.path());
  std::shared_ptr<boost::asio::ssl::context> tls_ =
      tls::server_tls_context(pki_.server_cert, pki_.server_key);
  static FakeAnswer agents(const FakeRequest&) { return {200, R"({"agents":[]})"}; }
};

TEST_F(ClientTls, VerifiedByAddressAndByName) {
  FakeApi api(agents, tls_);
  EXPECT_EQ(api.url().rfind("https://127.0.0.1:", 0), 0u);
  ApiClient by_address({api.url(), kOperatorToken, pki_.ca_cert});
  EXPECT_EQ(by_address.get_json(agents_path()), nlohmann::json::parse(R"({"agents":[]})"));
  ApiClient by_name(
      {"https://localhost:" + std::to_string(api.port()), kOperatorToken, pki_.ca_cert});
  EXPECT_EQ(by_name.get(agents_path()).status, 200u);
  EXPECT_EQ(api.requests().at(1).authorization, std::string("Bearer ") + kOperatorToken);
}

TEST_F(ClientTls, AnotherCaIsRefused) {
  testing::TempDir other_dir;
  const testing::TestPki other = testing::make_test_pki(other_dir.path());
  FakeApi api(agents, tls_);
  ErrorKind kind = ErrorKind::kFailed;
  const std::string e = get_error(api.url(), other.ca_cert, &kind);
  EXPECT_EQ(kind, ErrorKind::kUnreachable);
  EXPECT_NE(e.find("TLS handshake with " + api.url() +
                   " failed: certificate verify failed: unable to get local issuer certificate "
                   "(checked against --ca " +
                   other.ca_cert + ")"),
            std::string::npos)
      << e;
  EXPECT_TRUE(api.requests().empty());
}

TEST_F(ClientTls, ThePrivateCaIsNotInTheSystemStore) {
  FakeApi api(agents, tls_);
  const std::string e = get_error(api.url(), "");
  EXPECT_NE(e.find("failed: certificate verify failed: "), std::string::npos) << e;
  EXPECT_NE(e.find("(checked against the system's CA store; give --ca FILE to trust a private "
                   "CA)"),
            std::string::npos)
      << e;
}

TEST_F(ClientTls, ANameTheCertificateDoesNotCarryIsRefused) {
  FakeApi api(agents, tls_, "127.0.0.2");  // loopback, not in the certificate's SANs
  ErrorKind kind = ErrorKind::kFailed;
  const std::string e = get_error(api.url(), pki_.ca_cert, &kind);
  EXPECT_EQ(kind, ErrorKind::kUnreachable);
  EXPECT_EQ(e, "TLS handshake with " + api.url() +
                   " failed: certificate verify failed: the host's certificate is not valid for "
                   "127.0.0.2 (checked against --ca " +
                   pki_.ca_cert + ")");
  EXPECT_TRUE(api.requests().empty());
}

TEST_F(ClientTls, PlainHttpToATlsServerIsToldToUseHttps) {
  FakeApi api(agents, tls_);
  ErrorKind kind = ErrorKind::kFailed;
  const std::string authority = "127.0.0.1:" + std::to_string(api.port());
  const std::string e = get_error("http://" + authority, pki_.ca_cert, &kind);
  EXPECT_EQ(kind, ErrorKind::kUnreachable) << e;
  EXPECT_EQ(e, "server http://" + authority +
                   " closed the connection without an answer: the server speaks TLS: use https://" +
                   authority);
}

TEST_F(ClientTls, HttpsToAPlainServerIsAskedWhetherItServesHttp) {
  FakeApi api(agents);  // plain HTTP
  ErrorKind kind = ErrorKind::kFailed;
  const std::string authority = "127.0.0.1:" + std::to_string(api.port());
  const std::string e = get_error("https://" + authority, pki_.ca_cert, &kind);
  EXPECT_EQ(kind, ErrorKind::kUnreachable) << e;
  EXPECT_EQ(e, "TLS handshake with https://" + authority +
                   " failed: the server did not answer TLS: is it serving plain HTTP? (then use "
                   "http://" +
                   authority + ")");
}

// The CLI: one line, exit 3, for each mistake.
TEST_F(ClientTls, CliSaysItOnOneLineAndExits3) {
  FakeApi tls_api(agents, tls_);
  FakeApi plain_api(agents);
  const std::string token = testing::write_token_file(dir_.file("operator.token"));
  const auto agents_on = [&](const std::string& url) {
    return testing::run_command(testing::bin("schedrig") + " agents --server " + url +
                                " --token-file " + token + " --ca " + pki_.ca_cert);
  };
  const auto to_tls = agents_on("http://127.0.0.1:" + std::to_string(tls_api.port()));
  EXPECT_EQ(to_tls.exit_code, 3) << to_tls.output;
  EXPECT_NE(to_tls.output.find("the server speaks TLS: use https://127.0.0.1:"), std::string::npos)
      << to_tls.output;
  const auto to_plain = agents_on("https://127.0.0.1:" + std::to_string(plain_api.port()));
  EXPECT_EQ(to_plain.exit_code, 3) << to_plain.output;
  EXPECT_NE(to_plain.output.find("is it serving plain HTTP?"), std::string::npos)
      << to_plain.output;
  for (const auto* r : {&to_tls, &to_plain}) {
    EXPECT_EQ(std::count(r->output.begin(), r->output.end(), '\n'), 1) << r->output;
  }
}

TEST_F(ClientTls, UnreadableCaIsUsage) {
  ErrorKind kind = ErrorKind::kFailed;
  const std::string e = get_error("https://127.0.0.1:1", dir_.file("missing.pem"), &kind);
  EXPECT_EQ(kind, ErrorKind::kUsage);
  EXPECT_NE(e.find("missing.pem"), std::string::npos) << e;
}

}  // namespace
}  // namespace schedrig::client
