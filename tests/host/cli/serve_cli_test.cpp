// `schedrig serve` as a user runs it: settings from --config (flags win),
// and what it refuses before it serves (exit 2 naming the file, line or
// setting). A serve that starts is stopped with SIGINT once it logs
// "serving on"; every run is bounded by timeout(1).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "tests/common/auth/private_files.h"
#include "tests/support/run_command.h"
#include "tests/support/test_pki.h"

namespace schedrig {
namespace {

using testing::bin;
using testing::file_mode;
using testing::make_test_pki;
using testing::read_file;
using testing::run_command;
using testing::TempDir;
using testing::write_file;

// A tokens file with one agent token, as `schedrig token new` makes it.
std::string make_tokens(const TempDir& dir) {
  const std::string f = dir.file("tokens");
  const auto r =
      run_command(bin("schedrig") + " token new --agent box1 --tokens " + f + " >/dev/null");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return f;
}

// `schedrig serve ARGS` that must refuse to start: its exit code and output.
testing::CommandResult refused(const std::string& args) {
  return run_command("timeout 20 " + bin("schedrig") + " serve " + args + " </dev/null");
}

// `schedrig serve ARGS` that must start: waits (10 s at most) for "serving
// on", then SIGINT. Returns the exit code (124: never served) and the log.
testing::CommandResult served(const TempDir& dir, const std::string& args) {
  const std::string log = dir.file("serve.log");
  const std::string script = fmt::format(
      "timeout --foreground 20 {} serve {} </dev/null >{} 2>&1 & pid=$!\n"
      "for i in $(seq 200); do grep -q 'serving on' {} && break; "
      "kill -0 $pid 2>/dev/null || break; sleep 0.05; done\n"
      "grep -q 'serving on' {} || kill -TERM $pid 2>/dev/null\n"
      "kill -INT $pid 2>/dev/null; wait $pid; rc=$?; "
      "grep -q 'serving on' {} || rc=124; cat {}; exit $rc",
      bin("schedrig"), args, log, log, log, log, log);
  return run_command(script);
}

TEST(ServeCli, AnUnknownConfigKeyNamesFileLineAndKey) {
  const TempDir dir;
  const std::string cfg = dir.file("serve.yaml");
  write_file(cfg, "listen: 127.0.0.1:0\nlisen: 127.0.0.1:0\n");
  const auto r = refused("--config " + cfg + " --tokens " + make_tokens(dir));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(r.output,
            "schedrig: error: " + cfg +
                ":2: unknown key 'lisen' (known: listen, db, tokens, tls_cert, tls_key, "
                "max_connections, max_pending_per_peer, insecure, threads, interrupt_after_s)\n");
}

TEST(ServeCli, ABadConfigValueNamesFileLineAndKey) {
  const TempDir dir;
  const std::string cfg = dir.file("serve.yaml");
  write_file(cfg, "threads: 0\n");
  auto r = refused("--config " + cfg);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(cfg + ":1: key 'threads': '0' is not a whole number in 1..64"),
            std::string::npos)
      << r.output;
  write_file(cfg, "listen: 127.0.0.1:0\ninsecure: maybe\n");
  r = refused("--config " + cfg);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(cfg + ":2: key 'insecure': 'maybe' is not true or false"),
            std::string::npos)
      << r.output;
  r = refused("--config " + dir.file("none.yaml"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(dir.file("none.yaml") + ": cannot read"), std::string::npos) << r.output;
}

// The config's listen would be refused (not loopback, no TLS); the flag's
// wins, and the config's tokens and db are used.
TEST(ServeCli, FlagsWinOverTheConfig) {
  const TempDir dir;
  const std::string cfg = dir.file("serve.yaml");
  write_file(cfg, fmt::format("listen: 192.0.2.1:7878\ntokens: {}\ndb: {}\nthreads: 1\n",
                              make_tokens(dir), dir.file("from-config.db")));
  const auto r = served(dir, "--config " + cfg + " --listen 127.0.0.1:0");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("serving on 127.0.0.1:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("agents ws://127.0.0.1:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1 token(s), into " + dir.file("from-config.db")), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("--insecure"), std::string::npos) << r.output;
}

TEST(ServeCli, TlsFromTheConfigServesWss) {
  const TempDir dir;
  const auto pki = make_test_pki(dir.path());
  const std::string cfg = dir.file("serve.yaml");
  write_file(cfg, fmt::format("listen: 127.0.0.1:0\ntls_cert: {}\ntls_key: {}\n", pki.server_cert,
                              pki.server_key));
  const auto r = served(
      dir, fmt::format("--config {} --tokens {} --db {}", cfg, make_tokens(dir), dir.file("s.db")));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("agents wss://127.0.0.1:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("API https://127.0.0.1:"), std::string::npos) << r.output;
}

TEST(ServeCli, AMissingTokensFileIsNamed) {
  const TempDir dir;
  const std::string f = dir.file("no-tokens");
  const auto r = refused("--listen 127.0.0.1:0 --db " + dir.file("s.db") + " --tokens " + f);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("tokens file " + f + " does not exist"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("schedrig token new --agent ID --tokens " + f), std::string::npos)
      << r.output;
}

TEST(ServeCli, NotLoopbackWithoutTlsIsRefused) {
  const TempDir dir;
  const std::string tokens = make_tokens(dir);
  auto r = refused("--listen 192.0.2.1:7878 --tokens " + tokens);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--listen 192.0.2.1:7878 is not a loopback address"), std::string::npos)
      << r.output;
  const std::string cfg = dir.file("serve.yaml");
  write_file(cfg, "listen: 0.0.0.0:0\n");
  r = refused("--config " + cfg + " --tokens " + tokens);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("0.0.0.0:0 is not a loopback address"), std::string::npos) << r.output;
}

TEST(ServeCli, InsecureServesPlainAndWarns) {
  const TempDir dir;
  const std::string tokens = make_tokens(dir);
  const std::string warning =
      "--insecure: no TLS; tokens and envelopes cross the network in the clear";
  auto r = served(dir, fmt::format("--listen 127.0.0.1:0 --insecure --tokens {} --db {}", tokens,
                                   dir.file("s.db")));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(warning), std::string::npos) << r.output;
  // From the config, on a non-loopback address.
  const std::string cfg = dir.file("serve.yaml");
  write_file(cfg, fmt::format("listen: 0.0.0.0:0\ninsecure: true\ntokens: {}\ndb: {}\n", tokens,
                              dir.file("s.db")));
  r = served(dir, "--config " + cfg);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("serving on 0.0.0.0:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(warning), std::string::npos) << r.output;
}

TEST(ServeCli, ATlsKeyOthersMayReadIsRefusedBeforeTheStoreOpens) {
  const TempDir dir;
  const auto pki = make_test_pki(dir.path());
  ASSERT_EQ(::chmod(pki.server_key.c_str(), 0644), 0);
  const std::string db = dir.file("s.db");
  const auto r =
      refused(fmt::format("--listen 127.0.0.1:0 --tokens {} --db {} --tls-cert {} "
                          "--tls-key {}",
                          make_tokens(dir), db, pki.server_cert, pki.server_key));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(pki.server_key), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("0644"), std::string::npos) << r.output;
  EXPECT_EQ(file_mode(db), -1) << "no store was opened";
}

// A socket listening on 127.0.0.1:<ephemeral> while it lives: a busy port.
class BusyPort {
 public:
  BusyPort() : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&a), len), 0);
    EXPECT_EQ(::listen(fd_, 1), 0);
    EXPECT_EQ(::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len), 0);
    port_ = ntohs(a.sin_port);
  }
  ~BusyPort() { ::close(fd_); }
  BusyPort(const BusyPort&) = delete;
  BusyPort& operator=(const BusyPort&) = delete;
  unsigned port() const { return port_; }

 private:
  int fd_;
  unsigned port_ = 0;
};

