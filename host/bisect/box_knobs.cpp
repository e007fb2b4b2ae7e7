#include "host/bisect/box_knobs.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "common/cli_error.h"
#include "common/printable.h"
#include "common/unique_fd.h"
#include "common/wait_status.h"
#include "host/bisect/probe.h"

extern char** environ;

namespace schedrig::bisect {
namespace {

constexpr std::size_t kMaxFeatures = 512;
constexpr std::size_t kMaxKnobs = 256;
constexpr std::size_t kMaxDeny = 256;
constexpr std::size_t kMaxOutputBytes = 1 << 20;

std::string string_or(const nlohmann::json& j, const char* key, const std::string& fallback) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}

// A sched feature's name as the kernel spells them (SCHED_FEAT(NAME, ...)).
bool feature_name(const std::string& name) {
  return !name.empty() && name.size() <= 64 && std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

// `argv` run with stdout on a pipe; its output and exit status.
std::pair<std::string, int> capture(const std::vector<std::string>& argv) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw CliError(ErrorKind::kUnreachable, fmt::format("pipe: {}", std::strerror(errno)));
  UniqueFd read_end(fds[0]), write_end(fds[1]);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, write_end.get(), STDOUT_FILENO);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int err = ::posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0)
    throw CliError(ErrorKind::kUnreachable,
                   fmt::format("cannot run {}: {}", argv[0], std::strerror(err)));
  write_end.reset();
  std::string out;
  char buf[8192];
  for (;;) {
    const ssize_t n = ::read(read_end.get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (out.size() + static_cast<std::size_t>(n) <= kMaxOutputBytes) out.append(buf, n);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return {out, status};
}

// The server's left_out counts: features and knobs it did not list are
// named as skipped; a denylist it did not list whole stops the search (a
// denied knob could be probed).
void read_left_out(const nlohmann::json& doc, BoxKnobs& box) {
  if (!doc.contains("left_out") || !doc["left_out"].is_object()) return;
  const auto count = [&](const char* key) {
    const auto& v = doc["left_out"].value(key, nlohmann::json(0));
    if (!v.is_number_unsigned())
      throw std::invalid_argument(fmt::format("left_out.{} is not a count", key));
    return v.get<std::uint64_t>();
  };
  if (const auto n = count("bisect_deny"); n > 0)
    throw std::invalid_argument(fmt::format(
        "the server left out {} of the agent's bisect_deny names: its denylist is not whole", n));
  const std::pair<const char*, const char*> kinds[] = {{"features", "sched features"},
                                                       {"knobs", "knobs"}};
  for (const auto& [key, what] : kinds) {
    if (const auto n = count(key); n > 0)
      box.not_listed.push_back(
          {fmt::format("{} ({} more)", what, n),
           fmt::format("the server lists at most {} features and {} knobs of a box; these were "
                       "not listed",
                       kMaxFeatures, kMaxKnobs)});
  }
}

BoxKnobs read_knobs_list(const nlohmann::json& doc) {
  if (!doc.is_object() || !doc.contains("features") || !doc["features"].is_object() ||
      !doc.contains("knobs") || !doc["knobs"].is_array())
    throw std::invalid_argument("not a `knobs list --json` document (features, knobs)");
  BoxKnobs box;
  const auto& f = doc["features"];
  if (f.contains("features") && f["features"].is_object()) {
    if (f["features"].size() > kMaxFeatures)
      throw std::invalid_argument(fmt::format("more than {} features", kMaxFeatures));
    for (const auto& [name, on] : f["features"].items()) {
      if (!on.is_boolean()) continue;
      if (feature_name(name))
        box.features[name] = on.get<bool>();
      else
        box.bad_feature_names.push_back(name);
    }
  }
  box.features_writable = f.value("writable", false) && !box.features.empty();
  box.features_why_not =
      string_or(f, "error", string_or(f, "write_error", box.features.empty() ? "no features" : ""));
  if (doc["knobs"].size() > kMaxKnobs)
    throw std::invalid_argument(fmt::format("more than {} knobs", kMaxKnobs));
  for (const auto& k : doc["knobs"]) {
    if (!k.is_object() || !k.contains("name") || !k["name"].is_string())
      throw std::invalid_argument("a knob without a name");
    BoxKnob knob;
    if (k.contains("value") && k["value"].is_string()) knob.value = k["value"].get<std::string>();
    knob.writable = k.value("writable", false);
    knob.why_not = string_or(k, "error", knob.writable ? "" : "not writable");
    if (!box.knobs.emplace(k["name"].get<std::string>(), std::move(knob)).second)
      throw std::invalid_argument(
          fmt::format("knob '{}' listed twice", k["name"].get<std::string>()));
  }
  if (doc.contains("bisect_deny")) {  // a denylist read in part would let a denied knob flip
    if (!doc["bisect_deny"].is_array() || doc["bisect_deny"].size() > kMaxDeny)
      throw std::invalid_argument(
          fmt::format("bisect_deny is not a list of at most {} names", kMaxDeny));
    for (const auto& name : doc["bisect_deny"]) box.agent_deny.push_back(name.get<std::string>());
  }
  box.instance_id = string_or(doc, "instance_id", "");
  read_left_out(doc, box);
  return box;
}

}  // namespace

