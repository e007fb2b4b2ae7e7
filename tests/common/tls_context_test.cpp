// TLS contexts from the files serve and the agent are given: a test PKI
// loads; a missing file, a file that is not PEM, a key others may read, a key
// of another certificate and an empty CA file are refused with the file's
// name and OpenSSL's reason.
#include "common/tls/tls_context.h"

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include <gtest/gtest.h>
#include <openssl/ssl.h>

#include "common/error.h"
#include "tests/support/run_command.h"
#include "tests/support/test_pki.h"

namespace schedrig::tls {
namespace {

using testing::make_test_pki;
using testing::TempDir;
using testing::TestPki;

void write_file(const std::string& path, const std::string& text, mode_t mode = 0644) {
  std::ofstream(path) << text;
  ::chmod(path.c_str(), mode);
}

// The kUsage error `f` throws; fails the test when it throws nothing.
std::string usage_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

TEST(TlsContext, LoadsTheTestPki) {
  const TempDir dir;
  const TestPki pki = make_test_pki(dir.path());
  struct stat st {};
  ASSERT_EQ(::stat(pki.server_key.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto server = server_tls_context(pki.server_cert, pki.server_key);
  ASSERT_TRUE(server);
  EXPECT_EQ(SSL_CTX_get_min_proto_version(server->native_handle()), TLS1_2_VERSION);
  ASSERT_NE(SSL_CTX_get0_certificate(server->native_handle()), nullptr);
  auto client = client_tls_context(pki.ca_cert);
  EXPECT_EQ(SSL_CTX_get_min_proto_version(client->native_handle()), TLS1_2_VERSION);
  EXPECT_EQ(SSL_CTX_get_verify_mode(client->native_handle()) & SSL_VERIFY_PEER, SSL_VERIFY_PEER);
  EXPECT_NO_THROW(client_tls_context(""));  // the system's trust store
}

TEST(TlsContext, MissingFilesAreNamed) {
  const TempDir dir;
  const TestPki pki = make_test_pki(dir.path());
  const std::string gone = dir.file("nope.pem");
  std::string e = usage_error([&] { server_tls_context(gone, pki.server_key); });
  EXPECT_EQ(e, "TLS certificate file " + gone + ": No such file or directory");
  e = usage_error([&] { server_tls_context(pki.server_cert, gone); });
  EXPECT_EQ(e, "TLS key file " + gone + ": No such file or directory");
  e = usage_error([&] { client_tls_context(gone); });
  EXPECT_EQ(e, "CA file " + gone + ": No such file or directory");
  e = usage_error([&] { client_tls_context(dir.path()); });
  EXPECT_EQ(e, "CA file " + dir.path() + ": not a regular file");
}

TEST(TlsContext, TextThatIsNotPemGivesOpenSslsReason) {
  const TempDir dir;
  const TestPki pki = make_test_pki(dir.path());
  const std::string junk = dir.file("junk.pem");
  write_file(junk, "hello, not a certificate\n", 0600);
  std::string e = usage_error([&] { server_tls_context(junk, pki.server_key); });
  EXPECT_EQ(e, "TLS certificate file " + junk +
                   ": no PEM certificate in it (no start line (PEM routines))");
  e = usage_error([&] { server_tls_context(pki.server_cert, junk); });
  EXPECT_EQ(e, "TLS key file " + junk +
                   ": no unencrypted PEM private key in it (unsupported (DECODER routines))");
  e = usage_error([&] { client_tls_context(junk); });
  EXPECT_EQ(e, "CA file " + junk + ": no PEM certificate in it (no start line (PEM routines))");
}

TEST(TlsContext, AKeyOthersMayReadIsRefused) {
  const TempDir dir;
  const TestPki pki = make_test_pki(dir.path());
  ::chmod(pki.server_key.c_str(), 0644);
  std::string e = usage_error([&] { server_tls_context(pki.server_cert, pki.server_key); });
  EXPECT_EQ(e, "TLS key file " + pki.server_key +
                   ": group or others may access it (mode 0644); chmod 600 it");
  ::chmod(pki.server_key.c_str(), 0640);
  e = usage_error([&] { server_tls_context(pki.server_cert, pki.server_key); });
  EXPECT_NE(e.find("(mode 0640)"), std::string::npos) << e;
}

// Needs root to give the key away (chown); skipped otherwise.
TEST(TlsContext, AKeyAnotherUserOwnsIsRefused) {
  if (::geteuid() != 0) GTEST_SKIP() << "chown to another uid needs root";
  const TempDir dir;
  const TestPki pki = make_test_pki(dir.path());
  ASSERT_EQ(::chown(pki.server_key.c_str(), 65534, 65534), 0);
  const std::string e = usage_error([&] { server_tls_context(pki.server_cert, pki.server_key); });
  EXPECT_EQ(e, "TLS key file " + pki.server_key +
                   ": owned by uid 65534, not by this user (uid 0) or root; chown it");
}

TEST(TlsContext, AKeyOfAnotherCertificateIsRefused) {
  const TempDir a, b;
  const TestPki one = make_test_pki(a.path());
  const TestPki two = make_test_pki(b.path());
  const std::string e = usage_error([&] { server_tls_context(one.server_cert, two.server_key); });
  EXPECT_EQ(e.rfind("TLS key file " + two.server_key + ": does not match the certificate in " +
                        one.server_cert + " (",
                    0),
            0u)
      << e;
  EXPECT_NE(e.find("key values mismatch"), std::string::npos) << e;
}

}  // namespace
}  // namespace schedrig::tls
