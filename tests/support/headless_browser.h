// Test support: opens a local HTML file in headless Chromium (Debian's
// `chromium`, installed by scripts/setup) the way a reader would, with its
// background networking off: the DOM after load, a screenshot, and every
// network request the page made (Chromium's net log).
#pragma once

#include <string>
#include <vector>

namespace schedrig::testing {

// The chromium binary, "" when none is installed.
std::string chromium_binary();

struct BrowserView {
  int exit_code = -1;
  std::string dom;  // --dump-dom after load
  // URLs the page itself asked the network for (its subresources and
  // frames, by Chromium's traffic annotation; the browser's own background
  // requests left out). The file:// load of the page is not among them.
  std::vector<std::string> urls;
  std::string log;  // chromium's own output, for failure messages
};

// Loads `html_path` (absolute) headless in a fresh profile under
// `work_dir`: its DOM, its net log's URLs, and a screenshot of
// `width` x `height` px written to `png_path` (when not empty).
BrowserView open_in_chromium(const std::string& html_path, const std::string& work_dir,
                             const std::string& png_path = "", int width = 1280, int height = 2400);

// The share of pixels of the PNG at `path` that are not the top-left
// pixel's colour (0 for a blank page), decoded by python3's zlib; -1 when
// it cannot be read.
double non_background_share(const std::string& path);

}  // namespace schedrig::testing
