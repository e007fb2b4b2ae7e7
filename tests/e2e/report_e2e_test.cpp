// `schedrig report` end to end (issue 18): a real two-variant `lab --quick`
// run and a bimodal run (the seed's NI_RANDOM shape, stored as an agent
// would send it), each rendered to HTML and opened in headless Chromium:
// the DOM has the verdict table and one plot per case and metric, the
// screenshot is not blank, and the page asked for nothing but itself.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <regex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/host/compare/synthetic_run.h"
#include "tests/support/headless_browser.h"
#include "tests/support/run_command.h"

namespace schedrig {
namespace {

using testing::bin;
using testing::run_command;
using testing::TempDir;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Opens `html` in Chromium and checks what every report must be; the
// number of strip plots is returned.
std::size_t check_in_browser(const std::string& html, const TempDir& dir, const std::string& png) {
  const testing::BrowserView v = testing::open_in_chromium(html, dir.path(), png);
  EXPECT_EQ(v.exit_code, 0) << v.log;
  EXPECT_NE(v.dom.find("id=\"verdict-table\""), std::string::npos) << v.dom.substr(0, 2000);
  for (const std::string& url : v.urls) ADD_FAILURE() << "the page asked for " << url;
  const double share = testing::non_background_share(png);
  EXPECT_GT(share, 0.01) << png << " looks blank";
  std::cout << "screenshot: " << png << " (" << share * 100 << "% of pixels drawn)\n";
  return count(v.dom, "<svg class=\"strip\"");
}

std::size_t compare_rows(const std::string& run, const std::string& db) {
  const auto c = run_command(bin("schedrig") + " compare " + run +
                             " --json --disturbed include --db " + db + " 2>/dev/null");
  return nlohmann::json::parse(c.output)["rows"].size();
}

// The check itself can fail: a page that loads an image, a style and a
// frame from the network is caught with each URL.
TEST(ReportE2E, TheBrowserCheckSeesEveryRequestAPageMakes) {
  if (testing::chromium_binary().empty())
    GTEST_SKIP() << "chromium is not installed (scripts/setup)";
  TempDir dir;
  const std::string html = dir.file("leaky.html");
  std::ofstream(html) << "<html><head><link rel=stylesheet href=\"http://css.invalid/a.css\">"
                         "</head><body><img src=\"http://img.invalid/i.png\">"
                         "<iframe src=\"http://frame.invalid/\"></iframe></body></html>";
  const testing::BrowserView v = testing::open_in_chromium(html, dir.path());
  EXPECT_EQ(v.exit_code, 0) << v.log;
  const std::vector<std::string> want = {"http://css.invalid/a.css", "http://frame.invalid/",
                                         "http://img.invalid/i.png"};
  std::vector<std::string> urls = v.urls;
  std::sort(urls.begin(), urls.end());
  urls.erase(std::unique(urls.begin(), urls.end()), urls.end());
  EXPECT_EQ(urls, want);
}

TEST(ReportE2E, ARealLabRunOpensInChromiumWithItsVerdictsAndPlots) {
  if (testing::chromium_binary().empty())
    GTEST_SKIP() << "chromium is not installed (scripts/setup)";
  TempDir dir;
  const std::string db = dir.file("lab.db");
  const auto lab = run_command(bin("schedrig") + " lab --quick --db " + db);
  ASSERT_EQ(lab.exit_code, 0) << lab.output;
  const auto results = run_command(bin("schedrig") + " results --json --db " + db);
  const std::string run = nlohmann::json::parse(results.output)["runs"][0]["run_id"];
  const std::string html = dir.file("lab.html");
  const auto report = run_command(bin("schedrig") + " report " + run +
                                  " --disturbed include --html " + html + " --db " + db);
  ASSERT_EQ(report.exit_code, 0) << report.output;
  EXPECT_NE(report.output.find("report: wrote " + html), std::string::npos) << report.output;
  const std::size_t plots = check_in_browser(html, dir, dir.file("lab.png"));
  EXPECT_EQ(plots, compare_rows(run, db));
  std::ifstream in(html);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // The sampler's time series of the real run: idle % at least, per case.
  EXPECT_GE(count(text, "<svg class=\"timeseries\""), 3u);
  EXPECT_NE(text.find("autogroup-off"), std::string::npos);
}

TEST(ReportE2E, TheBimodalRunShowsItsTwoModes) {
  if (testing::chromium_binary().empty())
    GTEST_SKIP() << "chromium is not installed (scripts/setup)";
  TempDir dir;
  const std::string db = dir.file("bimodal.db");
  testing::SyntheticRun s;
  s.run_id = "b1b1b1b1-1111-4111-8111-000000000001";
  s.variants = {"ni-random", "no-ni-random"};
  s.iterations = 10;
  s.ops = [](const std::string&, const std::string& v, unsigned i) {
    const bool low = v == "ni-random" && (i % 5 == 1 || i % 5 == 2 || i % 5 == 4);
    return (low ? 38100 : 126000) * (1 + 0.003 * testing::jitter(i));
  };
  s.latency_ns = [](const std::string&, const std::string& v,
                    unsigned i) -> std::vector<std::pair<std::uint64_t, unsigned long long>> {
    return {{8'000 + i * 50, 95}, {v == "ni-random" ? 900'000u : 90'000u, 5}};
  };
  {
    store::Store st(db);
    testing::ingest(st, testing::synthetic_run(s));
  }
  const std::string html = dir.file("bimodal.html");
  const std::string command =
      bin("schedrig") + " report " + s.run_id.substr(0, 8) + " --html " + html + " --db " + db;
  const auto report = run_command(command);
  ASSERT_EQ(report.exit_code, 0) << report.output;
  std::cout << "made by: " << command << "\n";
  // Kept for the record: the bimodal report and its screenshot.
  const std::string keep = std::string(SCHEDRIG_BIN_DIR) + "/../tests/report-e2e";
  run_command("mkdir -p " + keep);
  const std::string png = keep + "/bimodal.png";
  EXPECT_EQ(check_in_browser(html, dir, png), 2u);  // ops_per_s and wakeup_p99_us
  run_command("cp " + html + " " + keep + "/bimodal.html");
  std::ifstream in(html);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(count(text, "class=\"mode\""), 4u);  // the ni-random series' two modes, per metric
  EXPECT_NE(text.find("bimodal: 6 of 10 iterations at ~38.1k"), std::string::npos);
  EXPECT_NE(text.find("pooled p99.9"), std::string::npos);
}

}  // namespace
}  // namespace schedrig
