// `schedrig token new|list`: the host's tokens file (docs/architecture.md
// "Tokens"). `new` appends a fresh token's hash and prints the token once
// (or writes it to a new 0600 file with --out, for provisioning that hands
// it to a box without a terminal); `list` shows who has tokens, never the
// hashes.
#include <fcntl.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/auth/token.h"
#include "common/auth/token_set.h"
#include "common/cli_error.h"
#include "common/unique_fd.h"
#include "host/cli/commands.h"
#include "host/store/default_db_path.h"

namespace schedrig::host {
namespace {

struct TokenNewOptions {
  std::string agent;
  std::string operator_name;
  std::string tokens;
  std::string out;  // --out F: the token goes to this new file instead of stdout
  CLI::Option* agent_flag = nullptr;
  CLI::Option* operator_flag = nullptr;
};

struct TokenListOptions {
  std::string tokens;
  bool json = false;
};

std::string tokens_path(const std::string& flag) {
  return flag.empty() ? store::default_tokens_path() : flag;
}

// The principal the flags name: exactly one of --agent and --operator.
auth::Principal principal_of(const TokenNewOptions& o) {
  const bool agent = o.agent_flag->count() > 0;
  const bool op = o.operator_flag->count() > 0;
  if (agent == op) {
    throw CliError(ErrorKind::kUsage, agent ? "give --agent ID or --operator NAME, not both"
                                            : "give --agent ID or --operator NAME");
  }
  return agent ? auth::Principal{auth::Role::kAgent, o.agent}
               : auth::Principal{auth::Role::kOperator, o.operator_name};
}

// --out F, created before the token exists so that a refused F adds no
// token: O_EXCL (an existing F, or a link planted there, is refused), 0600.
UniqueFd create_token_out(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
  if (fd.get() < 0) {
    throw CliError(ErrorKind::kUsage,
                   fmt::format("--out {}: cannot create it: {}{}", path, std::strerror(errno),
                               errno == EEXIST ? " (it is never overwritten)" : ""));
  }
  return fd;
}

// Writes `token` and a newline to `fd` and syncs it.
void write_token_out(const UniqueFd& fd, const std::string& path, const std::string& token) {
  const std::string line = token + "\n";
  std::size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(fd.get(), line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw CliError(ErrorKind::kFailed,
                     fmt::format("--out {}: write: {}", path, std::strerror(n < 0 ? errno : EIO)));
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd.get()) != 0)
    throw CliError(ErrorKind::kFailed,
                   fmt::format("--out {}: fsync: {}", path, std::strerror(errno)));
}

void run_token_new(const TokenNewOptions& o) {
  const auth::Principal who = principal_of(o);
  const std::string path = tokens_path(o.tokens);
  UniqueFd out;
  if (!o.out.empty()) out = create_token_out(o.out);
  // With --out the token is on disk (fsynced) before its hash is in the
  // tokens file: a failure leaves neither a token nobody has nor a hash
  // nobody holds the token of.
  const std::string token = auth::new_token();
  try {
    if (!o.out.empty()) write_token_out(out, o.out, token);
    auth::append_token(path, who.role, who.name, token);  // checks the name
  } catch (...) {
    if (!o.out.empty()) ::unlink(o.out.c_str());  // no half-made token file left behind
    throw;
  }
  if (o.out.empty()) std::cout << token << std::endl;
  std::cerr << fmt::format(
      "added {} {} to {}; {}\n", auth::role_name(who.role), who.name, path,
      o.out.empty() ? "this token is shown once" : "the token is in " + o.out + " (0600)");
}

void run_token_list(const TokenListOptions& o) {
  const auto principals = auth::TokenSet::load_file(tokens_path(o.tokens)).principals();
  if (!o.json) {
    for (const auto& p : principals) std::cout << auth::role_name(p.role) << " " << p.name << "\n";
    return;
  }
  auto rows = nlohmann::json::array();
  for (const auto& p : principals)
    rows.push_back({{"role", auth::role_name(p.role)}, {"name", p.name}});
  std::cout << nlohmann::json{{"tokens", rows}}.dump(2) << "\n";
}

void add_token_new(CLI::App& token, int& exit_code) {
  auto o = std::make_shared<TokenNewOptions>();
  auto* cmd = token.add_subcommand(
      "new",
      "make a token for an agent id or an operator name: its SHA-256 is appended to the tokens "
      "file (created 0600), the token itself is printed once on stdout");
  o->agent_flag = cmd->add_option("--agent", o->agent, "the agent id the token connects as");
  o->operator_flag =
      cmd->add_option("--operator", o->operator_name, "the operator name the token acts as");
  cmd->add_option("--tokens", o->tokens, "tokens file (default: STATE_DIR/tokens)");
  cmd->add_option("--out", o->out,
                  "write the token to this new file (created 0600, never overwritten: an "
                  "existing file or link is refused before any token is made) instead of stdout; "
                  "what provisioning hands to a box");
  cmd->callback([o, &exit_code] {
    run_token_new(*o);
    exit_code = kExitOk;
  });
}

void add_token_list(CLI::App& token, int& exit_code) {
  auto o = std::make_shared<TokenListOptions>();
  auto* cmd = token.add_subcommand(
      "list", "show the role and name of every token in the tokens file (never the hashes)");
  cmd->add_option("--tokens", o->tokens, "tokens file (default: STATE_DIR/tokens)");
  cmd->add_flag("--json", o->json, "JSON: {\"tokens\":[{role, name}]}");
  cmd->callback([o, &exit_code] {
    run_token_list(*o);
    exit_code = kExitOk;
  });
}

}  // namespace

void add_token_command(CLI::App& app, int& exit_code) {
  auto* token = app.add_subcommand("token", "manage the bearer tokens agents and operators use");
  token->require_subcommand(1);
  add_token_new(*token, exit_code);
  add_token_list(*token, exit_code);
}

}  // namespace schedrig::host
