// Reading the PEM files TLS needs (certificates, CA bundles, private keys)
// without being fooled by what sits at the path: one open(2), every check on
// the opened file (fstat), so nothing can be swapped in between.
#pragma once

#include <string>

namespace schedrig::tls {

// How much a PEM file may hold: a key, a certificate chain, a CA bundle
// (Debian's ca-certificates.crt is ~200 KiB).
constexpr std::size_t kMaxPemBytes = 4 << 20;

enum class PemSecrecy {
  kPublic,  // certificates: any mode
  kSecret,  // private keys: refused when group or others have any access (mode & 077)
            // or another user owns them
};

// The whole file at `path`, opened O_RDONLY|O_CLOEXEC|O_NOCTTY|O_NONBLOCK
// (symlinks are followed, as certbot's live/ layout needs; the checks apply
// to the file they lead to). Must be a regular file of at most kMaxPemBytes;
// a kSecret file must have mode & 077 == 0 and belong to this user or root. Throws
// schedrig::Error(kUsage) "WHAT FILE: reason", `what` naming the file's role ("TLS key file").
std::string read_pem_file(const std::string& path, PemSecrecy secrecy, const char* what);

}  // namespace schedrig::tls
