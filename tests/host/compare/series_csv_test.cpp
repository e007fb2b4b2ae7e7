// The analyze CSV: accepted forms and errors that name the line.
#include "host/compare/series_csv.h"

#include <sstream>

#include <gtest/gtest.h>

#include "host/compare/analyze_series.h"

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

}  // namespace
}  // namespace schedrig::compare
