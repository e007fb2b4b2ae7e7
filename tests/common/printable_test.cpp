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

}  // namespace
}  // namespace schedrig
