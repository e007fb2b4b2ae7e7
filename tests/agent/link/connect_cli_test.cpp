// The built `schedrig-agent connect`: where its token, CA and settings come
// from (flags, SCHEDRIG_* variables, --config) and what it refuses before
// dialing: the old --token, a token file others may read, an unknown config
// key, no token at all. Against a TLS host (tls_host.h) that refuses the
// token, the token from a pipe, a file or the config reaches the upgrade.
#include <sys/stat.h>

#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "tests/agent/link/tls_host.h"
#include "tests/support/run_command.h"
#include "tests/support/test_pki.h"

namespace schedrig::agent {
namespace {

using testing::bin;
using testing::make_test_pki;
using testing::run_command;
using testing::TempDir;
using testing::TestPki;
using testing::TlsHost;
namespace http = boost::beast::http;

std::string write(const std::string& path, const std::string& text, int mode = 0600) {
  std::ofstream(path) << text;
  ::chmod(path.c_str(), static_cast<mode_t>(mode));
  return path;
}

// `schedrig-agent connect ARGS` with its own state dir, SCHEDRIG_* unset;
// `env` "VAR=value ...", `stdin_text` piped to it when not empty.
testing::CommandResult connect(const TempDir& dir, const std::string& args,
                               const std::string& env = "", const std::string& stdin_text = "") {
  const std::string pipe = stdin_text.empty() ? "" : "printf '" + stdin_text + "' | ";
  return run_command(pipe + "env -u SCHEDRIG_AGENT_TOKEN_FILE -u SCHEDRIG_CA " + env + " " +
                     bin("schedrig-agent") + " connect --state-dir " + dir.file("state") +
                     " --connect-timeout 5 " + args);
}

TEST(ConnectCli, TheOldTokenFlagIsRefused) {
  const TempDir dir;
  const auto r = connect(dir, "ws://127.0.0.1:1/agent --token s3cret");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--token is gone"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--token-file F"), std::string::npos) << r.output;
}

TEST(ConnectCli, ATokenFileOthersMayReadIsRefused) {
  const TempDir dir;
  const std::string f = write(dir.file("agent.token"), "tok\n", 0644);
  const auto r = connect(dir, "ws://127.0.0.1:1/agent --token-file " + f);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("token file " + f), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("0644"), std::string::npos) << r.output;
}

TEST(ConnectCli, NoTokenIsBadUsage) {
  const TempDir dir;
  const auto r = connect(dir, "ws://127.0.0.1:1/agent");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("connect needs the agent's token"), std::string::npos) << r.output;
}

TEST(ConnectCli, AnUnknownConfigKeyNamesFileAndLine) {
  const TempDir dir;
  const std::string cfg = write(dir.file("agent.yaml"), "url: ws://127.0.0.1:1/agent\ntokn: x\n");
  const auto r = connect(dir, "--config " + cfg);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(
      r.output.find(cfg + ":2: unknown key 'tokn' (known: url, id, token_file, ca, "
                          "connect_timeout_s, root, state_dir, give_up_after_s, spool_max_mb, "
                          "tools, kernels, bisect_deny)"),
      std::string::npos)
      << r.output;
}

// A kernels: entry the agent could not boot is refused with its file and
// line before dialing (agent/boot/kernel_table.h).
TEST(ConnectCli, AKernelsEntryThatCannotBootIsRefusedBeforeDialing) {
  const TempDir dir;
  const std::string cfg = write(dir.file("agent.yaml"),
                                "url: ws://127.0.0.1:1/agent\nkernels:\n  rhel-10.2:\n    "
                                "release: 6.12\n    kexec: {image: vmlinuz, cmdline: ro}\n");
  const auto r = connect(dir, "--config " + cfg);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(cfg + ":5: kernels.rhel-10.2: kexec.image: 'vmlinuz' is not an absolute "
                                "path"),
            std::string::npos)
      << r.output;
}