TEST(ServeCli, ABusyPortIsExit3NamingTheAddressAndLeavesNoStore) {
  const TempDir dir;
  const BusyPort busy;
  const std::string db = dir.file("s.db");
  const std::string address = fmt::format("127.0.0.1:{}", busy.port());
  const auto r =
      refused(fmt::format("--listen {} --tokens {} --db {}", address, make_tokens(dir), db));
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_EQ(r.output, "schedrig: error: cannot listen on " + address +
                          ": bind: Address already in use (another serve or program has this "
                          "port)\n");
  EXPECT_EQ(file_mode(db), -1) << "no store was created";
  EXPECT_EQ(file_mode(db + "-wal"), -1);
}

TEST(ServeCli, MaxPendingPerPeerComesFromTheFlagOrTheConfig) {
  const TempDir dir;
  const std::string cfg = dir.file("serve.yaml");
  write_file(cfg, "max_pending_per_peer: 0\n");
  auto r = refused("--config " + cfg);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(cfg + ":1: key 'max_pending_per_peer': '0' is not a whole number in "
                                "1..1000000"),
            std::string::npos)
      << r.output;
  r = refused("--max-pending-per-peer 0");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--max-pending-per-peer"), std::string::npos) << r.output;
  write_file(cfg, "max_pending_per_peer: 8\n");
  r = served(dir, fmt::format("--config {} --listen 127.0.0.1:0 --tokens {} --db {}", cfg,
                              make_tokens(dir), dir.file("s.db")));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("at most 4096 connections, 8 per address before a token is accepted"),
            std::string::npos)
      << r.output;
  r = served(dir, fmt::format("--config {} --max-pending-per-peer 3 --listen 127.0.0.1:0 "
                              "--tokens {} --db {}",
                              cfg, make_tokens(dir), dir.file("s.db")));
  EXPECT_NE(r.output.find(", 3 per address"), std::string::npos) << "the flag wins: " << r.output;
}

}  // namespace
}  // namespace schedrig
