#include "common/tls/tls_context.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <fmt/format.h>

#include "common/error.h"
#include "common/tls/openssl_reason.h"
#include "common/tls/pem_file.h"

namespace schedrig::tls {
namespace {

namespace ssl = boost::asio::ssl;

constexpr const char* kCertWhat = "TLS certificate file";
constexpr const char* kKeyWhat = "TLS key file";
constexpr const char* kCaWhat = "CA file";

struct BioFree {
  void operator()(BIO* b) const { BIO_free(b); }
};
struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};
struct PkeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
using Bio = std::unique_ptr<BIO, BioFree>;
using Cert = std::unique_ptr<X509, X509Free>;
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

[[noreturn]] void fail(const char* what, const std::string& file, const std::string& why) {
  throw Error(ErrorKind::kUsage,
              fmt::format("{} {}: {} ({})", what, file, why, take_openssl_reason()));
}

Bio memory_bio(const std::string& pem) {
  return Bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

// Never prompts on the terminal for a pass phrase: an encrypted key fails.
int no_passphrase(char*, int, int, void*) { return -1; }

// True when only "no start line" is queued: the PEM text simply ended.
bool at_end_of_pem() {
  const unsigned long err = ERR_peek_last_error();
  if (ERR_GET_LIB(err) != ERR_LIB_PEM || ERR_GET_REASON(err) != PEM_R_NO_START_LINE) return false;
  ERR_clear_error();
  return true;
}

// TLS 1.2 and later only; no compression, no renegotiation.
std::shared_ptr<ssl::context> base_context(ssl::context::method method) {
  auto ctx = std::make_shared<ssl::context>(method);
  ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                   ssl::context::no_sslv3 | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 |
                   ssl::context::no_compression);
  SSL_CTX_set_options(ctx->native_handle(), SSL_OP_NO_RENEGOTIATION);
  if (SSL_CTX_set_min_proto_version(ctx->native_handle(), TLS1_2_VERSION) != 1) {
    throw Error(ErrorKind::kFailed, "TLS: cannot require TLS 1.2: " + take_openssl_reason());
  }
  return ctx;
}

// The leaf certificate, then the chain behind it.
void use_certificate_chain(SSL_CTX* ctx, const std::string& file) {
  const std::string pem = read_pem_file(file, PemSecrecy::kPublic, kCertWhat);
  ERR_clear_error();
  Bio bio = memory_bio(pem);
  Cert leaf(PEM_read_bio_X509_AUX(bio.get(), nullptr, no_passphrase, nullptr));
  if (!leaf) fail(kCertWhat, file, "no PEM certificate in it");
  if (SSL_CTX_use_certificate(ctx, leaf.get()) != 1) fail(kCertWhat, file, "certificate refused");
  SSL_CTX_clear_chain_certs(ctx);
  while (Cert ca{PEM_read_bio_X509(bio.get(), nullptr, no_passphrase, nullptr)}) {
    if (SSL_CTX_add1_chain_cert(ctx, ca.get()) != 1)
      fail(kCertWhat, file, "chain certificate refused");
  }
  if (!at_end_of_pem()) fail(kCertWhat, file, "a chain certificate does not parse");
}

void use_private_key(SSL_CTX* ctx, const std::string& file, const std::string& cert_file) {
  const std::string pem = read_pem_file(file, PemSecrecy::kSecret, kKeyWhat);
  ERR_clear_error();
  Bio bio = memory_bio(pem);
  Pkey key(PEM_read_bio_PrivateKey(bio.get(), nullptr, no_passphrase, nullptr));
  if (!key) fail(kKeyWhat, file, "no unencrypted PEM private key in it");
  if (SSL_CTX_use_PrivateKey(ctx, key.get()) != 1 || SSL_CTX_check_private_key(ctx) != 1)
    fail(kKeyWhat, file, "does not match the certificate in " + cert_file);
}

// Every certificate in `file` becomes a trust anchor; at least one.
void trust_ca_file(SSL_CTX* ctx, const std::string& file) {
  const std::string pem = read_pem_file(file, PemSecrecy::kPublic, kCaWhat);
  ERR_clear_error();
  Bio bio = memory_bio(pem);
  X509_STORE* store = SSL_CTX_get_cert_store(ctx);
  int added = 0;
  while (Cert ca{PEM_read_bio_X509(bio.get(), nullptr, no_passphrase, nullptr)}) {
    if (X509_STORE_add_cert(store, ca.get()) != 1) fail(kCaWhat, file, "certificate refused");
    ++added;
  }
  if (added == 0 || !at_end_of_pem())
    fail(kCaWhat, file, added == 0 ? "no PEM certificate in it" : "a certificate does not parse");
}

}  // namespace

std::shared_ptr<ssl::context> server_tls_context(const std::string& cert_file,
                                                 const std::string& key_file) {
  auto ctx = base_context(ssl::context::tls_server);
  use_certificate_chain(ctx->native_handle(), cert_file);
  use_private_key(ctx->native_handle(), key_file, cert_file);
  return ctx;
}

std::shared_ptr<ssl::context> client_tls_context(const std::string& ca_file) {
  auto ctx = base_context(ssl::context::tls_client);
  ctx->set_verify_mode(ssl::verify_peer | ssl::verify_fail_if_no_peer_cert);
  if (ca_file.empty()) {
    ERR_clear_error();
    if (SSL_CTX_set_default_verify_paths(ctx->native_handle()) != 1) {
      throw Error(ErrorKind::kUsage,
                  "TLS: cannot load the system's trust store: " + take_openssl_reason());
    }
  } else {
    trust_ca_file(ctx->native_handle(), ca_file);
  }
  return ctx;
}

}  // namespace schedrig::tls
