#include "agent/tools/stress_ng_command.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "agent/tools/tool_cpus.h"
#include "agent/tools/tool_options.h"
#include "common/printable.h"

namespace schedrig::tools {
namespace {

constexpr const char* kTool = "stress-ng";
constexpr std::string_view kFlagLetters = "?khMVvqn";
constexpr std::string_view kValueLetters = "tbcijmdfslpPCSayFDTuorBRYx";

constexpr const char* kRunTime = "the run time is schedrig's (the plan's duration_s); leave it out";
constexpr const char* kFiles =
    "output, log and job files are schedrig's; stress-ng writes only in the run's private "
    "directory";
constexpr const char* kReport = "it changes the report schedrig reads";
constexpr const char* kNotARun = "not one benchmark run of the stressors the case names";
constexpr const char* kPolicy =
    "scheduling policy is not the tool's to change: every case runs under the box's own";
constexpr const char* kMembind = "memory binding is the case's (its membind key)";
constexpr const char* kKernel = "it changes kernel controls or may hang the box";

struct Refused {
  const char* long_name;
  char short_name;  // '\0' = none
  const char* reason;
};

const std::vector<Refused> kRefused = {
    {"timeout", 't', kRunTime},     {"yaml", 'Y', kFiles},         {"log-file", 0, kFiles},
    {"job", 'j', kFiles},           {"syslog", 0, kFiles},         {"temp-path", 0, kFiles},
    {"quiet", 'q', kReport},        {"log-brief", 0, kReport},     {"help", 'h', kNotARun},
    {"version", 'V', kNotARun},     {"dry-run", 'n', kNotARun},    {"stressors", 0, kNotARun},
    {"verifiable", 0, kNotARun},    {"all", 'a', kNotARun},        {"parallel", 0, kNotARun},
    {"random", 'r', kNotARun},      {"sequential", 0, kNotARun},   {"permute", 0, kNotARun},
    {"with", 0, kNotARun},          {"class", 0, kNotARun},        {"sched", 0, kPolicy},
    {"sched-prio", 0, kPolicy},     {"sched-period", 0, kPolicy},  {"sched-runtime", 0, kPolicy},
    {"sched-deadline", 0, kPolicy}, {"sched-reclaim", 0, kPolicy}, {"mbind", 0, kMembind},
    {"ignite-cpu", 0, kKernel},     {"pathological", 0, kKernel}};

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// A long option name ("time" of "--time=5") checked against the refusals.
void check_long(const std::string& word, std::string_view name) {
  for (const Refused& r : kRefused) {
    if (!starts_with(r.long_name, name)) continue;
    refuse_argument(kTool, word,
                    name == r.long_name
                        ? std::string(r.reason)
                        : fmt::format("it could name --{} (getopt_long takes a unique prefix): {}",
                                      r.long_name, r.reason));
  }
}

// A cluster of short options ("-c4", "-kM"); returns whether its last letter
// takes the next word as its value.
bool check_short(const std::string& word) {
  for (std::size_t j = 1; j < word.size(); ++j) {
    const char c = word[j];
    for (const Refused& r : kRefused) {
      if (r.short_name != c) continue;
      refuse_argument(
          kTool, word,
          word.size() == 2 ? std::string(r.reason) : fmt::format("-{}: {}", c, r.reason));
    }
    if (kValueLetters.find(c) != std::string_view::npos) return j + 1 == word.size();
    if (kFlagLetters.find(c) == std::string_view::npos) {
      refuse_argument(kTool, word,
                      fmt::format("-{} is not a stress-ng option", printable(std::string(1, c))));
    }
  }
  return false;
}

bool is_number(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) || c == '.';
  });
}

std::string whole_seconds(std::chrono::nanoseconds d) {
  const double s = std::chrono::duration<double>(d).count();
  return fmt::format("{}s", std::max(1LL, static_cast<long long>(std::ceil(s))));
}

}  // namespace

std::vector<std::string> stress_ng_command(const std::vector<std::string>& args,
                                           const ToolRunSpec& run) {
  std::vector<int> placement = run.cpus;
  std::sort(placement.begin(), placement.end());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word == "--") refuse_argument(kTool, word, "stress-ng takes no operands");
    if (starts_with(word, "--")) {
      const std::string_view name = std::string_view(word).substr(2, word.find('=') - 2);
      check_long(word, name);
      if (name.size() >= 2 && starts_with("taskset", name)) {
        const bool inline_value = word.find('=') != std::string::npos;
        if (!inline_value && i + 1 == args.size()) refuse_argument(kTool, word, "no cpulist");
        const std::string value = inline_value ? word.substr(word.find('=') + 1) : args[++i];
        out.insert(out.end(), {"--taskset", cpulist_inside(kTool, word, value, placement)});
        continue;
      }
    } else if (word.size() > 1 && word[0] == '-' && !is_number(word.substr(1))) {
      if (check_short(word)) {
        if (i + 1 == args.size()) refuse_argument(kTool, word, "no value follows it");
        out.insert(out.end(), {word, args[++i]});
        continue;
      }
    }
    out.push_back(word);
  }
  out.insert(out.end(), {"--timeout", whole_seconds(run.duration), "--metrics-brief"});
  if (!run.work_dir.empty()) out.insert(out.end(), {"--temp-path", run.work_dir});
  return out;
}

}  // namespace schedrig::tools
