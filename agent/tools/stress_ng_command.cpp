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

// The stressors a case may run: what loads the scheduler (processes,
// threads, context switches, wakeups, IPC, timers, CPU work), none that
// moves itself off the placement (affinity, cache, numa), changes
// scheduling policy (schedpolicy, schedmix, softlockup, cyclic, hrtimers),
// touches devices, file systems, swap, mounts or the network, or hogs
// memory.
constexpr std::string_view kStressors[] = {
    "clock", "clone",   "context", "cpu", "epoll",    "eventfd",   "fork",    "futex",
    "kill",  "matrix",  "mq",      "msg", "mutex",    "nanosleep", "pipe",    "pipeherd",
    "poll",  "pthread", "qsort",   "sem", "sem-sysv", "session",   "sigpipe", "sigq",
    "sleep", "spawn",   "switch",  "tee", "timer",    "vfork",     "wait",    "yield"};

// General options a case may give, by their full names: flags, and the two
// that take a value.
constexpr std::string_view kGeneralFlags[] = {"abort",         "keep-name",    "metrics",
                                              "metrics-brief", "no-rand-seed", "oomable",
                                              "times",         "verbose",      "verify"};
constexpr std::string_view kGeneralWithValue[] = {"backoff", "seed"};

template <std::size_t N>
bool listed(const std::string_view (&list)[N], std::string_view name) {
  return std::find(std::begin(list), std::end(list), name) != std::end(list);
}

// Short letters a case may give: stressors (c cpu, f fork, p pipe, s switch,
// y yield, T timer, P poll, Q qsort, l cpu-load) take a value, as do b
// (backoff); k, M and v are flags. Every other letter of stress-ng's table
// ("?khMVvqnt:b:c:i:j:m:d:f:s:l:p:P:C:S:a:y:F:D:T:u:o:r:B:R:Y:x:") is refused.
constexpr std::string_view kValueLetters = "cfpsyTPQlb";
constexpr std::string_view kFlagLetters = "kMv";

constexpr std::string_view kTaskset = "taskset";
constexpr std::string_view kTimeout = "timeout";
constexpr const char* kRunTime = "the run time is schedrig's (the plan's duration_s); leave it out";
// Instances per stressor: stress-ng takes 0 (one per online CPU) up to a
// few thousand; a plan gets at most this many.
constexpr long kMaxInstances = 1024;

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// The stressor a long option belongs to ("fork" for --fork and --fork-max), or "".
std::string_view stressor_of(std::string_view name) {
  std::string_view best;
  for (std::string_view s : kStressors) {
    if ((name == s || (starts_with(name, s) && name.size() > s.size() && name[s.size()] == '-')) &&
        s.size() > best.size()) {
      best = s;
    }
  }
  return best;
}

[[noreturn]] void not_allowed(const std::string& word) {
  refuse_argument(kTool, word,
                  "not an option schedrig lets stress-ng take (stressors and options: "
                  "docs/workloads.md \"External tools\")");
}

// An instance count ("4" of --fork 4) within [0, kMaxInstances].
void check_instances(const std::string& word, const std::string& value) {
  char* end = nullptr;
  const long n = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || n < 0 || n > kMaxInstances) {
    refuse_argument(kTool, word,
                    fmt::format("'{}': instances must be a whole number in [0, {}]",
                                printable(value), kMaxInstances));
  }
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

// Reads `args` into `out`, word by word (stress_ng_command.h).
class Reader {
 public:
  Reader(const std::vector<std::string>& args, const std::vector<int>& placement)
      : args_(args), placement_(placement) {}

  std::vector<std::string> read() {
    for (i_ = 0; i_ < args_.size(); ++i_) {
      const std::string& word = args_[i_];
      if (word == "--") refuse_argument(kTool, word, "stress-ng takes no operands");
      if (starts_with(word, "--")) {
        long_option(word);
      } else if (word.size() > 1 && word[0] == '-' && !is_number(word.substr(1))) {
        short_option(word);
      } else {
        refuse_argument(kTool, word, "not an option (operands are not taken)");
      }
    }
    return std::move(out_);
  }

 private:
  // The value of option `word`: after its '=' or the next word.
  std::string value_of(const std::string& word) {
    if (const auto eq = word.find('='); eq != std::string::npos) return word.substr(eq + 1);
    if (i_ + 1 == args_.size()) refuse_argument(kTool, word, "no value follows it");
    return args_[++i_];
  }

  void long_option(const std::string& word) {
    const std::string name = word.substr(2, word.find('=') - 2);
    if (name.size() >= 3 && starts_with(kTimeout, name)) refuse_argument(kTool, word, kRunTime);
    if (name.size() >= 2 && starts_with(kTaskset, name)) {
      out_.insert(out_.end(),
                  {"--taskset", cpulist_inside(kTool, word, value_of(word), placement_)});
      return;
    }
    const std::string_view stressor = stressor_of(name);
    const bool inline_value = word.find('=') != std::string::npos;
    out_.push_back(word);
    if (listed(kGeneralFlags, name)) {
      if (inline_value) refuse_argument(kTool, word, "takes no value");
    } else if (listed(kGeneralWithValue, name)) {
      if (!inline_value) out_.push_back(value_of(word));
    } else if (stressor.empty()) {
      not_allowed(word);
    } else if (name == stressor) {  // --fork N: the instance count
      const std::string value = value_of(word);
      check_instances(word, value);
      if (!inline_value) out_.push_back(value);
    } else if (!inline_value && i_ + 1 < args_.size() && is_value(args_[i_ + 1])) {
      out_.push_back(args_[++i_]);  // --fork-max 16: a value, never an option
    }
  }

  // A word that can only be a value: no leading '-', or a negative number.
  static bool is_value(const std::string& word) {
    return word.empty() || word[0] != '-' || is_number(std::string_view(word).substr(1));
  }

  // A cluster of short options ("-c4", "-kM"), read with stress-ng's table.
  void short_option(const std::string& word) {
    for (std::size_t j = 1; j < word.size(); ++j) {
      const char c = word[j];
      if (kFlagLetters.find(c) != std::string_view::npos) continue;
      if (c == 't') refuse_argument(kTool, word, kRunTime);
      if (kValueLetters.find(c) == std::string_view::npos) {
        refuse_argument(kTool, word,
                        fmt::format("-{} is not an option schedrig lets stress-ng take",
                                    printable(std::string(1, c))));
      }
      const bool inline_value = j + 1 < word.size();
      if (!inline_value && i_ + 1 == args_.size()) {
        refuse_argument(kTool, word, "no value follows it");
      }
      const std::string value = inline_value ? word.substr(j + 1) : args_[++i_];
      if (c != 'l' && c != 'b') check_instances(word, value);
      out_.push_back(word);
      if (!inline_value) out_.push_back(value);
      return;
    }
    out_.push_back(word);
  }

  const std::vector<std::string>& args_;
  const std::vector<int>& placement_;
  std::size_t i_ = 0;
  std::vector<std::string> out_;
};

}  // namespace

std::vector<std::string> stress_ng_command(const std::vector<std::string>& args,
                                           const ToolRunSpec& run) {
  std::vector<int> placement = run.cpus;
  std::sort(placement.begin(), placement.end());
  std::vector<std::string> out = Reader(args, placement).read();
  out.insert(out.end(), {"--timeout", whole_seconds(run.duration), "--metrics-brief"});
  if (!run.work_dir.empty()) out.insert(out.end(), {"--temp-path", run.work_dir});
  return out;
}

}  // namespace schedrig::tools
