#include "agent/tools/tool_argv.h"

#include <fmt/format.h>

#include "agent/tools/tool_error.h"
#include "common/printable.h"

namespace schedrig::tools {
namespace {

[[noreturn]] void refuse(const std::string& tool, const std::string& reason) {
  throw ToolArgsError(fmt::format("{}: args: {}", tool, reason));
}

// Splits `args` (already checked for size and control characters).
class Splitter {
 public:
  Splitter(const std::string& tool, const std::string& args) : tool_(tool), args_(args) {}

  std::vector<std::string> words() {
    while (at_ < args_.size()) {
      const char c = args_[at_++];
      if (c == ' ' || c == '\t') {
        end_word();
      } else if (c == '\'') {
        single_quoted();
      } else if (c == '"') {
        double_quoted();
      } else if (c == '\\') {
        if (at_ == args_.size()) refuse(tool_, "a backslash ends the arguments");
        append(args_[at_++]);
      } else {
        append(c);
      }
    }
    end_word();
    return std::move(words_);
  }

 private:
  void append(char c) {
    word_ += c;
    in_word_ = true;
  }

  void end_word() {
    if (!in_word_) return;
    if (words_.size() == kMaxToolArgs) {
      refuse(tool_, fmt::format("more than {} arguments", kMaxToolArgs));
    }
    words_.push_back(std::move(word_));
    word_.clear();
    in_word_ = false;
  }

  void single_quoted() {
    const std::size_t close = args_.find('\'', at_);
    if (close == std::string::npos) unterminated('\'');
    word_.append(args_, at_, close - at_);
    in_word_ = true;
    at_ = close + 1;
  }

  void double_quoted() {
    in_word_ = true;
    while (at_ < args_.size()) {
      const char c = args_[at_++];
      if (c == '"') return;
      if (c == '\\' && at_ < args_.size() && (args_[at_] == '"' || args_[at_] == '\\')) {
        word_ += args_[at_++];
      } else {
        word_ += c;
      }
    }
    unterminated('"');
  }

  [[noreturn]] void unterminated(char quote) {
    refuse(tool_, fmt::format("a {} quote is never closed", quote));
  }

  const std::string& tool_;
  const std::string& args_;
  std::size_t at_ = 0;
  std::vector<std::string> words_;
  std::string word_;
  bool in_word_ = false;
};

}  // namespace

std::vector<std::string> split_tool_args(const std::string& tool, const std::string& args) {
  if (args.size() > kMaxToolArgsBytes) {
    refuse(tool, fmt::format("{} bytes; at most {}", args.size(), kMaxToolArgsBytes));
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto c = static_cast<unsigned char>(args[i]);
    // C0, DEL, and the C1 controls U+0080-U+009F (UTF-8 C2 80-C2 9F, e.g. CSI).
    const bool c1 = c == 0xc2 && i + 1 < args.size() &&
                    static_cast<unsigned char>(args[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(args[i + 1]) <= 0x9f;
    if ((c < 0x20 && c != '\t') || c == 0x7f || c1) {
      refuse(tool, fmt::format("control character {} at byte {} in '{}'",
                               printable(args.substr(i, c1 ? 2 : 1)), i, printable(args)));
    }
  }
  // Bidi and other invisible format characters, and bytes that are not
  // well-formed UTF-8: whatever printable() would escape, but for the
  // backslash and the tab args may hold.
  std::string plain = args;
  std::erase_if(plain, [](char c) { return c == '\\' || c == '\t'; });
  if (printable(plain) != plain) {
    refuse(tool,
           fmt::format("an invisible, bidi or ill-formed character in '{}'", printable(args)));
  }
  return Splitter(tool, args).words();
}

}  // namespace schedrig::tools
