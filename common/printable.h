// Remote strings made safe for a terminal or a log line (docs/architecture.md
// "Command lines"). Agent ids, hostnames, kernel releases, plan and case
// names, labels and reasons come from the network or from files others
// wrote; printed raw, an ESC sequence could retitle or clear the terminal and
// a CR or LF could forge a log line.
#pragma once

#include <string>
#include <string_view>

namespace schedrig {

// `text` with every C0 control byte (0x00-0x1f), DEL (0x7f) and C1 control
// (U+0080-U+009F in UTF-8) written as a visible escape: \n, \r, \t, \e, else
// \xHH (C1: \u0080-\u009f). Other bytes, valid UTF-8 included, are kept.
std::string printable(std::string_view text);

}  // namespace schedrig
