// host/client over TLS against a fake API with a throwaway CA
// (tests/support/test_pki): the server's chain and name verified, SNI, a
// wrong CA or a name the certificate does not carry refused as unreachable.
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
  EXPECT_NE(e.find("TLS handshake with " + api.url() + " failed: certificate verify failed"),
            std::string::npos)
      << e;
  EXPECT_TRUE(api.requests().empty());
}

TEST_F(ClientTls, ANameTheCertificateDoesNotCarryIsRefused) {
  FakeApi api(agents, tls_, "127.0.0.2");  // loopback, not in the certificate's SANs
  ErrorKind kind = ErrorKind::kFailed;
  const std::string e = get_error(api.url(), pki_.ca_cert, &kind);
  EXPECT_EQ(kind, ErrorKind::kUnreachable);
  EXPECT_NE(e.find("TLS handshake with https://127.0.0.2:"), std::string::npos) << e;
  EXPECT_TRUE(api.requests().empty());
}

TEST_F(ClientTls, PlainHttpToATlsServerIsUnreachable) {
  FakeApi api(agents, tls_);
  ErrorKind kind = ErrorKind::kFailed;
  const std::string e =
      get_error("http://127.0.0.1:" + std::to_string(api.port()), pki_.ca_cert, &kind);
  EXPECT_EQ(kind, ErrorKind::kUnreachable) << e;
}

TEST_F(ClientTls, UnreadableCaIsUsage) {
  ErrorKind kind = ErrorKind::kFailed;
  const std::string e = get_error("https://127.0.0.1:1", dir_.file("missing.pem"), &kind);
  EXPECT_EQ(kind, ErrorKind::kUsage);
  EXPECT_NE(e.find("missing.pem"), std::string::npos) << e;
}

}  // namespace
}  // namespace schedrig::client
