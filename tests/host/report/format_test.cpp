// format_number / csv_number / dash_if_empty / format_utc / format_labels.
#include <limits>
#include <sstream>

#include <gtest/gtest.h>

#include "host/report/format.h"
#include "host/report/text_table.h"

namespace schedrig::report {
namespace {

TEST(ReportFormat, LargeNumbersAreWholeWithThousandsSeparators) {
  EXPECT_EQ(format_number(123456.7), "123,457");
  EXPECT_EQ(format_number(38047.0), "38,047");
  EXPECT_EQ(format_number(1000), "1,000");
  EXPECT_EQ(format_number(999.6), "1,000");
  EXPECT_EQ(format_number(1234567890.4), "1,234,567,890");
  EXPECT_EQ(format_number(-553000.2), "-553,000");
}

TEST(ReportFormat, SmallNumbersKeepThreeSignificantDigits) {
  EXPECT_EQ(format_number(999.4), "999");
  EXPECT_EQ(format_number(12.345), "12.3");
  EXPECT_EQ(format_number(1.5), "1.5");
  EXPECT_EQ(format_number(0.012345), "0.0123");
  EXPECT_EQ(format_number(-0.5), "-0.5");
  EXPECT_EQ(format_number(0), "0");
  EXPECT_EQ(format_number(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(format_number(std::numeric_limits<double>::infinity()), "inf");
}

TEST(ReportFormat, CsvNumbersAreShortestAndEmptyWhenNotFinite) {
  EXPECT_EQ(csv_number(0.1), "0.1");
  EXPECT_EQ(csv_number(123456.75), "123456.75");
  EXPECT_EQ(csv_number(-2.5e-7), "-2.5e-07");
  EXPECT_EQ(csv_number(std::numeric_limits<double>::quiet_NaN()), "");
  EXPECT_EQ(csv_number(-std::numeric_limits<double>::infinity()), "");
}

TEST(ReportFormat, AnEmptyTextCellIsADash) {
  EXPECT_EQ(dash_if_empty(""), "-");
  EXPECT_EQ(dash_if_empty("6.12.0"), "6.12.0");
}

TEST(ReportFormat, TimesAreUtcIso) {
  EXPECT_EQ(format_utc(1767225600LL * 1000000000LL), "2026-01-01T00:00:00Z");
  EXPECT_EQ(format_utc(1767225600LL * 1000000000LL + 3723999999999LL), "2026-01-01T01:02:03Z");
  EXPECT_EQ(format_utc(0), "-");
}

TEST(ReportFormat, LabelsInKeyOrder) {
  EXPECT_EQ(format_labels({{"tag", "nightly"}, {"kernel", "6.19-rc3"}}),
            "kernel=6.19-rc3,tag=nightly");
  EXPECT_EQ(format_labels({}), "");
}

// A column header may be a plan's variant name (compare): escaped, and
// the column as wide as the escaped text.
TEST(TextTable, HeadersAreEscapedAndColumnsFitThem) {
  TextTable t({{"CASE"}, {"slow\x1b[2J", TextTable::Align::kRight}, {"n"}});
  t.add_row({"fork", "1", "5"});
  std::ostringstream out;
  t.print(out);
  EXPECT_EQ(out.str(), "CASE  slow\\e[2J  n\nfork          1  5\n");
}

}  // namespace
}  // namespace schedrig::report
