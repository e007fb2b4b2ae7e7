#include "agent/session/current_run.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>

#include <spdlog/spdlog.h>

#include "agent/session/pending_file.h"
#include "agent/spool/spool_fs.h"
#include "common/printable.h"

namespace schedrig::agent {

namespace {
constexpr std::size_t kMaxBytes = 4096;
}  // namespace

std::string current_run_path(const std::string& state_dir) { return state_dir + "/current-run"; }

void write_current_run(const std::string& file, const CurrentRun& run) {
  PendingFile out(file);
  out.write("run_id " + run.run_id + "\ninstance_id " + run.instance_id + "\nboot_id " +
            run.boot_id + "\n");
  out.commit();
}

namespace {

// The file's text when it is a regular file of this user or root, opened
// without following a link or blocking (spool_fs.h open_trusted).
std::optional<std::string> read_trusted(const std::string& file) {
  const std::filesystem::path path(file);
  const spool::Fd dir(::open(path.parent_path().empty() ? "." : path.parent_path().c_str(),
                             O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  spool::TrustedOpen f = dir.get() < 0 ? spool::TrustedOpen{spool::Fd(), "", false, errno}
                                       : spool::open_trusted(dir.get(), path.filename());
  if (!f.why.empty()) {
    spdlog::warn("{}: {}: ignored", file, f.why);
    return std::nullopt;
  }
  if (f.fd.get() < 0) {
    if (f.err != ENOENT) spdlog::warn("{}: cannot read it: {}", file, std::strerror(f.err));
    return std::nullopt;
  }
  std::string text(kMaxBytes, '\0');
  const ssize_t n = ::read(f.fd.get(), text.data(), text.size());
  if (n < 0) {
    spdlog::warn("{}: cannot read it: {}", file, std::strerror(errno));
    return std::nullopt;
  }
  text.resize(static_cast<std::size_t>(n));
  return text;
}

}  // namespace

std::optional<CurrentRun> read_current_run(const std::string& file) {
  const auto text = read_trusted(file);
  if (!text) return std::nullopt;
  CurrentRun run;
  std::istringstream in(*text);
  for (std::string key, value; in >> key >> value;) {
    if (key == "run_id") run.run_id = value;
    if (key == "instance_id") run.instance_id = value;
    if (key == "boot_id") run.boot_id = value;
  }
  if (run.run_id.empty() || run.instance_id.empty() || run.boot_id.empty()) {
    spdlog::warn("{}: malformed (no run_id, instance_id or boot_id): ignored", file);
    return std::nullopt;
  }
  return run;
}

void remove_current_run(const std::string& file) {
  if (::unlink(file.c_str()) != 0 && errno != ENOENT)
    spdlog::warn("{}: cannot remove it (errno {})", file, errno);
}

schedrig::v1::Envelope restart_report(const CurrentRun& run, const std::string& boot_id_now) {
  schedrig::v1::Envelope env;
  auto* done = env.mutable_run_finished();
  done->set_run_id(run.run_id);
  done->set_status(schedrig::v1::STATUS_FAILED);
  done->set_reason(boot_id_now == run.boot_id ? "agent restarted; boot_id unchanged"
                                              : "agent restarted; boot_id changed");
  done->set_completed_iterations(0);
  return env;
}

std::string report_unfinished_run(
    const std::string& state_dir, const std::string& instance_id, const std::string& boot_id_now,
    const std::function<std::uint64_t(schedrig::v1::Envelope)>& send) {
  const std::string file = current_run_path(state_dir);
  const auto run = read_current_run(file);
  if (!run || run->instance_id == instance_id) return "";
  schedrig::v1::Envelope report = restart_report(*run, boot_id_now);
  spdlog::warn("run {} of instance {} did not finish: reporting it failed ({})",
               printable(run->run_id), printable(run->instance_id), report.run_finished().reason());
  send(std::move(report));
  remove_current_run(file);
  return run->run_id;
}

}  // namespace schedrig::agent
