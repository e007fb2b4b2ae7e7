// printable: control characters from remote strings become visible escapes.
#include "common/printable.h"

#include <gtest/gtest.h>

namespace schedrig {
namespace {

TEST(Printable, KeepsPlainTextAndUtf8) {
  EXPECT_EQ(printable("vm-01 6.19.0-rc3"), "vm-01 6.19.0-rc3");
  EXPECT_EQ(printable("Zürich µs"), "Zürich µs");
  EXPECT_EQ(printable(""), "");
}

TEST(Printable, EscapesC0ControlsAndDel) {
  EXPECT_EQ(printable("bad\x1b[31mid\r\nFAKE LOG LINE"), "bad\\e[31mid\\r\\nFAKE LOG LINE");
  EXPECT_EQ(printable(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(printable("t\tab\a\x7f"), "t\\tab\\x07\\x7f");
}

TEST(Printable, EscapesC1ControlsInUtf8) {
  EXPECT_EQ(printable("x\xc2\x9b"
                      "2J"),
            "x\\u009b2J");                       // CSI
  EXPECT_EQ(printable("\xc2\xa0"), "\xc2\xa0");  // NBSP is kept
}

TEST(Printable, EscapesBackslashSoInputCannotForgeAnEscape) {
  EXPECT_EQ(printable("a\\nb"), "a\\\\nb");  // the 4 bytes a \ n b
  EXPECT_NE(printable("\\e"), printable("\x1b"));
}

TEST(Printable, EscapesBidiAndInvisibleFormatControls) {
  EXPECT_EQ(printable("ok\xe2\x80\xae"
                      "evil"),
            "ok\\u202eevil");  // RLO
  EXPECT_EQ(printable("\xe2\x81\xa6x\xe2\x81\xa9"), "\\u2066x\\u2069");
  EXPECT_EQ(printable("a\xe2\x80\x8b"
                      "b"),
            "a\\u200bb");  // zero-width space
  EXPECT_EQ(printable("\xef\xbb\xbf"
                      "id"),
            "\\ufeffid");                                // BOM
  EXPECT_EQ(printable("\xe2\x82\xac"), "\xe2\x82\xac");  // the euro sign is kept
  EXPECT_EQ(printable("a\xe2\x80\xa8"
                      "b\xe2\x80\xa9"),
            "a\\u2028b\\u2029");                              // LS, PS
  EXPECT_EQ(printable("\xef\xbf\xb9"), "\\ufff9");            // interlinear annotation anchor
  EXPECT_EQ(printable("x\xf3\xa0\x81\x81"), "x\\U000e0041");  // TAG LATIN CAPITAL A
}

TEST(Printable, EscapesBytesThatAreNotWellFormedUtf8) {
  EXPECT_EQ(printable("x\x9b"
                      "2J"),
            "x\\x9b2J");                                             // lone 8-bit CSI
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");                    // overlong '/'
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // surrogate
  EXPECT_EQ(printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // > U+10FFFF
  EXPECT_EQ(printable("end\xe2\x82"), "end\\xe2\\x82");              // truncated
  EXPECT_EQ(printable("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80");      // emoji kept
}

}  // namespace
}  // namespace schedrig
