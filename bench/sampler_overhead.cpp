// sampler_overhead: what the live sampler (agent/sampler) costs on its own
// thread, at each sample rate, on this machine's /proc and on a fake
// many-PU /proc tree (issue 6 item 4).
//
// For each (tree, hz) a Sampler runs for S seconds while the main thread
// sleeps. The figure is the sampler thread's own CPU time: its TID is the
// one thread that appears in /proc/self/task across start(), and its CPU
// time is read from the kernel's per-thread CPU clock (clock_gettime on the
// thread's clockid, what pthread_getcpuclockid builds; ns resolution) just
// before stop(). /proc/self/task/TID/stat utime/stime (clock ticks; the
// user vs kernel split) and the
// process CPU time (CLOCK_PROCESS_CPUTIME_ID, start() to stop(), includes
// the first snapshot taken on the caller's thread and, for the fake tree,
// the main thread rewriting the fake files once a second) are printed as
// cross-checks. RSS: VmRSS and VmHWM from /proc/self/status before the
// Sampler is built and just before stop() (kB).
//
//   real     root "/", cpus = this process's allowed PUs, the main thread
//            registered as the workload thread.
//   fake160  a FakeProc tree (fake_proc.h) in a temp dir: --pus PUs on 2
//            nodes, schedstat v16 with 3 domains per CPU, PSI, vmstat,
//            8 fake workload threads; stepped once a second at +50 ms (off
//            the sampler's tick boundaries).
//
// Then, unless --profile 0, where a tick's time goes: each tree is read
// through SnapshotReader::take() and derive() (the sampler's two steps per
// tick) on the main thread, N times back to back (hot caches) and 30 times
// 100 ms apart (cold, as the sampler sees them), timed with the thread CPU
// clock; and an empty tick loop (the sampler's condition-variable wait on a
// CLOCK_REALTIME deadline, nothing else) runs 3 s at 10 Hz on its own thread
// to show the wake-up cost alone.
//
// Targets (issue 6): real machine <= 0.1 % of one CPU at 1 Hz, <= 1 % at
// 10 Hz; the fake-tree figure is reported, not judged.
//
//   cmake -S . -B build-bench2 -DCMAKE_BUILD_TYPE=Release -DSCHEDRIG_BENCH=ON -DSCHEDRIG_TESTS=OFF
//   cmake --build build-bench2 -j2 --target sampler_overhead
//   build-bench2/bin/sampler_overhead [--seconds S] [--hz LIST] [--tree real|fake160|both]
//                                     [--pus N] [--profile N] [--json]
//   (defaults: --seconds 60 --hz 1,10 --tree both --pus 160 --profile 200;
//    exit status 3 when a real-machine figure misses its target;
//    bench/sampler_overhead.sh builds and runs it with the defaults)
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "agent/sampler/derive.h"
#include "agent/sampler/fake_proc.h"
#include "agent/sampler/sampler.h"
#include "agent/sampler/snapshot.h"

namespace {

namespace fs = std::filesystem;
namespace sm = schedrig::sampler;
namespace procfs = schedrig::procfs;

constexpr pid_t kFakePid = 4242;
constexpr int kFakeTasks = 8;
constexpr int kFakeNodes = 2;
constexpr int kColdProfile = 30;  // take()+derive() 100 ms apart, per tree

struct Args {
  double seconds = 60;
  std::vector<double> hz{1, 10};
  std::vector<std::string> trees{"real", "fake160"};
  int pus = 160;
  int profile = 200;
  bool json = false;
};

[[noreturn]] void usage(const std::string& why) {
  std::cerr << why << "\nusage: sampler_overhead [--seconds S] [--hz LIST] "
            << "[--tree real|fake160|both] [--pus N] [--profile N] [--json]\n";
  std::exit(2);
}

std::vector<double> parse_hz_list(const std::string& s) {
  std::vector<double> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) {
    std::size_t used = 0;
    double v = 0;
    try {
      v = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || !(v > 0) || v > sm::kMaxHz) usage("bad --hz entry: " + item);
    out.push_back(v);
  }
  if (out.empty()) usage("empty --hz");
  return out;
}

