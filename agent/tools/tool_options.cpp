#include "agent/tools/tool_options.h"

#include <cerrno>
#include <cstdlib>

#include <cstring>

#include <fmt/format.h>

#include "agent/tools/tool_error.h"
#include "common/printable.h"

namespace schedrig::tools {
namespace {

// The spec a "--name" matches: exactly, else as the only one it prefixes.
const OptionSpec& long_spec(const std::string& tool, const std::string& word,
                            const std::string& name, const std::vector<OptionSpec>& specs) {
  const OptionSpec* found = nullptr;
  int prefixed = 0;
  for (const OptionSpec& s : specs) {
    if (!s.long_name) continue;
    if (name == s.long_name) return s;
    if (std::strncmp(s.long_name, name.c_str(), name.size()) == 0) {
      found = &s;
      ++prefixed;
    }
  }
  if (prefixed > 1) refuse_argument(tool, word, "ambiguous: it begins more than one option's name");
  if (!found) refuse_argument(tool, word, "not an option schedrig lets this tool take");
  return *found;
}

const OptionSpec& short_spec(const std::string& tool, const std::string& word, char c,
                             const std::vector<OptionSpec>& specs) {
  for (const OptionSpec& s : specs) {
    if (s.short_name == c) return s;
  }
  refuse_argument(tool, word,
                  fmt::format("-{} is not an option schedrig lets this tool take",
                              printable(std::string(1, c))));
}

// Reads the option at argv[i] (a "--name"), advancing i past its value.
void read_long(const std::string& tool, const std::vector<std::string>& argv, std::size_t& i,
               const std::vector<OptionSpec>& specs, std::vector<GivenOption>& out) {
  const std::string& word = argv[i];
  const auto eq = word.find('=');
  const std::string name = word.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
  const OptionSpec& s = long_spec(tool, word, name, specs);
  if (!s.takes_value) {
    if (eq != std::string::npos) refuse_argument(tool, word, "takes no value");
    out.push_back({&s, "", word});
  } else if (eq != std::string::npos) {
    out.push_back({&s, word.substr(eq + 1), word});
  } else {
    if (i + 1 == argv.size()) refuse_argument(tool, word, "needs a value");
    out.push_back({&s, argv[++i], word});
  }
}

// Reads the cluster at argv[i] ("-Lm4"), advancing i past a separate value.
void read_short(const std::string& tool, const std::vector<std::string>& argv, std::size_t& i,
                const std::vector<OptionSpec>& specs, std::vector<GivenOption>& out) {
  const std::string& word = argv[i];
  for (std::size_t k = 1; k < word.size(); ++k) {
    const OptionSpec& s = short_spec(tool, word, word[k], specs);
    if (!s.takes_value) {
      out.push_back({&s, "", word});
    } else if (k + 1 < word.size()) {
      out.push_back({&s, word.substr(k + 1), word});
      return;
    } else {
      if (i + 1 == argv.size()) refuse_argument(tool, word, "needs a value");
      out.push_back({&s, argv[++i], word});
      return;
    }
  }
}

}  // namespace

std::vector<GivenOption> read_options(const std::string& tool, const std::vector<std::string>& argv,
                                      const std::vector<OptionSpec>& specs) {
  std::vector<GivenOption> out;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& word = argv[i];
    if (word == "--") {
      if (i + 1 < argv.size()) refuse_argument(tool, argv[i + 1], "operands are not taken");
      break;
    }
    if (word.starts_with("--")) {
      read_long(tool, argv, i, specs, out);
    } else if (word.size() > 1 && word[0] == '-') {
      read_short(tool, argv, i, specs, out);
    } else {
      refuse_argument(tool, word, "not an option (operands are not taken)");
    }
  }
  return out;
}

void refuse_argument(const std::string& tool, const std::string& word, const std::string& reason) {
  throw ToolArgsError(fmt::format("{}: argument '{}': {}", tool, printable(word), reason));
}

void append_option(std::vector<std::string>& argv, const GivenOption& o) {
  argv.push_back(o.spec->short_name ? fmt::format("-{}", o.spec->short_name)
                                    : fmt::format("--{}", o.spec->long_name));
  if (o.spec->takes_value) argv.push_back(o.value);
}

std::string option_name(const OptionSpec& spec) {
  return spec.long_name ? fmt::format("--{}", spec.long_name) : fmt::format("-{}", spec.short_name);
}

long whole_number(const std::string& tool, const std::string& word, const std::string& value,
                  long lo, long hi) {
  char* end = nullptr;
  errno = 0;
  const long n = std::strtol(value.c_str(), &end, 10);
  if (end == value.c_str() || *end != '\0' || errno != 0 || n < lo || n > hi) {
    refuse_argument(
        tool, word,
        fmt::format("'{}': must be a whole number in [{}, {}]", printable(value), lo, hi));
  }
  return n;
}

long option_number(const std::string& tool, const std::vector<GivenOption>& given, char letter,
                   long lo, long hi, long fallback) {
  long value = fallback;
  for (const GivenOption& o : given) {
    if (o.spec->short_name == letter) value = whole_number(tool, o.word, o.value, lo, hi);
  }
  return value;
}

void check_task_count(const std::string& tool, const std::string& what, long long tasks) {
  if (tasks <= kMaxToolTasks) return;
  throw ToolArgsError(
      fmt::format("{}: arguments {} make {} tasks: at most {}", tool, what, tasks, kMaxToolTasks));
}

}  // namespace schedrig::tools
