// Remote strings made safe for a terminal or a log line (docs/architecture.md
// "Command lines"). Agent ids, hostnames, kernel releases, plan and case
// names, labels and reasons come from the network or from files others
// wrote; printed raw, an ESC sequence could retitle or clear the terminal, a
// CR or LF could forge a log line, and a bidi override could make a line read
// other than its bytes (CVE-2021-42574, "Trojan Source").
#pragma once

#include <string>
#include <string_view>

namespace schedrig {

// `text` with everything that could act on a terminal written as a visible
// escape, so the output is printable and distinct inputs stay distinct:
//   - C0 control bytes (0x00-0x1f) and DEL: \n, \r, \t, \e, else \xHH;
//   - a backslash: \\ (so an escape in the input cannot pass for one of ours);
//   - C1 controls U+0080-U+009F, the invisible format and bidi controls
//     U+061C, U+200B-U+200F, U+202A-U+202E, U+2060-U+2069, U+FEFF (Unicode
//     UAX #9), the line and paragraph separators U+2028/U+2029, the
//     interlinear annotations U+FFF9-U+FFFB: \uXXXX; tag characters
//     U+E0000-U+E007F (invisible text): \UXXXXXXXX;
//   - a byte that is not part of well-formed UTF-8 (RFC 3629: overlong,
//     surrogate, above U+10FFFF, truncated, lone continuation — a lone
//     0x9b is CSI on 8-bit terminals): \xHH.
// Other valid UTF-8 is kept as it is.
std::string printable(std::string_view text);

// Whether `text` is well-formed UTF-8 (RFC 3629) as a protobuf string field
// must be: an agent's Hello carries file contents, and one bad byte would
// make the whole message undecodable.
bool well_formed_utf8(std::string_view text);

}  // namespace schedrig
