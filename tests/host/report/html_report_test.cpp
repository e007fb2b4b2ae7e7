// The HTML report's pieces (host/report/html): escaping, ticks, and a run's
// page from a real store — its verdict table, one figure per case and
// metric, nothing that leaves the file, and remote strings escaped.
#include <regex>

#include <gtest/gtest.h>

#include "host/compare/pooled_latency.h"
#include "host/report/html/html_text.h"
#include "host/report/html/nightly_report.h"
#include "host/report/html/run_report.h"
#include "host/report/html/svg.h"
#include "tests/host/compare/synthetic_run.h"
#include "tests/host/store/temp_db.h"

namespace schedrig::report::html {
namespace {

using testing::SyntheticRun;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(HtmlText, EscapesMarkupQuotesAndControlCharacters) {
  EXPECT_EQ(html_escaped("<script>a&b\"c'd\x1b[2Je\tf\n"),
            "&lt;script&gt;a&amp;b&quot;c&#39;d\\x1b[2Je\tf\n");
  EXPECT_EQ(svg_number(1.005), "1");  // two decimals, no trailing zeros
  EXPECT_EQ(svg_number(12.5), "12.5");
  EXPECT_EQ(svg_number(-0.001), "0");
  EXPECT_EQ(svg_number(std::nan("")), "0");
}

TEST(Svg, NiceTicksAreRoundAndCoverTheRange) {
  EXPECT_EQ(nice_ticks(0, 100), (std::vector<double>{0, 20, 40, 60, 80, 100}));
  EXPECT_EQ(nice_ticks(37000, 128000), (std::vector<double>{40000, 60000, 80000, 100000, 120000}));
  EXPECT_EQ(nice_ticks(5, 5), (std::vector<double>{5}));
  const Scale s{0, 10, 100, 0};
  EXPECT_EQ(s(0), 100);
  EXPECT_EQ(s(5), 50);
  EXPECT_EQ((Scale{3, 3, 0, 10})(3), 5);
}

// The seed's shape: the baseline flips between ~38k and ~126k ops/s (a
// bimodal series), the variant stays high; a wakeup latency histogram per
// iteration.
SyntheticRun bimodal_run(const std::string& case_name) {
  SyntheticRun s;
  s.run_id = "aaaaaaaa-1111-4111-8111-000000000001";
  s.cases = {case_name};
  s.variants = {"baseline", "no-ni-random"};
  s.iterations = 10;
  s.ops = [](const std::string&, const std::string& v, unsigned i) {
    const bool low = v == "baseline" && (i % 5 == 1 || i % 5 == 2 || i % 5 == 4);
    return (low ? 38100 : 126000) * (1 + 0.003 * testing::jitter(i));
  };
  s.disturbed = {{"no-ni-random", 3}};
  s.latency_ns = [](const std::string&, const std::string&,
                    unsigned i) -> std::vector<std::pair<std::uint64_t, unsigned long long>> {
    return {{10'000 + i * 100, 90}, {200'000, 10}};
  };
  return s;
}

RunReportData report_of(const SyntheticRun& s, const testing::TempDir& dir) {
  store::Store db(dir.file("schedrig.db"));
  testing::ingest(db, testing::synthetic_run(s));
  RunReportData d;
  d.runs = db.runs(s.run_id, {.sample_summaries = true, .histograms = true});
  d.table = compare::compare_variants(d.runs.front());
  d.table.pooled = compare::pooled_latency(d.table, d.runs, {});
  d.command = "schedrig report aaaaaaaa --html r.html";
  return d;
}

TEST(RunReport, HasTheVerdictTableAFigurePerRowAndNothingThatLeavesTheFile) {
  testing::TempDir dir;
  const RunReportData d = report_of(bimodal_run("fork-all"), dir);
  const std::string html = run_report_html(d);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("Content-Security-Policy"), std::string::npos);
  EXPECT_EQ(count(html, "id=\"verdict-table\""), 1u);
  // One strip plot per case and metric: ops_per_s and wakeup_p99_us.
  EXPECT_EQ(count(html, "<svg class=\"strip\""), d.table.rows.size());
  EXPECT_EQ(d.table.rows.size(), 2u);
  EXPECT_EQ(count(html, "data-metric=\"ops_per_s\""), 1u);
  // The bimodal baseline's two modes are drawn, and so is the disturbed iteration.
  EXPECT_EQ(count(html, "class=\"mode\""), 4u);  // 2 modes x 2 metrics
  EXPECT_EQ(count(html, "class=\"disturbed\""), 2u);
  EXPECT_NE(html.find("bimodal"), std::string::npos);
  EXPECT_NE(html.find("pooled p99"), std::string::npos);
  EXPECT_NE(html.find("PLACE_LAG RUN_TO_PARITY NI_RANDOM"), std::string::npos);  // fingerprint
  // Nothing is fetched: no script, no link, no source but inline SVG's namespace.
  std::string stripped =
      std::regex_replace(html, std::regex("xmlns=\"http://www.w3.org/2000/svg\""), "");
  for (const char* outside : {"http:", "https:", "src=", "href=", "<script", "<link", "url("}) {
    EXPECT_EQ(stripped.find(outside), std::string::npos) << outside;
  }
}

TEST(RunReport, RemoteStringsAreEscaped) {
  testing::TempDir dir;
  const std::string evil = "x<img src=y onerror=alert(1)>";
  const std::string html = run_report_html(report_of(bimodal_run(evil), dir));
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_NE(html.find("x&lt;img src=y onerror=alert(1)&gt;"), std::string::npos);
}

// A summary.json anyone may have edited: wrong types and out-of-range
// numbers render as "?" or are left out, never throw or wrap.
TEST(NightReport, AHostileSummaryRendersWithoutThrowing) {
  NightReportData d;
  d.summary = nlohmann::json::parse(R"({
    "night": "n<1>", "exit_code": 1e300, "regression": "yes", "detector_failed": 1,
    "rows": [{"agent": "box1", "gate_failed": "no", "change_pct": "x", "verdict": 7}, "str", 5],
    "selftests": ["str", {"agent": "box1", "boots": -1, "regressed": 1e300, "ok": "yes",
                          "notes": ["boot 2: fewer than 2 iterations", 3]}],
    "problems": [1, "a <b> problem"]})");
  std::string html;
  ASSERT_NO_THROW(html = nightly_report_html(d));
  EXPECT_NE(html.find("schedrig night n&lt;1&gt;"), std::string::npos);
  EXPECT_NE(html.find("exit ?"), std::string::npos);
  EXPECT_EQ(html.find("4294967295"), std::string::npos);
  EXPECT_EQ(html.find("-2147483648"), std::string::npos);
  EXPECT_NE(html.find("<td>box1</td><td>?</td><td>?</td><td>DETECTOR FAILED</td>"
                      "<td>boot 2: fewer than 2 iterations</td>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("a &lt;b&gt; problem"), std::string::npos);
  d.summary["rows"] = nlohmann::json::array();
  html = nightly_report_html(d);
  EXPECT_NE(html.find("No kernel was judged against a baseline"), std::string::npos);
}

}  // namespace
}  // namespace schedrig::report::html
