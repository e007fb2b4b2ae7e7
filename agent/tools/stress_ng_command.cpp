#include "agent/tools/stress_ng_command.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <thread>

#include <fmt/format.h>

#include "agent/tools/tool_cpus.h"
#include "agent/tools/tool_options.h"
#include "common/printable.h"

namespace schedrig::tools {
namespace {

constexpr const char* kTool = "stress-ng";
constexpr const char* kRunTime = "the run time is schedrig's (the plan's duration_s); leave it out";

// A stressor a case may run (stress-ng 0.15 --help and stress-ng(1)): what
// loads the scheduler through processes, threads, context switches,
// wakeups, IPC, timers and CPU work. None of these moves itself off the
// placement, changes scheduling policy (mutex does: SCHED_FIFO), touches
// devices, file systems, swap, mounts or the network, or must not run as
// root (spawn). `base` is its tasks per instance, `tasks_option` the
// option that adds more per instance, with stress-ng's default and maximum.
struct Stressor {
  std::string_view name;
  long base;
  std::string_view tasks_option;  // "" = none
  long tasks_default;
  long tasks_max;
};

constexpr Stressor kStressors[] = {{"clock", 1, "", 0, 0},
                                   {"clone", 1, "clone-max", 1024, 16384},
                                   {"context", 1, "", 0, 0},
                                   {"cpu", 1, "", 0, 0},
                                   {"eventfd", 2, "", 0, 0},
                                   {"fork", 1, "fork-max", 1, 16384},
                                   {"futex", 2, "", 0, 0},
                                   {"kill", 2, "", 0, 0},
                                   {"matrix", 1, "", 0, 0},
                                   {"mq", 2, "", 0, 0},
                                   {"msg", 2, "", 0, 0},
                                   {"nanosleep", 1, "nanosleep-threads", 8, 1024},
                                   {"pipe", 2, "", 0, 0},
                                   {"pipeherd", 101, "", 0, 0},
                                   {"poll", 1, "", 0, 0},
                                   {"pthread", 1, "pthread-max", 1024, 16384},
                                   {"qsort", 1, "", 0, 0},
                                   {"sem", 1, "sem-procs", 4, 64},
                                   {"sem-sysv", 1, "sem-sysv-procs", 4, 64},
                                   {"session", 3, "", 0, 0},
                                   {"sigpipe", 2, "", 0, 0},
                                   {"sigq", 2, "", 0, 0},
                                   {"sleep", 1, "sleep-max", 1024, 30000},
                                   {"switch", 2, "", 0, 0},
                                   {"tee", 3, "", 0, 0},
                                   {"timer", 1, "", 0, 0},
                                   {"vfork", 1, "vfork-max", 1, 16384},
                                   {"wait", 3, "", 0, 0},
                                   {"yield", 2, "", 0, 0}};

// Other long options a case may give, by their exact names (getopt_long
// takes an exact name over any longer one it prefixes): the stressors' own
// options from stress-ng's --help (each STRESSOR-ops too), and a few
// general ones. true = takes a value.
const std::map<std::string_view, bool>& other_options() {
  static const std::map<std::string_view, bool> options = [] {
    std::map<std::string_view, bool> o = {{"cpu-load", true},
                                          {"cpu-load-slice", true},
                                          {"cpu-method", true},
                                          {"cpu-old-metrics", false},
                                          {"fork-vm", false},
                                          {"matrix-method", true},
                                          {"matrix-size", true},
                                          {"matrix-yx", false},
                                          {"mq-size", true},
                                          {"msg-types", true},
                                          {"msg-bytes", true},
                                          {"pipe-data-size", true},
                                          {"pipe-size", true},
                                          {"pipeherd-yield", false},
                                          {"poll-fds", true},
                                          {"qsort-size", true},
                                          {"switch-freq", true},
                                          {"switch-method", true},
                                          {"timer-freq", true},
                                          {"timer-rand", false},
                                          // general
                                          {"abort", false},
                                          {"keep-name", false},
                                          {"metrics", false},
                                          {"metrics-brief", false},
                                          {"no-rand-seed", false},
                                          {"oomable", false},
                                          {"times", false},
                                          {"verbose", false},
                                          {"verify", false},
                                          {"backoff", true},
                                          {"seed", true}};
    return o;
  }();
  return options;
}

// The `-ops` option of each stressor ("fork-ops"), kept alive for string_views.
const std::vector<std::string>& ops_options() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const Stressor& s : kStressors) n.push_back(std::string(s.name) + "-ops");
    return n;
  }();
  return names;
}

// Short letters: stressors and the values and flags a case may give; every
// other letter of stress-ng's table
// ("?khMVvqnt:b:c:i:j:m:d:f:s:l:p:P:C:S:a:y:F:D:T:u:o:r:B:R:Y:x:") is refused.
std::string_view stressor_of_letter(char c) {
  switch (c) {
    case 'c':
      return "cpu";
    case 'f':
      return "fork";
    case 'p':
      return "pipe";
    case 's':
      return "switch";
    case 'y':
      return "yield";
    case 'T':
      return "timer";
    case 'P':
      return "poll";
    case 'Q':
      return "qsort";
    default:
      return "";
  }
}
constexpr std::string_view kValueLetters = "lb";  // cpu-load, backoff
constexpr std::string_view kFlagLetters = "kMv";