// The tools: map names binaries by tool; a name schedrig does not run, or a
// relative path, is refused with the file, line and entry, before dialing.
TEST(ConnectCli, AToolsEntryThatCannotBeUsedNamesFileLineAndEntry) {
  const TempDir dir;
  const std::string cfg =
      write(dir.file("agent.yaml"),
            "url: ws://127.0.0.1:1/agent\ntools:\n  schbench: /opt/schbench\n  sh: /bin/sh\n");
  auto r = connect(dir, "--config " + cfg);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(cfg + ":4: key 'tools.sh': tools: 'sh' is not a tool schedrig runs"),
            std::string::npos)
      << r.output;
  r = connect(dir, "--config " + cfg + " --tool stress-ng=stress-ng");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--tool"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("'stress-ng' is not an absolute path"), std::string::npos) << r.output;
}

// bisect_deny: a list of knob names, sent in Hello; anything else is
// refused with the file, line and entry before dialing.
TEST(ConnectCli, ABisectDenyThatIsNotAListOfKnobNamesIsRefused) {
  const TempDir dir;
  std::string cfg = write(dir.file("a.yaml"),
                          "url: ws://127.0.0.1:1/agent\nbisect_deny:\n  - NI_RANDOM\n  - "
                          "\"rm -rf\"\n");
  auto r = connect(dir, "--config " + cfg);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(cfg + ":4: bisect_deny[1]: 'rm -rf' is not a knob name"),
            std::string::npos)
      << r.output;
  cfg = write(dir.file("b.yaml"), "url: ws://127.0.0.1:1/agent\nbisect_deny: NI_RANDOM\n");
  r = connect(dir, "--config " + cfg);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(cfg + ":2: bisect_deny: want a list of knob names"), std::string::npos)
      << r.output;
  cfg = write(dir.file("n.yaml"), "url: ws://127.0.0.1:1/agent\nbisect_deny: [[NI_RANDOM]]\n");
  r = connect(dir, "--config " + cfg);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(cfg + ":2: bisect_deny[0]: a list or map where a knob name goes"),
            std::string::npos)
      << r.output;
  // `bisect_deny:` with nothing after it is an empty list: the config is
  // read and the agent dials (port 1: nobody there, so it gives up).
  const std::string token = write(dir.file("agent.token"), "tok\n");
  cfg = write(dir.file("c.yaml"), "url: ws://127.0.0.1:1/agent\nbisect_deny:\n");
  r = connect(dir, "--config " + cfg + " --give-up-after 0.2 --token-file " + token);
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_EQ(r.output.find("bisect_deny"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("giving up after 0.2 s"), std::string::npos) << r.output;
}

TEST(ConnectCli, AnInvalidIdIsBadUsage) {
  const TempDir dir;
  const std::string f = write(dir.file("agent.token"), "tok\n");
  const auto r = connect(dir, "ws://127.0.0.1:1/agent --id '-x y' --token-file " + f);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--id: invalid name"), std::string::npos) << r.output;
}

// A host nobody answers for is redialed until --give-up-after passes: then
// exit 3 (never reached), saying so.
TEST(ConnectCli, GiveUpAfterEndsAnAgentThatNeverReachedTheHostWithExit3) {
  const TempDir dir;
  const std::string f = write(dir.file("agent.token"), "tok\n");
  boost::asio::io_context ioc;
  unsigned short port = 0;
  {
    boost::asio::ip::tcp::acceptor a(
        ioc, {boost::asio::ip::make_address("127.0.0.1"), 0});  // free now, nobody listens later
    port = a.local_endpoint().port();
  }
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = connect(dir, "ws://127.0.0.1:" + std::to_string(port) +
                                  "/agent --give-up-after 0.5 --token-file " + f);
  EXPECT_EQ(r.exit_code, 3) << r.output;
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(500));
  EXPECT_NE(r.output.find("host unreachable: cannot reach ws://127.0.0.1:" + std::to_string(port) +
                          "/agent: Connection refused; still trying"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("giving up after 0.5 s"), std::string::npos) << r.output;
}

