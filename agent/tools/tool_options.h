// A tool's argv read the way glibc's getopt_long(3) reads it, so that an
// adapter sees exactly the options the tool will act on: "-m4", "-m 4",
// "-Lm 4" (a cluster), "--message-threads=4", "--message-threads 4", a
// unique prefix of a long name ("--message=4", which getopt_long accepts),
// and "--" ending the options. Adapters refuse options schedrig owns and
// check pinning options against the placement (agent/tools/*_command.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace schedrig::tools {

// One option a tool accepts: its short letter ('\0' = none), its long name
// (nullptr = none) and whether it takes a value (getopt's required_argument).
struct OptionSpec {
  char short_name;
  const char* long_name;
  bool takes_value;
};

// One option as given: `spec` is the table entry it matched, `value` its
// value when it takes one, `word` how it was written ("-m4", "--message=4")
// for errors.
struct GivenOption {
  const OptionSpec* spec;
  std::string value;
  std::string word;
};

// The options of `argv` in order, each matched to `specs`. Throws
// ToolArgsError naming `tool` and the word for an option not in `specs`, an
// ambiguous long prefix, a missing value, a value given to an option that
// takes none, and any operand (a word that is not an option; getopt would
// move it to the end and the tools here take none).
std::vector<GivenOption> read_options(const std::string& tool, const std::vector<std::string>& argv,
                                      const std::vector<OptionSpec>& specs);

// Throws ToolArgsError "TOOL: argument 'WORD': REASON" (WORD escaped).
[[noreturn]] void refuse_argument(const std::string& tool, const std::string& word,
                                  const std::string& reason);

// Appends `o` to `argv` as the tool will read it back: "-m" (or "--split"
// for an option with no letter), then its value as a word of its own.
void append_option(std::vector<std::string>& argv, const GivenOption& o);

// `value` (of argument `word`) as a whole number in [lo, hi]. Throws
// ToolArgsError "TOOL: argument 'WORD': 'V': must be a whole number in
// [LO, HI]".
long whole_number(const std::string& tool, const std::string& word, const std::string& value,
                  long lo, long hi);

// The last value given for option `letter` as a whole number in [lo, hi];
// `fallback` (the tool's own default) when it is not given. Throws
// ToolArgsError "TOOL: argument 'WORD': 'V': must be a whole number in
// [LO, HI]".
long option_number(const std::string& tool, const std::vector<GivenOption>& given, char letter,
                   long lo, long hi, long fallback);

// Most tasks (threads and processes together) one run of a tool may start:
// the built-in wakeup workload's bound, well under the default pid_max.
inline constexpr long kMaxToolTasks = 16384;

// Throws ToolArgsError "TOOL: arguments WHAT make N tasks: at most
// kMaxToolTasks" when `tasks` is over the bound.
void check_task_count(const std::string& tool, const std::string& what, long long tasks);

// "-m" / "--message-threads": how errors name an option.
std::string option_name(const OptionSpec& spec);

}  // namespace schedrig::tools
