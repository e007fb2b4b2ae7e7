// The skeleton of a self-contained report page: one HTML file with its CSS
// inline, no script and no link out (it opens offline, mails as one file,
// prints), and the building blocks the reports share.
#pragma once

#include <string>
#include <vector>

namespace schedrig::report::html {

// A page under construction: sections are appended as HTML text.
class Page {
 public:
  explicit Page(std::string title);

  void heading(int level, const std::string& text, const std::string& id = "");   // escaped
  void paragraph(const std::string& text, const std::string& css_class = "");     // escaped
  void preformatted(const std::string& text, const std::string& css_class = "");  // escaped
  // Trusted markup (plots, tables built here).
  void raw(const std::string& html);
  // <table class=css_class>: a header row and rows of cells, all escaped; a
  // cell whose text contains "(R)" or "(I)" gets class "reg" or "imp".
  void table(const std::vector<std::string>& headers,
             const std::vector<std::vector<std::string>>& rows, const std::string& css_class,
             const std::string& id = "");
  // <ul class=css_class>, items escaped; nothing when empty.
  void list(const std::vector<std::string>& items, const std::string& css_class);
  // A <figure> holding its caption (escaped; above the plot, so a folded
  // section's summary never reads as the next plot's title), then `svg`, and data-* attributes
  // (names fixed here, values escaped) for tests and tools.
  void figure(const std::string& svg, const std::string& caption,
              const std::vector<std::pair<std::string, std::string>>& data = {});
  // Opens / closes a <details> block (collapsed content; open when printed).
  void details_open(const std::string& summary);
  void details_close();

  // The whole document.
  std::string str() const;

 private:
  std::string title_, body_;
};

}  // namespace schedrig::report::html
