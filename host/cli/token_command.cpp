// `schedrig token new|list`: the host's tokens file (docs/architecture.md
// "Tokens"). `new` appends a fresh token's hash and prints the token once;
// `list` shows who has tokens, never the hashes.
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/auth/token_set.h"
#include "common/cli_error.h"
#include "host/cli/commands.h"
#include "host/store/default_db_path.h"

namespace schedrig::host {
namespace {

struct TokenNewOptions {
  std::string agent;
  std::string operator_name;
  std::string tokens;
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

void run_token_new(const TokenNewOptions& o) {
  const auth::Principal who = principal_of(o);
  const std::string path = tokens_path(o.tokens);
  const std::string token = auth::append_new_token(path, who.role, who.name);  // checks the name
  std::cout << token << std::endl;
  std::cerr << fmt::format("added {} {} to {}; this token is shown once\n",
                           auth::role_name(who.role), who.name, path);
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
