// probe_sources(): which /proc sources this kernel offers (sampler.h).
#include <cerrno>
#include <cstring>
#include <exception>
#include <string>

#include <fmt/format.h>

#include "agent/sampler/loadavg.h"
#include "agent/sampler/pressure.h"
#include "agent/sampler/proc_stat.h"
#include "agent/sampler/schedstat.h"
#include "agent/sampler/source_status.h"
#include "agent/sampler/vmstat.h"
#include "common/procfs/read_file.h"

namespace schedrig::sampler {
namespace {

std::string hint(const std::string& path, int err) {
  if (err == ENOENT && path == kProcSchedstat) return " (kernel built without CONFIG_SCHEDSTATS?)";
  if (err == ENOENT && path == kProcPressureCpu) return " (kernel built without CONFIG_PSI?)";
  if (err == EOPNOTSUPP && path == kProcPressureCpu)
    return " (PSI disabled: psi=0 on the kernel command line?)";
  return "";
}

// Reads `path` under root and runs `check` on its text, which may fill in
// the status and throws when the content is unusable.
template <typename Check>
SourceStatus probe_one(const procfs::Root& root, const char* path, Check check) {
  int err = 0;
  const std::optional<std::string> text = procfs::try_read_small_file(root.path(path), &err);
  if (!text) return absent_status(path, err);
  SourceStatus s{path, true, 0, ""};
  try {
    check(*text, s);
  } catch (const std::exception& e) {
    s.present = false;
    s.reason = e.what();
  }
  return s;
}

}  // namespace

SourceStatus absent_status(const std::string& path, int err) {
  SourceStatus s;
  s.path = path;
  const char* word = err == ENOENT ? "absent" : std::strerror(err);
  s.reason = fmt::format("{}{}", word, hint(path, err));
  return s;
}

std::vector<SourceStatus> probe_sources(const procfs::Root& root) {
  std::vector<SourceStatus> out;
  out.push_back(probe_one(
      root, kProcStat, [](const std::string& t, SourceStatus&) { parse_proc_stat(t, user_hz()); }));
  out.push_back(probe_one(root, kProcSchedstat, [](const std::string& t, SourceStatus& s) {
    s.version = schedstat_version(t);  // kept even when unsupported
    parse_schedstat(t);
  }));
  out.push_back(
      probe_one(root, kProcVmstat, [](const std::string& t, SourceStatus&) { parse_vmstat(t); }));
  out.push_back(probe_one(root, kProcPressureCpu,
                          [](const std::string& t, SourceStatus&) { parse_pressure(t); }));
  out.push_back(
      probe_one(root, kProcLoadavg, [](const std::string& t, SourceStatus&) { parse_loadavg(t); }));
  return out;
}

}  // namespace schedrig::sampler