Args parse_args(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(k + " needs a value");
      return argv[++i];
    };
    if (k == "--seconds") {
      a.seconds = std::atof(value().c_str());
      if (!(a.seconds > 0)) usage("--seconds must be > 0");
    } else if (k == "--hz") {
      a.hz = parse_hz_list(value());
    } else if (k == "--tree") {
      const std::string t = value();
      if (t == "both") {
        a.trees = {"real", "fake160"};
      } else if (t == "real" || t == "fake160") {
        a.trees = {t};
      } else {
        usage("bad --tree: " + t);
      }
    } else if (k == "--pus") {
      a.pus = std::atoi(value().c_str());
      if (a.pus < 1) usage("--pus must be >= 1");
    } else if (k == "--profile") {
      a.profile = std::atoi(value().c_str());
      if (a.profile < 0) usage("--profile must be >= 0");
    } else if (k == "--json") {
      a.json = true;
    } else {
      usage("unknown option " + k);
    }
  }
  return a;
}

// ---- clocks and /proc/self --------------------------------------------------

std::int64_t clock_ns(clockid_t id) {
  timespec ts{};
  if (::clock_gettime(id, &ts) != 0) return -1;
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// The CPU-time clock of thread `tid` of this process (glibc's
// MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED), as pthread_getcpuclockid).
clockid_t thread_cpu_clock(pid_t tid) {
  return static_cast<clockid_t>((~static_cast<unsigned>(tid) << 3) | 6u);
}

std::set<pid_t> own_tids() {
  std::set<pid_t> out;
  for (const auto& e : fs::directory_iterator("/proc/self/task")) {
    out.insert(static_cast<pid_t>(std::atoi(e.path().filename().c_str())));
  }
  return out;
}

// utime and stime of one thread of this process in clock ticks ({-1, -1}
// when unreadable). The kernel scales them from tick samples to the
// thread's runtime, so their split is an estimate of user vs kernel time.
std::pair<long long, long long> thread_stat_ticks(pid_t tid) {
  std::ifstream f(fmt::format("/proc/self/task/{}/stat", tid));
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const auto rp = text.rfind(')');
  if (rp == std::string::npos) return {-1, -1};
  std::istringstream in(text.substr(rp + 2));
  std::string field;
  long long utime = -1, stime = -1;
  // After "comm)": state is field 3; utime and stime are fields 14 and 15.
  for (int n = 3; n <= 15 && (in >> field); ++n) {
    if (n == 14) utime = std::atoll(field.c_str());
    if (n == 15) stime = std::atoll(field.c_str());
  }
  return {utime, stime};
}

struct Mem {
  long rss_kb = 0, hwm_kb = 0;
};

Mem self_mem() {
  Mem m;
  std::ifstream f("/proc/self/status");
  for (std::string line; std::getline(f, line);) {
    if (line.rfind("VmRSS:", 0) == 0) m.rss_kb = std::atol(line.c_str() + 6);
    if (line.rfind("VmHWM:", 0) == 0) m.hwm_kb = std::atol(line.c_str() + 6);
  }
  return m;
}

// Whole-box jiffies from the "cpu " line of /proc/stat: {busy, total}
// (busy = total - idle - iowait), to say how loaded the box was meanwhile.
std::pair<double, double> box_jiffies() {
  std::ifstream f("/proc/stat");
  std::string label;
  f >> label;
  double total = 0, idle = 0, v = 0;
  for (int i = 0; i < 8 && (f >> v); ++i) {  // user nice system idle iowait irq softirq steal
    total += v;
    if (i == 3 || i == 4) idle += v;
  }
  return {total - idle, total};
}

std::vector<int> allowed_pus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> out;
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return out;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) out.push_back(c);
  }
  return out;
}

// "0-3,8,10-11" -> {0,1,2,3,8,10,11}.
std::vector<int> parse_cpulist(const std::string& s) {
  std::vector<int> out;
  std::stringstream in(s);
  for (std::string r; std::getline(in, r, ',');) {
    if (r.empty() || r == "\n") continue;
    const auto dash = r.find('-');
    const int lo = std::atoi(r.c_str());
    const int hi = dash == std::string::npos ? lo : std::atoi(r.c_str() + dash + 1);
    for (int c = lo; c <= hi; ++c) out.push_back(c);
  }
  return out;
}

// PU -> node from /sys/devices/system/node (what the agent gets from hwloc);
// every PU on node 0 when sysfs has no node directories.
std::vector<int> real_pu_to_node() {
  std::vector<int> map;
  const fs::path base = "/sys/devices/system/node";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(base, ec)) {
    const std::string name = e.path().filename();
    if (name.rfind("node", 0) != 0 || name.size() == 4 ||
        name.find_first_not_of("0123456789", 4) != std::string::npos) {
      continue;
    }
    const int node = std::atoi(name.c_str() + 4);
    std::ifstream f(e.path() / "cpulist");
    std::string list;
    std::getline(f, list);
    for (int c : parse_cpulist(list)) {
      if (c >= static_cast<int>(map.size())) map.resize(static_cast<std::size_t>(c) + 1, 0);
      map[static_cast<std::size_t>(c)] = node;
    }
  }
  if (map.empty()) map.assign(static_cast<std::size_t>(::sysconf(_SC_NPROCESSORS_CONF)), 0);
  return map;
}