// Runs `connect ARGS` against a TLS host that answers the upgrade 401, and
// returns what the host saw as Authorization.
std::string refused_token(const TempDir& dir, const TestPki& pki, const std::string& args,
                          const std::string& env = "", const std::string& stdin_text = "") {
  TlsHost host(pki);
  std::thread server([&] { host.accept(http::status::unauthorized); });
  const std::string url = "wss://127.0.0.1:" + std::to_string(host.port()) + "/agent";
  std::string line = args;
  for (auto at = line.find("URL"); at != std::string::npos; at = line.find("URL"))
    line.replace(at, 3, url);
  const auto r = connect(dir, line, env, stdin_text);
  server.join();
  EXPECT_EQ(host.handshake_error, "");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("host at " + url + " refused the agent's token (401 Unauthorized)"),
            std::string::npos)
      << r.output;
  return host.authorization;
}

TEST(ConnectCli, TheTokenReachesTheUpgradeFromAPipeAFileOrTheConfig) {
  const TempDir dir;
  const TestPki pki = make_test_pki(dir.path());
  const std::string token = write(dir.file("agent.token"), "from-file\n");
  // --token-fd: a pipe, as schedrig lab passes it.
  EXPECT_EQ(
      refused_token(dir, pki, "URL --token-fd 3 --ca " + pki.ca_cert + " 3<&0", "", "from-fd\\n"),
      "Bearer from-fd");
  EXPECT_EQ(refused_token(dir, pki, "URL --token-file " + token + " --ca " + pki.ca_cert),
            "Bearer from-file");
  // The environment, and --config (its url loses to the flag's).
  EXPECT_EQ(refused_token(dir, pki, "URL",
                          "SCHEDRIG_AGENT_TOKEN_FILE=" + token + " SCHEDRIG_CA=" + pki.ca_cert),
            "Bearer from-file");
  const std::string other = write(dir.file("other.token"), "from-config\n");
  const std::string cfg =
      write(dir.file("agent.yaml"), "url: wss://127.0.0.1:1/agent\ntoken_file: " + other +
                                        "\nca: " + pki.ca_cert + "\nconnect_timeout_s: 5\n");
  EXPECT_EQ(refused_token(dir, pki, "URL --config " + cfg), "Bearer from-config");
  EXPECT_EQ(refused_token(dir, pki, "URL --config " + cfg + " --token-file " + token),
            "Bearer from-file");
}

// The host reads the Hello, answers it with an Error and closes with 1008,
// as the collector does for an --id the token was not made for: the agent
// exits 2, as for a refused token, and prints the host's reason escaped.
TEST(ConnectCli, AHostThatClosesWith1008RefusesTheAgent) {
  const TempDir dir;
  const TestPki pki = make_test_pki(dir.path());
  const std::string token = write(dir.file("box1.token"), "token-of-box1\n");
  const std::string why = "agent_id 'box2' is not the id this token speaks for ('box1')\x1b[2J";
  TlsHost host(pki);
  std::string hello_id;
  std::thread server([&] {
    host.accept();
    hello_id = host.read().agent_id();
    v1::Envelope error;
    error.mutable_error()->set_code(v1::ERROR_NOT_OWNER);
    error.mutable_error()->set_message(why);
    host.send(error);
    host.close_with(boost::beast::websocket::close_code::policy_error, "refused: " + why);
  });
  const std::string url = "wss://127.0.0.1:" + std::to_string(host.port()) + "/agent";
  const auto r = connect(dir, url + " --id box2 --token-file " + token + " --ca " + pki.ca_cert);
  server.join();
  EXPECT_EQ(hello_id, "box2");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  const std::string escaped = "agent_id 'box2' is not the id this token speaks for ('box1')\\e[2J";
  EXPECT_NE(r.output.find("host reports an error: " + escaped), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("host refused this agent: host closed the connection (1008 refused: " +
                          escaped + ")"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find('\x1b'), std::string::npos) << "a raw ESC reached the terminal";
}

}  // namespace
}  // namespace schedrig::agent
