// wait_until_quiet(): the quiet-box check before an iteration (sampler.h).
#include <chrono>
#include <optional>
#include <thread>

#include "agent/sampler/proc_stat.h"
#include "agent/sampler/sampler.h"
#include "agent/sampler/source_status.h"
#include "common/procfs/file_reader.h"
#include "common/procfs/read_error.h"

namespace schedrig::sampler {
namespace {

constexpr auto kPoll = std::chrono::milliseconds(100);

// Runnable tasks other than the poller itself; empty when this read failed
// (e.g. a file rewritten while read): the poll is simply not counted.
// `read_errno` keeps the errno of a failed read (EFBIG, ...) for the report.
std::optional<unsigned> others_running(procfs::FileReader& stat, int& read_errno) {
  std::string_view text;
  if (!stat.read(text)) {
    read_errno = stat.error();
    return std::nullopt;
  }
  try {
    const auto running = parse_proc_stat(text, user_hz()).procs_running;
    return running > 0 ? running - 1 : 0;
  } catch (const SamplerError&) {
    return std::nullopt;
  }
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Never a reading: the file is not /proc/stat; say so, not "busy", with
// the read error's reason when reads failed (EFBIG for a file over 4 MiB).
SamplerError never_read(const std::string& path, int read_errno) {
  const std::string message = path + ": no procs_running line to read";
  if (read_errno == 0) return parse_error(message);
  return SamplerError(ErrorKind::kUnreachable, message + ": " + procfs::errno_text(read_errno),
                      read_errno);
}

}  // namespace

QuietResult wait_until_quiet(const procfs::Root& root, unsigned max_runnable, double hold_s,
                             double limit_s, const std::atomic<bool>* stop) {
  procfs::FileReader stat(root.path(kProcStat));
  if (!stat.ok()) {
    throw SamplerError(ErrorKind::kUnreachable, stat.path() + ": " + stat.error_text(),
                       stat.error());
  }
  const auto start = std::chrono::steady_clock::now();
  auto quiet_since = start;
  bool quiet = false;
  bool ever_read = false;
  int read_errno = 0;
  unsigned last = 0;
  for (;;) {
    const auto others = others_running(stat, read_errno);
    ever_read = ever_read || others.has_value();
    if (others) last = *others;
    if (!others) {
      // Unreadable this time: neither quiet nor busy.
    } else if (*others <= max_runnable) {
      if (!quiet) quiet_since = std::chrono::steady_clock::now();
      quiet = true;
      if (seconds_since(quiet_since) >= hold_s) return {seconds_since(start), false, last};
    } else {
      quiet = false;
    }
    if (seconds_since(start) >= limit_s || (stop && stop->load())) {
      if (!ever_read) throw never_read(stat.path(), read_errno);
      return {seconds_since(start), true, last};
    }
    std::this_thread::sleep_for(kPoll);
  }
}

}  // namespace schedrig::sampler