void sleep_until_mono(std::int64_t t_ns) {
  timespec ts{static_cast<time_t>(t_ns / 1'000'000'000), static_cast<long>(t_ns % 1'000'000'000)};
  while (::clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
  }
}

// ---- one tree ---------------------------------------------------------------

// A FakeProc tree in a temp dir, removed on destruction.
struct FakeTree {
  fs::path dir;
  std::optional<sm::FakeProc> proc;
  explicit FakeTree(int pus) {
    std::string tmpl = (fs::temp_directory_path() / "sampler_overhead.XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir = tmpl;
    sm::FakeProcOptions o;
    o.pus = pus;
    o.nodes = pus >= kFakeNodes ? kFakeNodes : 1;
    o.domains = 3;
    o.schedstat_version = 16;
    proc.emplace(dir, o);
    for (int i = 1; i <= kFakeTasks; ++i) proc->add_task(kFakePid, kFakePid + i);
  }
  ~FakeTree() {
    proc.reset();
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  FakeTree(const FakeTree&) = delete;
  FakeTree& operator=(const FakeTree&) = delete;

  std::vector<procfs::TaskId> tasks() const {
    std::vector<procfs::TaskId> t;
    for (int i = 1; i <= kFakeTasks; ++i) t.push_back({kFakePid, kFakePid + i});
    return t;
  }
  // One second of a half-busy machine whose workload threads wait 20 %.
  void step() {
    sm::FakeStep s;
    s.procs_running = 4;
    proc->step(s);
    for (int i = 1; i <= kFakeTasks; ++i) {
      proc->step_task(kFakePid + i, 800'000'000, 200'000'000, 50);
    }
  }
};

struct Tree {
  std::string name;
  int pus = 0;
  sm::SamplerOptions options;  // hz filled per run
  std::vector<procfs::TaskId> tasks;
  std::unique_ptr<FakeTree> fake;
};

std::unique_ptr<Tree> make_tree(const std::string& name, int fake_pus) {
  auto t = std::make_unique<Tree>();
  t->name = name;
  if (name == "real") {
    t->options.root = procfs::Root::live();
    t->options.cpus = allowed_pus();
    t->options.pu_to_node = real_pu_to_node();
    t->tasks = {{::getpid(), ::gettid()}};
    t->pus = static_cast<int>(t->options.cpus.size());
  } else {
    t->fake = std::make_unique<FakeTree>(fake_pus);
    t->fake->step();  // counters off zero before the first snapshot
    t->options.root = procfs::Root::under(t->fake->dir);
    t->options.pu_to_node = t->fake->proc->pu_to_node();
    for (int c = 0; c < fake_pus; ++c) t->options.cpus.push_back(c);
    t->tasks = t->fake->tasks();
    t->pus = fake_pus;
  }
  return t;
}

struct Run {
  std::string tree;
  int pus = 0;
  double hz = 0;
  double wall_s = 0;
  std::uint64_t samples = 0;
  double expected_samples = 0;
  std::int64_t thread_cpu_ns = 0;                             // the figure
  std::pair<long long, long long> thread_stat_ticks{-1, -1};  // utime, stime
  std::int64_t process_cpu_ns = 0;
  Mem before, after;
  double box_busy_pct = 0;  // whole box, all PUs, during the run (other load)
  double cpu_pct = 0;       // thread_cpu / wall * 100 (of one CPU)
  double us_per_sample = 0;
  std::optional<double> target_pct;  // real tree at 1 and 10 Hz
  bool meets = true;
};

Run run_one(Tree& tree, double hz, double seconds) {
  Run r;
  r.tree = tree.name;
  r.pus = tree.pus;
  r.hz = hz;

  std::atomic<std::uint64_t> count{0};
  sm::SamplerOptions o = tree.options;
  o.hz = hz;
  r.before = self_mem();
  sm::Sampler sampler(
      o, [&count](const sm::DerivedSample&) { count.fetch_add(1, std::memory_order_relaxed); });
  sampler.set_tasks(tree.tasks);

  const std::set<pid_t> tids_before = own_tids();
  const auto box0 = box_jiffies();
  const std::int64_t proc0 = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
  const std::int64_t wall0 = clock_ns(CLOCK_MONOTONIC);
  sampler.start();
  pid_t tid = 0;
  for (pid_t t : own_tids()) {
    if (!tids_before.count(t)) {
      if (tid != 0) throw std::runtime_error("more than one new thread across start()");
      tid = t;
    }
  }
  if (tid == 0) throw std::runtime_error("no sampler thread found in /proc/self/task");

  const std::int64_t end = wall0 + static_cast<std::int64_t>(seconds * 1e9);
  if (tree.fake) {
    // Step the fake tree once a second, 50 ms past a whole second of
    // CLOCK_REALTIME: between the sampler's ticks at every rate it allows
    // (20 Hz ticks fall on multiples of 50 ms, so aim at +25 ms there).
    const std::int64_t phase = hz > 10 ? 25'000'000 : 50'000'000;
    for (;;) {
      const std::int64_t real = clock_ns(CLOCK_REALTIME);
      std::int64_t next_real = (real / 1'000'000'000 + 1) * 1'000'000'000 + phase;
      const std::int64_t at = clock_ns(CLOCK_MONOTONIC) + (next_real - real);
      if (at >= end) break;
      sleep_until_mono(at);
      tree.fake->step();
    }
  }
  sleep_until_mono(end);

  r.thread_cpu_ns = clock_ns(thread_cpu_clock(tid));
  r.thread_stat_ticks = thread_stat_ticks(tid);
  r.after = self_mem();
  const auto box1 = box_jiffies();
  r.samples = count.load();
  r.wall_s = static_cast<double>(clock_ns(CLOCK_MONOTONIC) - wall0) / 1e9;
  sampler.stop();
  r.process_cpu_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID) - proc0;
  if (r.thread_cpu_ns < 0) throw std::runtime_error("cannot read the sampler thread's CPU clock");

  if (box1.second > box0.second) {
    r.box_busy_pct = (box1.first - box0.first) / (box1.second - box0.second) * 100;
  }
  r.expected_samples = r.wall_s * hz;
  r.cpu_pct = static_cast<double>(r.thread_cpu_ns) / 1e9 / r.wall_s * 100;
  r.us_per_sample =
      r.samples ? static_cast<double>(r.thread_cpu_ns) / 1e3 / static_cast<double>(r.samples) : 0;
  if (tree.name == "real" && (hz == 1 || hz == 10)) {
    r.target_pct = hz == 1 ? 0.1 : 1.0;
    r.meets = r.cpu_pct <= *r.target_pct;
  }
  return r;
}

// Where a tick's time goes: take() and derive() on this thread, timed with
// its CPU clock, `n` times back to back (hot caches) and `cold` times 100 ms
// apart (as the sampler sees them at 10 Hz: caches and TLB cooled by the
// sleep).
struct Profile {
  std::string tree;
  int pus = 0;
  int n = 0, cold = 0;
  double take_us = 0, derive_us = 0;            // back to back
  double cold_take_us = 0, cold_derive_us = 0;  // 100 ms apart
  std::vector<std::string> sources;             // present sources
};

Profile profile_tree(Tree& tree, int n, int cold) {
  Profile p;
  p.tree = tree.name;
  p.pus = tree.pus;
  p.n = n;
  p.cold = cold;
  sm::SnapshotReader reader(tree.options.root);
  reader.watch_tasks(tree.tasks);
  const sm::DeriveContext ctx{tree.options.cpus, tree.options.pu_to_node};
  sm::Snapshot prev = reader.take();
  auto timed = [&](int count, std::int64_t gap_ns, double& take_us, double& derive_us) {
    std::int64_t take_ns = 0, derive_ns = 0;
    for (int i = 0; i < count; ++i) {
      if (gap_ns > 0) sleep_until_mono(clock_ns(CLOCK_MONOTONIC) + gap_ns);
      const std::int64_t t0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
      sm::Snapshot cur = reader.take();
      const std::int64_t t1 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
      sm::DerivedSample s = sm::derive(prev, cur, ctx);
      const std::int64_t t2 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
      take_ns += t1 - t0;
      derive_ns += t2 - t1;
      prev = std::move(cur);
      (void)s;
    }
    if (count > 0) {
      take_us = static_cast<double>(take_ns) / 1e3 / count;
      derive_us = static_cast<double>(derive_ns) / 1e3 / count;
    }
  };
  timed(n, 0, p.take_us, p.derive_us);
  timed(cold, 100'000'000, p.cold_take_us, p.cold_derive_us);
  for (const auto& s : reader.sources()) {
    if (s.present) {
      p.sources.push_back(s.version ? fmt::format("{} v{}", s.path, s.version) : s.path);
    }
  }
  return p;
}

// The sampler's wait without its work: a thread that waits on a condition
// variable until each 100 ms boundary of CLOCK_REALTIME, for `ticks` ticks.
// Returns its CPU time per tick (us).
double empty_tick_us(int ticks) {
  std::mutex mu;
  std::condition_variable cv;
  std::int64_t cpu_ns = 0;
  std::thread t([&] {
    constexpr std::int64_t kPeriod = 100'000'000;
    for (int i = 0; i < ticks; ++i) {
      const std::int64_t now = clock_ns(CLOCK_REALTIME);
      const auto deadline = std::chrono::system_clock::time_point(
          std::chrono::duration_cast<std::chrono::system_clock::duration>(
              std::chrono::nanoseconds((now / kPeriod + 1) * kPeriod)));
      std::unique_lock lock(mu);
      cv.wait_until(lock, deadline, [&] { return std::chrono::system_clock::now() >= deadline; });
    }
    cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
  });
  t.join();
  return static_cast<double>(cpu_ns) / 1e3 / ticks;
}

// ---- output -----------------------------------------------------------------

constexpr const char* kMeasure =
    "sampler thread CPU clock (TID found by diffing /proc/self/task across start(); "
    "clock_gettime on its per-thread CPU clock, ns)";

void print_table(const Args& a, const std::vector<Run>& runs, const std::vector<Profile>& profiles,
                 double empty_tick) {
  fmt::print("sampler_overhead: {:g} s per run; CPU = {}\n", a.seconds, kMeasure);
  fmt::print(
      "{:<8} {:>4} {:>5} {:>7} {:>12} {:>9} {:>8} {:>10} {:>10} {:>8} {:>8} {:>8} {:>7}  {}\n",
      "tree", "PUs", "Hz", "wall s", "samples", "CPU ms", "CPU %", "us/sample", "usr/sys ms",
      "proc ms", "RSS +kB", "HWM +kB", "box %", "target");
  const long tick = ::sysconf(_SC_CLK_TCK);
  for (const Run& r : runs) {
    const std::string target =
        r.target_pct ? fmt::format("<= {:g} % {}", *r.target_pct, r.meets ? "MEETS" : "MISSES")
                     : std::string("(reported)");
    fmt::print(
        "{:<8} {:>4} {:>5g} {:>7.1f} {:>5}/{:<6.0f} {:>9.2f} {:>8.4f} {:>10.1f} {:>10} {:>8.2f} "
        "{:>8} {:>8} {:>7.1f}  {}\n",
        r.tree, r.pus, r.hz, r.wall_s, r.samples, r.expected_samples,
        static_cast<double>(r.thread_cpu_ns) / 1e6, r.cpu_pct, r.us_per_sample,
        r.thread_stat_ticks.first < 0
            ? std::string("-")
            : fmt::format("{}/{}", r.thread_stat_ticks.first * 1000 / tick,
                          r.thread_stat_ticks.second * 1000 / tick),
        static_cast<double>(r.process_cpu_ns) / 1e6, r.after.rss_kb - r.before.rss_kb,
        r.after.hwm_kb - r.before.hwm_kb, r.box_busy_pct, target);
  }
  fmt::print(
      "  samples: delivered/expected (wall x Hz); usr/sys ms: /proc/self/task/TID/stat utime/stime "
      "(tick-sampled split of the thread's time);\n  proc ms: process CPU start()..stop() (adds "
      "the first snapshot on "
      "the caller and, fake tree, the 1/s file rewrites);\n  RSS/HWM: VmRSS/VmHWM after minus "
      "before (before Sampler construction; after = just before stop());\n  box %: the whole box's "
      "busy share over all PUs during the run, from /proc/stat (other load cools the sampler's "
      "caches).\n");
  for (const Run& r : runs) {
    fmt::print("  {} {:g} Hz: VmRSS {} -> {} kB, VmHWM {} -> {} kB\n", r.tree, r.hz,
               r.before.rss_kb, r.after.rss_kb, r.before.hwm_kb, r.after.hwm_kb);
  }
  if (!profiles.empty()) {
    fmt::print(
        "\nper tick on the main thread (thread CPU clock): take() and derive() n times back to "
        "back (hot), and {} times 100 ms apart (cold)\n",
        kColdProfile);
    fmt::print("{:<8} {:>4} {:>5} {:>9} {:>10} {:>10} {:>11}  {}\n", "tree", "PUs", "n", "take us",
               "derive us", "cold take", "cold derive", "sources");
    for (const Profile& p : profiles) {
      std::string src;
      for (const auto& s : p.sources) src += (src.empty() ? "" : ", ") + s;
      fmt::print("{:<8} {:>4} {:>5} {:>9.1f} {:>10.1f} {:>10.1f} {:>11.1f}  {}\n", p.tree, p.pus,
                 p.n, p.take_us, p.derive_us, p.cold_take_us, p.cold_derive_us, src);
    }
  }
  if (empty_tick >= 0) {
    fmt::print(
        "empty tick (condition-variable wake at 10 Hz, no work; incl. thread start): "
        "{:.1f} us CPU per tick\n",
        empty_tick);
  }
  bool all = true;
  for (const Run& r : runs) all = all && r.meets;
  fmt::print("\nreal-machine targets: {}\n", all ? "all met" : "MISSED (see table)");
}

void print_json(const Args& a, const std::vector<Run>& runs, const std::vector<Profile>& profiles,
                double empty_tick) {
  nlohmann::json j;
  j["seconds"] = a.seconds;
  j["cpu_measure"] = kMeasure;
  j["clk_tck"] = ::sysconf(_SC_CLK_TCK);
  j["runs"] = nlohmann::json::array();
  for (const Run& r : runs) {
    nlohmann::json x{{"tree", r.tree},
                     {"pus", r.pus},
                     {"hz", r.hz},
                     {"wall_s", r.wall_s},
                     {"samples", r.samples},
                     {"expected_samples", r.expected_samples},
                     {"thread_cpu_ns", r.thread_cpu_ns},
                     {"thread_utime_ticks", r.thread_stat_ticks.first},
                     {"thread_stime_ticks", r.thread_stat_ticks.second},
                     {"process_cpu_ns", r.process_cpu_ns},
                     {"cpu_pct", r.cpu_pct},
                     {"us_per_sample", r.us_per_sample},
                     {"box_busy_pct", r.box_busy_pct},
                     {"vm_rss_kb_before", r.before.rss_kb},
                     {"vm_rss_kb_after", r.after.rss_kb},
                     {"vm_hwm_kb_before", r.before.hwm_kb},
                     {"vm_hwm_kb_after", r.after.hwm_kb}};
    if (r.target_pct) {
      x["target_pct"] = *r.target_pct;
      x["meets_target"] = r.meets;
    }
    j["runs"].push_back(std::move(x));
  }
  j["profile"] = nlohmann::json::array();
  for (const Profile& p : profiles) {
    j["profile"].push_back({{"tree", p.tree},
                            {"pus", p.pus},
                            {"n", p.n},
                            {"take_us", p.take_us},
                            {"derive_us", p.derive_us},
                            {"cold_n", p.cold},
                            {"cold_take_us", p.cold_take_us},
                            {"cold_derive_us", p.cold_derive_us},
                            {"sources", p.sources}});
  }
  if (empty_tick >= 0) j["empty_tick_us"] = empty_tick;
  std::cout << j.dump(2) << '\n';
}

}  // namespace

int main(int argc, char** argv) {
  const Args a = parse_args(argc, argv);
  std::vector<Run> runs;
  std::vector<Profile> profiles;
  double empty_tick = -1;
  try {
    for (const std::string& name : a.trees) {
      auto tree = make_tree(name, a.pus);
      for (double hz : a.hz) {
        if (!a.json) {
          fmt::print(stderr, "running {} ({} PUs) at {:g} Hz for {:g} s\n", name, tree->pus, hz,
                     a.seconds);
        }
        runs.push_back(run_one(*tree, hz, a.seconds));
      }
      if (a.profile > 0) profiles.push_back(profile_tree(*tree, a.profile, kColdProfile));
    }
    if (a.profile > 0) empty_tick = empty_tick_us(30);
  } catch (const std::exception& e) {
    fmt::print(stderr, "sampler_overhead: {}\n", e.what());
    return 1;
  }
  if (a.json) {
    print_json(a, runs, profiles, empty_tick);
  } else {
    print_table(a, runs, profiles, empty_tick);
  }
  bool all = true;
  for (const Run& r : runs) all = all && r.meets;
  return all ? 0 : 3;
}
