#include "tests/support/headless_browser.h"

#include <fstream>
#include <regex>
#include <sstream>

#include "tests/support/run_command.h"

namespace schedrig::testing {
namespace {

// Flags that keep Chromium from talking to anything but the page: no
// background networking, updates, sync or first-run work; a fresh profile.
std::string quiet_flags(const std::string& work_dir) {
  return " --headless=new --no-sandbox --disable-gpu --no-first-run --no-default-browser-check"
         " --disable-background-networking --disable-component-update --disable-sync"
         " --disable-default-apps --disable-extensions --metrics-recording-only"
         " --disable-breakpad --user-data-dir=" +
         work_dir + "/chromium-profile";
}

// Hash codes of Chromium's traffic annotations (tools/traffic_annotation):
// what the renderer loads for a page, and a frame's navigation.
constexpr const char* kBlinkResourceLoader = "101845102";
constexpr const char* kNavigationUrlLoader = "63171670";

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

std::string chromium_binary() {
  for (const char* b : {"/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
    if (std::ifstream(b).good()) return b;
  }
  return "";
}

BrowserView open_in_chromium(const std::string& html_path, const std::string& work_dir,
                             const std::string& png_path, int width, int height) {
  BrowserView v;
  const std::string netlog = work_dir + "/netlog.json";
  const std::string url = "file://" + html_path;
  const auto dom = run_command("timeout 120 " + chromium_binary() + quiet_flags(work_dir) +
                               " --log-net-log=" + netlog + " --dump-dom '" + url + "' 2>" +
                               work_dir + "/chromium.log");
  v.exit_code = dom.exit_code;
  v.dom = dom.output;
  v.log = read_file(work_dir + "/chromium.log");
  const std::string log = read_file(netlog);
  // Chromium labels each request with its purpose (a network traffic
  // annotation); the page's own are blink_resource_loader (subresources:
  // images, styles, fonts, fetches) and navigation_url_loader (frames).
  // The browser's background requests (updates, time, dictionaries) carry
  // other annotations and are not the page's.
  static const std::regex kRequest("\"traffic_annotation\":(\\d+),\"url\":\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(log.begin(), log.end(), kRequest);
       it != std::sregex_iterator(); ++it) {
    const std::string annotation = (*it)[1];
    if (annotation == kBlinkResourceLoader || annotation == kNavigationUrlLoader) {
      v.urls.push_back((*it)[2]);
    }
  }
  if (!png_path.empty()) {
    const auto shot =
        run_command("timeout 120 " + chromium_binary() + quiet_flags(work_dir) +
                    " --hide-scrollbars --window-size=" + std::to_string(width) + "," +
                    std::to_string(height) + " --screenshot=" + png_path + " '" + url + "' 2>&1");
    if (shot.exit_code != 0) v.log += shot.output;
  }
  return v;
}

double non_background_share(const std::string& path) {
  // Decodes 8-bit RGB/RGBA non-interlaced PNGs (what Chromium writes).
  const std::string script = R"PY(
import sys, zlib, struct
d = open(sys.argv[1], 'rb').read()
assert d[:8] == b'\x89PNG\r\n\x1a\n'
pos, idat, w, h, ct = 8, b'', 0, 0, 0
while pos < len(d):
    n, t = struct.unpack('>I4s', d[pos:pos+8]); body = d[pos+8:pos+8+n]; pos += 12 + n
    if t == b'IHDR': w, h, bd, ct = struct.unpack('>IIBB', body[:10])
    elif t == b'IDAT': idat += body
bpp = {2: 3, 6: 4}[ct]
raw = zlib.decompress(idat); stride = w * bpp; prev = bytearray(stride); rows = []
for y in range(h):
    f = raw[y*(stride+1)]; line = bytearray(raw[y*(stride+1)+1:(y+1)*(stride+1)])
    for x in range(stride):
        a = line[x-bpp] if x >= bpp else 0; b = prev[x]; c = prev[x-bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p-a), abs(p-b), abs(p-c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line)); prev = line
bg = rows[0][:3]; other = 0
for r in rows:
    for x in range(0, stride, bpp):
        if r[x:x+3] != bg: other += 1
print(other / (w * h))
)PY";
  const std::string py = path + ".py";
  std::ofstream(py) << script;
  const auto r = run_command("python3 " + py + " " + path);
  if (r.exit_code != 0) return -1;
  try {
    return std::stod(r.output);
  } catch (...) {
    return -1;
  }
}

}  // namespace schedrig::testing
