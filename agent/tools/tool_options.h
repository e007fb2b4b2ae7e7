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

// "-m" / "--message-threads": how errors name an option.
std::string option_name(const OptionSpec& spec);

}  // namespace schedrig::tools