BoxKnobs parse_knobs_list(const nlohmann::json& doc) {
  try {
    return read_knobs_list(doc);
  } catch (const nlohmann::json::exception& e) {  // a value of the wrong type
    throw std::invalid_argument(fmt::format("not a `knobs list --json` document: {}", e.what()));
  }
}

BoxKnobs read_local_box_knobs(const std::string& agent, const std::string& root,
                              const std::string& state_dir) {
  std::vector<std::string> argv = {agent, "--log-level", "error", "knobs", "list", "--json"};
  if (!root.empty()) argv.insert(argv.end(), {"--root", root});
  if (!state_dir.empty()) argv.insert(argv.end(), {"--state-dir", state_dir});
  const auto [out, status] = capture(argv);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw CliError(
        ErrorKind::kUnreachable,
        fmt::format("{} knobs list failed ({}): is it the agent?", agent, describe_status(status)));
  try {
    return parse_knobs_list(nlohmann::json::parse(out));
  } catch (const std::exception& e) {
    throw CliError(ErrorKind::kUsage,
                   fmt::format("{} knobs list --json printed no knobs list ({}): is it "
                               "schedrig-agent?",
                               agent, printable(e.what())));
  }
}

std::vector<std::string> as_found_drift(const BoxKnobs& before, const store::RunRecord& probe) {
  std::map<std::string, std::string> drift;
  for (const auto& it : probe.iterations) {
    if (it.variant != kAsFound) continue;
    for (const auto& [name, seen] : it.knobs) {
      std::optional<std::string> was;
      if (const auto f = before.features.find(name); f != before.features.end())
        was = f->second ? "on" : "off";
      else if (const auto k = before.knobs.find(name); k != before.knobs.end())
        was = k->second.value;
      if (was && *was != seen && !drift.count(name))
        drift[name] = fmt::format("{}: {} -> {}", name, *was, seen);
    }
  }
  std::vector<std::string> out;
  for (auto& [name, line] : drift) out.push_back(std::move(line));
  return out;
}

std::string box_changes(const BoxKnobs& a, const BoxKnobs& b) {
  std::string out;
  for (const auto& [name, on] : a.features)
    if (b.features.count(name) && b.features.at(name) != on)
      out += fmt::format(" {}: {} -> {}", name, on ? "on" : "off", on ? "off" : "on");
  for (const auto& [name, k] : a.knobs)
    if (b.knobs.count(name) && b.knobs.at(name).value != k.value)
      out += fmt::format(" {}: {} -> {}", name, k.value.value_or("?"),
                         b.knobs.at(name).value.value_or("?"));
  return out;
}

}  // namespace schedrig::bisect