const Stressor* stressor_named(std::string_view name) {
  for (const Stressor& s : kStressors) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

const Stressor* stressor_counted_by(std::string_view option) {
  for (const Stressor& s : kStressors) {
    if (!s.tasks_option.empty() && s.tasks_option == option) return &s;
  }
  return nullptr;
}

[[noreturn]] void not_allowed(const std::string& word) {
  refuse_argument(kTool, word,
                  "not an option schedrig lets stress-ng take (stressors and options: "
                  "docs/workloads.md \"External tools\")");
}

// Reads `args` word by word as getopt_long would, into argv and the task count.
class Reader {
 public:
  Reader(const std::vector<std::string>& args, const std::vector<int>& placement)
      : args_(args), placement_(placement) {}

  std::vector<std::string> read() {
    for (i_ = 0; i_ < args_.size(); ++i_) {
      const std::string& word = args_[i_];
      if (word == "--") refuse_argument(kTool, word, "stress-ng takes no operands");
      if (word.rfind("--", 0) == 0) {
        long_option(word);
      } else if (word.size() > 1 && word[0] == '-') {
        short_option(word);
      } else {
        refuse_argument(kTool, word, "not an option (operands are not taken)");
      }
    }
    check_tasks();
    return std::move(out_);
  }

 private:
  // The value of option `word`: after its '=', else the next word (getopt
  // takes it whatever it is).
  std::string value_of(const std::string& word, bool inline_value) {
    if (inline_value) return word.substr(word.find('=') + 1);
    if (i_ + 1 == args_.size()) refuse_argument(kTool, word, "no value follows it");
    return args_[++i_];
  }

  void long_option(const std::string& word) {
    const std::size_t at = i_;
    const bool inline_value = word.find('=') != std::string::npos;
    const std::string name = word.substr(2, inline_value ? word.find('=') - 2 : std::string::npos);
    if (name.size() >= 3 && std::string_view("timeout").substr(0, name.size()) == name) {
      refuse_argument(kTool, word, kRunTime);
    }
    if (name == "taskset") {
      const std::string cpus =
          cpulist_inside(kTool, word, value_of(word, inline_value), placement_);
      out_.insert(out_.end(), {"--taskset", cpus});
      return;
    }
    if (const Stressor* s = stressor_named(name)) {
      instances_[s] = whole_number(kTool, word, value_of(word, inline_value), 0, kMaxToolTasks);
    } else if (const Stressor* c = stressor_counted_by(name)) {
      per_instance_[c] = whole_number(kTool, word, value_of(word, inline_value), 1, c->tasks_max);
    } else if (std::find(ops_options().begin(), ops_options().end(), name) != ops_options().end()) {
      whole_number(kTool, word, value_of(word, inline_value), 0, 1L << 40);
    } else if (const auto it = other_options().find(name); it != other_options().end()) {
      if (it->second) {
        value_of(word, inline_value);
      } else if (inline_value) {
        refuse_argument(kTool, word, "takes no value");
      }
    } else {
      not_allowed(word);
    }
    out_.insert(out_.end(), args_.begin() + static_cast<std::ptrdiff_t>(at),
                args_.begin() + static_cast<std::ptrdiff_t>(i_) + 1);  // it and its value
  }

  // A cluster of short options ("-c4", "-kM", "-kf 2"), read with
  // stress-ng's table: a letter that takes a value takes the rest of the
  // word or the next word.
  void short_option(const std::string& word) {
    for (std::size_t j = 1; j < word.size(); ++j) {
      const char c = word[j];
      if (kFlagLetters.find(c) != std::string_view::npos) continue;
      if (c == 't') refuse_argument(kTool, word, kRunTime);
      const std::string_view stressor = stressor_of_letter(c);
      if (stressor.empty() && kValueLetters.find(c) == std::string_view::npos) {
        refuse_argument(kTool, word,
                        fmt::format("-{} is not an option schedrig lets stress-ng take",
                                    printable(std::string(1, c))));
      }
      const bool inline_value = j + 1 < word.size();
      if (!inline_value && i_ + 1 == args_.size())
        refuse_argument(kTool, word, "no value follows it");
      const std::string value = inline_value ? word.substr(j + 1) : args_[i_ + 1];
      if (!stressor.empty()) {
        instances_[stressor_named(stressor)] = whole_number(kTool, word, value, 0, kMaxToolTasks);
      }
      out_.push_back(word);
      if (!inline_value) out_.push_back(args_[++i_]);
      return;
    }
    out_.push_back(word);
  }

  // stress-ng starts `instances` of a stressor (0: one per CPU), each with
  // `base` tasks plus its tasks option's count: at most kMaxToolTasks in all.
  void check_tasks() const {
    const long cpus = std::max<long>(static_cast<long>(std::thread::hardware_concurrency()),
                                     static_cast<long>(placement_.size()));
    long long tasks = 0;
    std::string what;
    for (const auto& [s, n] : instances_) {
      const auto extra = per_instance_.find(s);
      const long per = s->base + (extra != per_instance_.end() ? extra->second : s->tasks_default);
      tasks += static_cast<long long>(n == 0 ? cpus : n) * per;
      what += fmt::format("{}--{} {}", what.empty() ? "" : " ", s->name, n);
    }
    check_task_count(kTool, what, tasks);
  }

  const std::vector<std::string>& args_;
  const std::vector<int>& placement_;
  std::size_t i_ = 0;
  std::vector<std::string> out_;
  std::map<const Stressor*, long> instances_;
  std::map<const Stressor*, long> per_instance_;
};

}  // namespace

std::vector<std::string> stress_ng_command(const std::vector<std::string>& args,
                                           const ToolRunSpec& run) {
  std::vector<int> placement = run.cpus;
  std::sort(placement.begin(), placement.end());
  std::vector<std::string> out = Reader(args, placement).read();
  out.insert(out.end(), {"--timeout", fmt::format("{}s", window_seconds(run)), "--metrics-brief"});
  if (!run.work_dir.empty()) out.insert(out.end(), {"--temp-path", run.work_dir});
  return out;
}

}  // namespace schedrig::tools
