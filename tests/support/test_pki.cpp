#include "tests/support/test_pki.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <stdexcept>

#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace schedrig::testing {
namespace {

struct PkeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};
struct FileClose {
  void operator()(FILE* f) const { std::fclose(f); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;
using Cert = std::unique_ptr<X509, X509Free>;
using File = std::unique_ptr<FILE, FileClose>;

[[noreturn]] void fail(const std::string& what) {
  char reason[256] = "no OpenSSL error";
  if (const unsigned long err = ERR_get_error()) ERR_error_string_n(err, reason, sizeof reason);
  throw std::runtime_error("test PKI: " + what + ": " + reason);
}

void check(int ok, const std::string& what) {
  if (ok != 1) fail(what);
}

Pkey new_p256_key() {
  Pkey key(EVP_EC_gen("P-256"));
  if (!key) fail("EC P-256 key");
  return key;
}

// An X509v3 certificate for `key` named CN=`cn`, serial random, valid from an
// hour ago for a day; issuer and signature are set by sign().
Cert new_certificate(EVP_PKEY* key, const char* cn) {
  Cert cert(X509_new());
  if (!cert) fail("X509_new");
  check(X509_set_version(cert.get(), 2), "version");
  unsigned char serial[16];
  check(RAND_bytes(serial, sizeof serial), "serial");
  serial[0] &= 0x7f;  // positive
  BIGNUM* bn = BN_bin2bn(serial, sizeof serial, nullptr);
  check(bn && BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert.get())) ? 1 : 0, "serial");
  BN_free(bn);
  check(X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600) ? 1 : 0, "notBefore");
  check(X509_gmtime_adj(X509_getm_notAfter(cert.get()), 86400) ? 1 : 0, "notAfter");
  X509_NAME* name = X509_get_subject_name(cert.get());
  check(X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                                   reinterpret_cast<const unsigned char*>(cn), -1, -1, 0),
        "subject");
  check(X509_set_pubkey(cert.get(), key), "public key");
  return cert;
}

// Adds extension `nid` = `value` (openssl x509v3_config syntax) to `cert`
// issued by `issuer`.
void add_extension(X509* cert, X509* issuer, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
  if (!ext) fail(std::string("extension ") + OBJ_nid2sn(nid));
  const int ok = X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
  check(ok, std::string("extension ") + OBJ_nid2sn(nid));
}

void sign(X509* cert, X509* issuer, EVP_PKEY* issuer_key) {
  check(X509_set_issuer_name(cert, X509_get_subject_name(issuer)), "issuer");
  if (X509_sign(cert, issuer_key, EVP_sha256()) <= 0) fail("sign");
}

Cert make_ca(EVP_PKEY* ca_key) {
  Cert ca = new_certificate(ca_key, "schedrig test CA");
  add_extension(ca.get(), ca.get(), NID_basic_constraints, "critical,CA:TRUE");
  add_extension(ca.get(), ca.get(), NID_key_usage, "critical,keyCertSign,cRLSign");
  add_extension(ca.get(), ca.get(), NID_subject_key_identifier, "hash");
  sign(ca.get(), ca.get(), ca_key);
  return ca;
}

Cert make_server(EVP_PKEY* key, X509* ca, EVP_PKEY* ca_key) {
  Cert cert = new_certificate(key, "localhost");
  add_extension(cert.get(), ca, NID_basic_constraints, "critical,CA:FALSE");
  add_extension(cert.get(), ca, NID_key_usage, "critical,digitalSignature");
  add_extension(cert.get(), ca, NID_ext_key_usage, "serverAuth");
  add_extension(cert.get(), ca, NID_subject_alt_name, "IP:127.0.0.1,IP:::1,DNS:localhost");
  add_extension(cert.get(), ca, NID_authority_key_identifier, "keyid");
  sign(cert.get(), ca, ca_key);
  return cert;
}

// Creates (or truncates) `path` with `mode`, whatever the umask.
File open_for_writing(const std::string& path, mode_t mode) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode);
  if (fd < 0 || ::fchmod(fd, mode) != 0) throw std::runtime_error("test PKI: cannot write " + path);
  File f(::fdopen(fd, "w"));
  if (!f) throw std::runtime_error("test PKI: fdopen " + path);
  return f;
}

void write_cert(const std::string& path, X509* cert) {
  File f = open_for_writing(path, 0644);
  check(PEM_write_X509(f.get(), cert), "write " + path);
}

void write_key(const std::string& path, EVP_PKEY* key) {
  File f = open_for_writing(path, 0600);
  check(PEM_write_PrivateKey(f.get(), key, nullptr, nullptr, 0, nullptr, nullptr), "write " + path);
}

}  // namespace

TestPki make_test_pki(const std::string& dir) {
  const Pkey ca_key = new_p256_key();
  const Cert ca = make_ca(ca_key.get());
  const Pkey server_key = new_p256_key();
  const Cert server = make_server(server_key.get(), ca.get(), ca_key.get());
  TestPki pki{dir + "/ca.pem", dir + "/server.pem", dir + "/server.key"};
  write_cert(pki.ca_cert, ca.get());
  write_cert(pki.server_cert, server.get());
  write_key(pki.server_key, server_key.get());
  return pki;
}

}  // namespace schedrig::testing
