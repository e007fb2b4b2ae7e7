// `schedrig analyze` on the seed's regression: the cliff makes it (R) where
// the rank test alone said "none", in the table and in --json.
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/run_command.h"

namespace schedrig {
namespace {

using testing::bin;
using testing::run_command;
using testing::TempDir;

// The seed's variant (RHEL 10.2) against a baseline of ten values inside the
// 3% band around 126k for which Mann-Whitney alone gives p 0.0524.
std::string seed_csv(const TempDir& dir) {
  const std::vector<double> base = {126824, 126561, 126344, 124466, 124492,
                                    124988, 126759, 125446, 125988, 126624};
  const std::vector<double> variant = {127553, 124467, 38047, 37983,  38100,
                                       38200,  38315,  38150, 126802, 125893};
  const std::string path = dir.file("seed.csv");
  std::ofstream out(path);
  out << "variant,iteration,value\n";
  for (std::size_t i = 0; i < base.size(); ++i)
    out << fmt::format("baseline,{},{}\n", i + 1, base[i]);
  for (std::size_t i = 0; i < variant.size(); ++i)
    out << fmt::format("rhel10.2,{},{}\n", i + 1, variant[i]);
  return path;
}

// Text from the file in an error is escaped: an ESC sequence in a cell does
// not reach the terminal, in the error or in the notes.
TEST(AnalyzeCli, FileTextInErrorsAndNotesIsEscaped) {
  TempDir dir;
  const std::string bad = dir.file("bad.csv");
  std::ofstream(bad) << "variant,iteration,value\nbaseline,1,zz\x1b[0m\n";
  const auto error = run_command(bin("schedrig") + " analyze " + bad);
  EXPECT_EQ(error.exit_code, 2) << error.output;
  EXPECT_EQ(error.output.find('\x1b'), std::string::npos) << error.output;
  EXPECT_NE(error.output.find("value 'zz\\e[0m' is not a number"), std::string::npos)
      << error.output;
  const std::string named = dir.file("named.csv");
  std::ofstream(named) << "variant,iteration,value\nbaseline,1,100\nbaseline,2,101\n"
                          "x\x1b]0;pwn\x07,1,100\n";
  const auto notes = run_command(bin("schedrig") + " analyze " + named);
  EXPECT_EQ(notes.exit_code, 0) << notes.output;
  EXPECT_EQ(notes.output.find('\x1b'), std::string::npos) << notes.output;
}

TEST(AnalyzeCli, TheSeedsCliffIsARegression) {
  TempDir dir;
  const std::string csv = seed_csv(dir);
  const auto text = run_command(bin("schedrig") + " analyze " + csv);
  ASSERT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(text.output.find("-69.68% (R)"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("0.0524"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("CLIFF"), std::string::npos) << text.output;
  EXPECT_NE(text.output.find("cliff: 6 of 10 iterations at ~38.1k (-69.8%)"), std::string::npos)
      << text.output;

  const auto json = run_command(bin("schedrig") + " analyze " + csv + " --json");
  ASSERT_EQ(json.exit_code, 0) << json.output;
  const auto c = nlohmann::json::parse(json.output)["comparisons"][0];
  EXPECT_EQ(c["verdict"], "regression");
  EXPECT_EQ(c["spread"], false);
  const auto& k = c["cliff"];
  EXPECT_EQ(k["tested"], true);
  EXPECT_EQ(k["decidable"], true);
  EXPECT_EQ(k["below"], 6);
  EXPECT_EQ(k["above"], 1);
  EXPECT_NEAR(k["p_below"].get<double>(), 151200.0 / 27907200.0, 1e-12);
  EXPECT_EQ(k["significant_below"], true);
  EXPECT_EQ(k["significant_above"], false);
  EXPECT_DOUBLE_EQ(k["level"].get<double>(), 38125);
  EXPECT_EQ(k["words"], "cliff: 6 of 10 iterations at ~38.1k (-69.8%)");
}

TEST(AnalyzeCli, NoCliffColumnWithoutCliffWords) {
  TempDir dir;
  std::ofstream(dir.file("flat.csv")) << "variant,iteration,value\n"
                                         "baseline,1,100\nbaseline,2,101\nbaseline,3,99\n"
                                         "patched,1,100.5\npatched,2,99.5\npatched,3,100.2\n";
  const auto text = run_command(bin("schedrig") + " analyze " + dir.file("flat.csv"));
  ASSERT_EQ(text.exit_code, 0) << text.output;
  // auto at 3 vs 3 is Welch's t: the cliff is undecidable, and says so.
  EXPECT_NE(text.output.find("cliff undecidable at n=3"), std::string::npos) << text.output;
  const auto json =
      run_command(bin("schedrig") + " analyze " + dir.file("flat.csv") + " --method welch --json");
  const auto c = nlohmann::json::parse(json.output)["comparisons"][0];
  EXPECT_EQ(c["cliff"]["tested"], false);
  EXPECT_TRUE(c["cliff"]["p_below"].is_null());
  const auto welch =
      run_command(bin("schedrig") + " analyze " + dir.file("flat.csv") + " --method welch");
  EXPECT_EQ(welch.output.find("CLIFF"), std::string::npos) << welch.output;
}

}  // namespace
}  // namespace schedrig
