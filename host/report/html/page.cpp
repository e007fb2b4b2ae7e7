#include "host/report/html/page.h"

#include <fmt/format.h>

#include "host/report/html/html_text.h"

namespace schedrig::report::html {
namespace {

// Readable on a laptop, printable on A4: no fixed widths beyond the plots'.
constexpr const char* kStyle = R"css(
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:900px;color:#222;padding:0 1em}
h1{font-size:1.4em}h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:1.6em}
h3{font-size:1.05em;margin-bottom:.2em}
table{border-collapse:collapse;margin:.5em 0;font-size:13px}
th,td{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}
th{background:#f4f4f4}td.reg{background:#fbe3e3;font-weight:600}td.imp{background:#e2f3e6}
pre{background:#f8f8f8;padding:.6em;overflow-x:auto;font-size:12px}
figure{margin:.6em 0 1.2em}figcaption{font-size:13px;font-weight:600;color:#333}
svg{max-width:100%;height:auto;font:11px system-ui,sans-serif}
svg .legend{font-size:12px}ul.notes li{margin:.2em 0}
.muted{color:#666;font-size:12px}
@media print{details{display:block}details>summary{display:none}body{max-width:none}
figure{break-inside:avoid}}
)css";

std::string cell_class(const std::string& text) {
  if (text.find("(R)") != std::string::npos) return R"( class="reg")";
  if (text.find("(I)") != std::string::npos) return R"( class="imp")";
  return "";
}

}  // namespace

Page::Page(std::string title) : title_(std::move(title)) {}

void Page::heading(int level, const std::string& text, const std::string& id) {
  const std::string id_attr = id.empty() ? "" : fmt::format(R"( id="{}")", html_escaped(id));
  body_ += fmt::format("<h{0}{1}>{2}</h{0}>\n", level, id_attr, html_escaped(text));
}

void Page::paragraph(const std::string& text, const std::string& css_class) {
  const std::string c = css_class.empty() ? "" : fmt::format(R"( class="{}")", css_class);
  body_ += fmt::format("<p{}>{}</p>\n", c, html_escaped(text));
}

void Page::preformatted(const std::string& text, const std::string& css_class) {
  const std::string c = css_class.empty() ? "" : fmt::format(R"( class="{}")", css_class);
  body_ += fmt::format("<pre{}>{}</pre>\n", c, html_escaped(text));
}

void Page::raw(const std::string& html) { body_ += html; }

void Page::table(const std::vector<std::string>& headers,
                 const std::vector<std::vector<std::string>>& rows, const std::string& css_class,
                 const std::string& id) {
  const std::string id_attr = id.empty() ? "" : fmt::format(R"( id="{}")", html_escaped(id));
  body_ += fmt::format(R"(<table class="{}"{}><thead><tr>)", css_class, id_attr);
  for (const auto& h : headers) body_ += "<th>" + html_escaped(h) + "</th>";
  body_ += "</tr></thead><tbody>\n";
  for (const auto& row : rows) {
    body_ += "<tr>";
    for (const auto& cell : row) {
      body_ += fmt::format("<td{}>{}</td>", cell_class(cell), html_escaped(cell));
    }
    body_ += "</tr>\n";
  }
  body_ += "</tbody></table>\n";
}

void Page::list(const std::vector<std::string>& items, const std::string& css_class) {
  if (items.empty()) return;
  body_ += fmt::format(R"(<ul class="{}">)", css_class);
  for (const auto& item : items) body_ += "<li>" + html_escaped(item) + "</li>";
  body_ += "</ul>\n";
}

void Page::figure(const std::string& svg, const std::string& caption,
                  const std::vector<std::pair<std::string, std::string>>& data) {
  std::string attrs;
  for (const auto& [name, value] : data) {
    attrs += fmt::format(R"( data-{}="{}")", name, html_escaped(value));
  }
  body_ += fmt::format("<figure{}><figcaption>{}</figcaption>{}</figure>\n", attrs,
                       html_escaped(caption), svg);
}

void Page::details_open(const std::string& summary) {
  body_ += "<details><summary>" + html_escaped(summary) + "</summary>\n";
}

void Page::details_close() { body_ += "</details>\n"; }

std::string Page::str() const {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; img-src data:\">"
      "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
      "<title>{}</title><style>{}</style></head>\n<body>\n{}</body></html>\n",
      html_escaped(title_), kStyle, body_);
}

}  // namespace schedrig::report::html
