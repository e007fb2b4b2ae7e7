// The analyze CSV: accepted forms and errors that name the line.
#include "host/compare/series_csv.h"

#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "host/compare/analyze_series.h"
#include "tests/host/store/temp_db.h"
#include "tests/support/time_limit.h"

namespace schedrig::compare {
namespace {

std::vector<NamedSeries> parse(const std::string& text) {
  std::istringstream in(text);
  return parse_series_csv(in, "runs.csv");
}

std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const CsvError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SeriesCsv, ReadsVariantsInFileOrderAndIterationsInOrder) {
  const auto s = parse(
      "variant,iteration,value\n"
      "baseline,2,101.5\n"
      "baseline,1,100\n"
      "patched,1,1.5e2\n"
      "\n"
      "baseline,3,-2\n");
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].name, "baseline");
  EXPECT_EQ(s[0].iterations, (std::vector<unsigned>{1, 2, 3}));
  EXPECT_EQ(s[0].values, (std::vector<double>{100, 101.5, -2}));
  EXPECT_EQ(s[1].name, "patched");
  EXPECT_EQ(s[1].values, (std::vector<double>{150}));
}

TEST(SeriesCsv, AcceptsBomCrlfSpacesAndQuotes) {
  const auto s = parse("\xEF\xBB\xBFvariant, iteration ,value\r\n\"baseline\", 1 , +7\r\n");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].values, (std::vector<double>{7}));
}

TEST(SeriesCsv, BadHeaderNamesLineOne) {
  EXPECT_EQ(error_of("name,run,tps\nbaseline,1,2\n"),
            "runs.csv:1: the header must be 'variant,iteration,value', not 'name,run,tps'");
  EXPECT_EQ(error_of(""), "runs.csv:1: empty file; expected the header 'variant,iteration,value'");
}

TEST(SeriesCsv, NonNumberNamesItsLine) {
  EXPECT_EQ(error_of("variant,iteration,value\nbaseline,1,100\nbaseline,2,12o4\n"),
            "runs.csv:3: value '12o4' is not a number");
  EXPECT_EQ(error_of("variant,iteration,value\nbaseline,1,nan\n"),
            "runs.csv:2: value 'nan' is not a finite number");
  EXPECT_EQ(error_of("variant,iteration,value\nbaseline,1,\n"),
            "runs.csv:2: value '' is not a number");
}

TEST(SeriesCsv, OtherErrorsNameTheirLine) {
  EXPECT_EQ(error_of("variant,iteration,value\nbaseline,0,1\n"),
            "runs.csv:2: iteration '0' is not a whole number >= 1");
  EXPECT_EQ(error_of("variant,iteration,value\nbaseline,1.5,1\n"),
            "runs.csv:2: iteration '1.5' is not a whole number >= 1");
  EXPECT_EQ(error_of("variant,iteration,value\n\nbaseline,1,1,9\n"),
            "runs.csv:3: expected 3 fields (variant,iteration,value), found 4");
  EXPECT_EQ(error_of("variant,iteration,value\n,1,1\n"), "runs.csv:2: the variant is empty");
  EXPECT_EQ(error_of("variant,iteration,value\nbaseline,1,1\nx,1,2\nbaseline,1,3\n"),
            "runs.csv:4: variant 'baseline' iteration 1 already appears on line 2");
  EXPECT_EQ(error_of("variant,iteration,value\n"), "runs.csv: no data lines after the header");
}

TEST(SeriesCsv, AnalyzeNeedsABaselineVariant) {
  try {
    analyze_series_set(parse("variant,iteration,value\nold,1,1\nnew,1,2\n"), {}, "runs.csv");
    FAIL() << "no error";
  } catch (const CsvError& e) {
    EXPECT_STREQ(e.what(), "runs.csv: no variant named 'baseline' (variants: old, new)");
  }
}

TEST(SeriesCsv, MissingFileIsAnError) {
  EXPECT_THROW(read_series_csv("/nonexistent/runs.csv"), CsvError);
}

// A value from_chars reads but a double cannot hold is out of range, not
// "not a number" (large or tiny alike).
TEST(SeriesCsv, OutOfRangeValueSaysSo) {
  EXPECT_EQ(error_of("variant,iteration,value\nbaseline,1,1e400\n"),
            "runs.csv:2: value '1e400' is out of range");
  EXPECT_EQ(error_of("variant,iteration,value\nbaseline,1,1e-400\n"),
            "runs.csv:2: value '1e-400' is out of range");
  EXPECT_EQ(error_of("variant,iteration,value\nbaseline,1,+1e400\n"),
            "runs.csv:2: value '+1e400' is out of range");
}

// Only a '+' before a digit or '.' is dropped: "+-5" is not -5.
TEST(SeriesCsv, PlusOnlyBeforeADigitOrPoint) {
  EXPECT_EQ(error_of("variant,iteration,value\nbaseline,1,+-5\n"),
            "runs.csv:2: value '+-5' is not a number");
  EXPECT_EQ(error_of("variant,iteration,value\nbaseline,1,+\n"),
            "runs.csv:2: value '+' is not a number");
  EXPECT_EQ(error_of("variant,iteration,value\nbaseline,1,++5\n"),
            "runs.csv:2: value '++5' is not a number");
  EXPECT_EQ(parse("variant,iteration,value\nbaseline,1,+.5\n")[0].values,
            (std::vector<double>{0.5}));
}

std::string read_error_of(const std::string& path) {
  try {
    read_series_csv(path);
  } catch (const CsvError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SeriesCsv, ADirectoryIsSaidToBeOne) {
  schedrig::testing::TempDir dir;
  const std::string sub = dir.file("runs.csv");
  std::filesystem::create_directory(sub);
  EXPECT_EQ(read_error_of(sub), sub + ": is a directory, not a CSV file");
}

// A FIFO is refused at once, not waited on for a writer.
TEST(SeriesCsv, AFifoIsRefusedWithoutBlocking) {
  schedrig::testing::TempDir dir;
  const std::string fifo = dir.file("runs.csv");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string what;
  ASSERT_TRUE(schedrig::testing::finishes_within(std::chrono::seconds(5), [&] {
    what = read_error_of(fifo);
  })) << "reading a FIFO blocked";
  EXPECT_EQ(what, fifo + ": not a regular file");
}

TEST(SeriesCsv, ReadsARegularFile) {
  schedrig::testing::TempDir dir;
  std::ofstream(dir.file("runs.csv")) << "variant,iteration,value\nbaseline,1,3\n";
  EXPECT_EQ(read_series_csv(dir.file("runs.csv"))[0].values, (std::vector<double>{3}));
}

}  // namespace
}  // namespace schedrig::compare
