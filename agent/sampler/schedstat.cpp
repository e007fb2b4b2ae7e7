#include "agent/sampler/schedstat.h"

#include <fmt/format.h>

#include "agent/sampler/text_scan.h"

namespace schedrig::sampler {
namespace {

// How one version lays out its lines (see schedstat.h).
struct Layout {
  unsigned version;
  std::size_t cpu_fields;                  // numbers after "cpuN"
  std::size_t cpu_skip;                    // leading numbers not kept (v14 yld_*_empty)
  bool domain_name;                        // "domainN <name> <mask>"
  std::size_t per_type;                    // numbers per idle type
  std::array<IdleType, kIdleTypes> order;  // idle type of each block, as printed
};

constexpr std::size_t kDomainTail = 12;  // alb, sbe, sbf, ttwu: 3 each

constexpr Layout kLayouts[] = {
    {14, 12, 3, false, 8, {kIdle, kBusy, kNewlyIdle}},
    {15, 9, 0, false, 8, {kIdle, kBusy, kNewlyIdle}},
    {16, 9, 0, false, 8, {kBusy, kIdle, kNewlyIdle}},
    {17, 9, 0, true, 11, {kBusy, kIdle, kNewlyIdle}},
};

const Layout* find_layout(unsigned version) {
  for (const auto& l : kLayouts) {
    if (l.version == version) return &l;
  }
  return nullptr;
}

std::uint64_t num(const std::vector<std::string_view>& f, std::size_t i, const char* what) {
  std::uint64_t v = 0;
  if (!parse_u64(f[i], v)) {
    throw SchedstatError(
        fmt::format("schedstat: {}: field {} is not a number: '{}'", what, i, std::string(f[i])));
  }
  return v;
}

int label_number(std::string_view label, std::size_t prefix) {
  std::uint64_t n = 0;
  if (!parse_u64(label.substr(prefix), n)) {
    throw SchedstatError(fmt::format("schedstat: bad label '{}'", std::string(label)));
  }
  return static_cast<int>(n);
}

CpuSchedstat parse_cpu(const std::vector<std::string_view>& f, const Layout& l) {
  if (f.size() != 1 + l.cpu_fields) {
    throw SchedstatError(fmt::format("schedstat version {}: {} has {} fields, expected {}",
                                     l.version, std::string(f[0]), f.size() - 1, l.cpu_fields));
  }
  const std::size_t b = 1 + l.cpu_skip;  // field 1 of the 9 common ones
  CpuSchedstat c;
  c.yld_count = num(f, b + 0, "cpu");
  c.sched_count = num(f, b + 2, "cpu");
  c.sched_goidle = num(f, b + 3, "cpu");
  c.ttwu_count = num(f, b + 4, "cpu");
  c.ttwu_local = num(f, b + 5, "cpu");
  c.run_time_ns = num(f, b + 6, "cpu");
  c.run_delay_ns = num(f, b + 7, "cpu");
  c.timeslices = num(f, b + 8, "cpu");
  return c;
}

LbStats parse_lb(const std::vector<std::string_view>& f, std::size_t b, const Layout& l) {
  LbStats s;
  std::size_t i = b;
  s.lb_count = num(f, i++, "domain");
  s.lb_balanced = num(f, i++, "domain");
  s.lb_failed = num(f, i++, "domain");
  if (l.per_type == 11) {
    s.imbalance_load = num(f, i++, "domain");
    s.imbalance_util = num(f, i++, "domain");
    s.imbalance_task = num(f, i++, "domain");
    s.imbalance_misfit = num(f, i++, "domain");
  } else {
    s.lb_imbalance = num(f, i++, "domain");
  }
  s.lb_gained = num(f, i++, "domain");
  s.lb_hot_gained = num(f, i++, "domain");
  s.lb_nobusyq = num(f, i++, "domain");
  s.lb_nobusyg = num(f, i++, "domain");
  return s;
}

// v17 prints the name when the kernel has one; count fields to know.
DomainStats parse_domain(const std::vector<std::string_view>& f, const Layout& l) {
  const std::size_t counters = kIdleTypes * l.per_type + kDomainTail;
  const bool named = l.domain_name && f.size() == 3 + counters;
  if (f.size() != (named ? 3 : 2) + counters) {
    throw SchedstatError(fmt::format("schedstat version {}: {} has {} fields, expected {}",
                                     l.version, std::string(f[0]), f.size() - 1,
                                     counters + (l.domain_name ? 2 : 1)));
  }
  DomainStats d;
  d.level = label_number(f[0], 6);
  if (named) d.name = std::string(f[1]);
  d.cpumask = std::string(f[named ? 2 : 1]);
  std::size_t b = named ? 3 : 2;
  for (int block = 0; block < kIdleTypes; ++block, b += l.per_type) {
    d.lb[l.order[block]] = parse_lb(f, b, l);
  }
  d.alb_count = num(f, b, "domain");
  d.alb_failed = num(f, b + 1, "domain");
  d.alb_pushed = num(f, b + 2, "domain");
  d.ttwu_wake_remote = num(f, b + 9, "domain");
  d.ttwu_move_affine = num(f, b + 10, "domain");
  d.ttwu_move_balance = num(f, b + 11, "domain");
  return d;
}

}  // namespace

bool schedstat_version_supported(unsigned version) { return find_layout(version) != nullptr; }

unsigned schedstat_version(std::string_view text) {
  const auto f = split_fields(text.substr(0, text.find('\n')));
  std::uint64_t v = 0;
  if (f.size() != 2 || f[0] != "version" || !parse_u64(f[1], v)) {
    throw SchedstatError("schedstat: first line is not 'version N'");
  }
  return static_cast<unsigned>(v);
}

Schedstat parse_schedstat(std::string_view text) {
  Schedstat out;
  out.version = schedstat_version(text);
  const Layout* l = find_layout(out.version);
  if (!l) throw SchedstatError(fmt::format("unknown schedstat version {}", out.version));
  CpuSchedstat* current = nullptr;
  for_each_line(text, [&](std::string_view line) {
    const auto f = split_fields(line);
    if (f.empty() || f[0] == "version") return;
    if (f[0] == "timestamp" && f.size() == 2) {
      out.timestamp = num(f, 1, "timestamp");
    } else if (f[0].starts_with("cpu")) {
      current = &(out.cpus[label_number(f[0], 3)] = parse_cpu(f, *l));
    } else if (f[0].starts_with("domain")) {
      if (!current) throw SchedstatError("schedstat: domain line before any cpu line");
      current->domains.push_back(parse_domain(f, *l));
    } else {
      throw SchedstatError(fmt::format("schedstat: unexpected line '{}'", std::string(line)));
    }
  });
  return out;
}

}  // namespace schedrig::sampler
