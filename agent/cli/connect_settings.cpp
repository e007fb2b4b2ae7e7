#include "agent/cli/connect_settings.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "agent/cli/state_options.h"
#include "agent/link/ws_url.h"
#include "agent/tools/tool_error.h"
#include "common/auth/token.h"
#include "common/cli_error.h"
#include "common/config_file.h"
#include "common/printable.h"
#include "common/yaml_line.h"

namespace schedrig::agent {
namespace {

[[noreturn]] void refuse(const std::string& message) { throw CliError(ErrorKind::kUsage, message); }

// The token on an inherited fd, which is closed whatever happens, so no
// workload the agent starts can inherit it.
std::string read_and_close_token_fd(int fd) {
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  return auth::read_token_fd(fd);
}

// One setting: the flag if given, else the environment variable `env`
// (nullptr: none), else the config's `key`, else the flag's default.
class Settle {
 public:
  Settle(const ConnectFlags& flags, const std::optional<ConfigFile>& config)
      : flags_(flags), config_(config) {}

  std::string text(const char* flag, const std::string& value, std::string_view key,
                   const char* env = nullptr) const {
    if (flags_.given.contains(flag)) return value;
    if (const char* e = env ? std::getenv(env) : nullptr; e && *e) return e;
    if (config_) {
      if (auto v = config_->text(key)) return *v;
    }
    return value;
  }
  bool from_config(const char* flag, std::string_view key) const {
    return !flags_.given.contains(flag) && config_ && config_->text(key);
  }
  double number(const char* flag, double value, std::string_view key, double min,
                double max) const {
    if (flags_.given.contains(flag) || !config_) return value;
    return config_->number(key, min, max).value_or(value);
  }

 private:
  const ConnectFlags& flags_;
  const std::optional<ConfigFile>& config_;
};

std::string settle_root(const Settle& settle, const ConnectFlags& f,
                        const std::optional<ConfigFile>& config) {
  std::string root = settle.text("--root", f.state.root, "root");
  if (settle.from_config("--root", "root")) {
    if (const std::string why = root_problem(root); !why.empty())
      refuse(fmt::format("{}: {}", config->where("root"), why));
  }
  return root;
}

std::string settle_token(const Settle& settle, const ConnectFlags& f) {
  const std::string file =
      settle.text("--token-file", f.token_file, "token_file", "SCHEDRIG_AGENT_TOKEN_FILE");
  if (file.empty()) {
    refuse(
        "connect needs the agent's token: --token-file F, --token-fd N, $SCHEDRIG_AGENT_TOKEN_FILE "
        "or "
        "token_file in --config (`schedrig token new --agent ID` on the host makes one)");
  }
  return auth::read_token_file(file);
}

using ConfigEntries = std::vector<std::pair<std::string, std::string>>;

// The config's tools: entries, then each --tool over them.
tools::ToolPaths settle_tools(const ConnectFlags& f, const std::optional<ConfigFile>& config) {
  tools::ToolPaths paths;
  for (const auto& [name, path] : config ? config->entries("tools") : ConfigEntries{}) {
    try {
      paths.set(name, path);
    } catch (const tools::ToolArgsError& e) {
      refuse(fmt::format("{}: {}", config->where("tools." + name), e.what()));
    }
  }
  apply_tool_flags(paths, f.tools);
  return paths;
}

// bisect_deny: a list of knob names ([A-Za-z0-9._/-], "NI_RANDOM",
// "kernel.numa_balancing"), bounded; empty when the file has none.
std::vector<std::string> settle_bisect_deny(const ConfigFile& config) {
  const auto node = config.section("bisect_deny");
  if (!node || node->IsNull()) return {};  // `bisect_deny:` alone: an empty list
  const auto at = [&](std::size_t i, const YAML::Node& n) {
    return fmt::format("{}:{}: bisect_deny[{}]", config.path(), yaml_line(n), i);
  };
  const std::string where = fmt::format("{}:{}: bisect_deny", config.path(), yaml_line(*node));
  if (!node->IsSequence())
    refuse(where + ": want a list of knob names ([NI_RANDOM, kernel.numa_balancing])");
  if (node->size() > kMaxBisectDeny)
    refuse(fmt::format("{}: {} names; at most {}", where, node->size(), kMaxBisectDeny));
  std::vector<std::string> names;
  for (std::size_t i = 0; i < node->size(); ++i) {
    const YAML::Node n = (*node)[i];
    if (!n.IsScalar()) refuse(fmt::format("{}: a list or map where a knob name goes", at(i, n)));
    const std::string name = n.Scalar();
    const bool ok = !name.empty() && name.size() <= kMaxBisectDenyNameBytes &&
                    std::all_of(name.begin(), name.end(), [](unsigned char c) {
                      return std::isalnum(c) || c == '.' || c == '_' || c == '/' || c == '-';
                    });
    if (!ok)
      refuse(fmt::format("{}: '{}' is not a knob name (letters, digits, . _ / -; 1-{} bytes)",
                         at(i, n), printable(name), kMaxBisectDenyNameBytes));
    names.push_back(name);
  }
  return names;
}

}  // namespace

SessionOptions connect_session_options(const ConnectFlags& f) {
  std::optional<std::string> fd_token;
  if (f.token_fd >= 0) fd_token = read_and_close_token_fd(f.token_fd);
  std::optional<ConfigFile> config;
  if (!f.config.empty())
    config = ConfigFile::load(f.config, kConnectConfigKeys, kConnectConfigMapKeys,
                              kConnectConfigSectionKeys);
  const Settle settle(f, config);

  SessionOptions s;
  s.url = settle.text("url", f.url, "url");
  if (s.url.empty()) refuse("connect needs the host's URL: give it first, or as url in --config");
  try {
    link::parse_ws_url(s.url);  // a bad URL is reported before anything is read
  } catch (const std::invalid_argument& e) {
    refuse(e.what());
  }
  s.id = settle.text("--id", f.id, "id");
  if (!s.id.empty() && !auth::valid_principal_name(s.id))
    refuse("--id: " + auth::invalid_name_reason(s.id));
  s.connect_timeout = std::chrono::milliseconds(static_cast<long>(
      settle.number("--connect-timeout", f.connect_timeout_s, "connect_timeout_s", 0.1, 3600) *
      1000));
  s.give_up_after = std::chrono::milliseconds(static_cast<long>(
      settle.number("--give-up-after", f.give_up_after_s, "give_up_after_s", 0, 1e9) * 1000));
  s.spool_max_bytes = static_cast<std::uint64_t>(
      settle.number("--spool-max-mb", f.spool_max_mb, "spool_max_mb", 1, 1 << 20) * 1024 * 1024);
  s.state.root = settle_root(settle, f, config);
  s.state.state_dir = settle.text("--state-dir", f.state.state_dir, "state_dir");
  s.state.run_lock = f.state.run_lock;  // flags only (no --config key)
  s.state.tools = settle_tools(f, config);
  if (auto kernels = config ? config->section("kernels") : nullptr) {
    s.kernels = boot::KernelTable::parse(*kernels, f.config, procfs::Root::from_flag(s.state.root));
  }
  if (config) s.bisect_deny = settle_bisect_deny(*config);
  s.security.ca_file = settle.text("--ca", f.ca, "ca", "SCHEDRIG_CA");
  s.security.token = fd_token ? *fd_token : settle_token(settle, f);
  return s;
}

}  // namespace schedrig::agent
