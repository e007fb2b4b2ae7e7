#include "bench/collector_load/proc_stats.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace schedrig::bench {

namespace {

// The "Key:   N kB" value of /proc/PID/status, 0 when absent.
long status_kib(const std::string& text, const std::string& key) {
  const auto at = text.find("\n" + key + ":");
  if (at == std::string::npos) return 0;
  return std::stol(text.substr(at + key.size() + 2));
}

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// comm and utime+stime (seconds) of a /proc stat line: "PID (comm) S ... utime stime ...".
ThreadCpu parse_stat(const std::string& text) {
  ThreadCpu t;
  const auto open = text.find('(');
  const auto close = text.rfind(')');
  if (open == std::string::npos || close == std::string::npos) return t;
  t.tid = static_cast<pid_t>(std::stol(text.substr(0, open)));
  t.name = text.substr(open + 1, close - open - 1);
  std::istringstream rest(text.substr(close + 2));
  std::string field;
  // Fields after comm start at 3 (state); utime is 14, stime 15.
  for (int i = 3; i < 14; ++i) rest >> field;
  double utime = 0, stime = 0;
  rest >> utime >> stime;
  t.cpu_s = (utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
  return t;
}

}  // namespace

MemoryKib memory_of(pid_t pid) {
  const std::string text = "\n" + read_all("/proc/" + std::to_string(pid) + "/status");
  return {status_kib(text, "VmRSS"), status_kib(text, "VmHWM")};
}

std::vector<ThreadCpu> thread_cpu_of(pid_t pid) {
  std::vector<ThreadCpu> out;
  std::error_code ec;
  const std::string dir = "/proc/" + std::to_string(pid) + "/task";
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    std::ifstream in(entry.path() / "stat");
    std::string line;
    if (in && std::getline(in, line)) out.push_back(parse_stat(line));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.tid < b.tid; });
  return out;
}

double process_cpu_s(pid_t pid) {
  return parse_stat(read_all("/proc/" + std::to_string(pid) + "/stat")).cpu_s;
}

std::vector<ThreadCpu> thread_cpu_delta(const std::vector<ThreadCpu>& before,
                                        const std::vector<ThreadCpu>& after) {
  std::map<pid_t, double> was;
  for (const auto& t : before) was[t.tid] = t.cpu_s;
  std::vector<ThreadCpu> out;
  for (ThreadCpu t : after) {
    t.cpu_s -= was.count(t.tid) ? was[t.tid] : 0.0;
    out.push_back(t);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.cpu_s > b.cpu_s; });
  return out;
}

double load_average_1m() {
  std::ifstream in("/proc/loadavg");
  double load = -1;
  in >> load;
  return load;
}

}  // namespace schedrig::bench
