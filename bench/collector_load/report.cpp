#include "bench/collector_load/report.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "bench/collector_load/percentile.h"

namespace schedrig::bench {

namespace {

using nlohmann::json;

template <class Round, class Field>
double median_of(const std::vector<Round>& rounds, Field field) {
  std::vector<double> v;
  for (const auto& r : rounds) v.push_back(static_cast<double>(field(r)));
  return median(v);
}

// "tid 1234 (schedrig) 0.93" for the busiest `n` threads of serve.
std::string busiest_threads(const CpuUse& cpu, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < std::min(n, cpu.serve_threads.size()); ++i) {
    const ThreadCpu& t = cpu.serve_threads[i];
    out += fmt::format("{}{}:{:.2f}", out.empty() ? "" : " ", t.tid, t.cpu_s / cpu.wall_s);
  }
  return out;
}

json cpu_json(const CpuUse& cpu) {
  json threads = json::array();
  for (const auto& t : cpu.serve_threads) {
    threads.push_back({{"tid", t.tid}, {"name", t.name}, {"cores", t.cpu_s / cpu.wall_s}});
  }
  return {{"wall_s", cpu.wall_s},
          {"serve_cores", cpu.serve_cores},
          {"bench_cores", cpu.bench_cores},
          {"serve_threads", threads},
          {"load_1m", cpu.load_1m}};
}

json throughput_json(const ThroughputRound& r) {
  return {{"envelopes_per_s", r.envelopes_per_s},
          {"acked", r.acked},
          {"stored", r.stored},
          {"stored_equals_acked", r.stored == static_cast<std::int64_t>(r.acked)},
          {"cpu", cpu_json(r.cpu)}};
}

json latency_json(const LatencyRound& r) {
  return {{"sends", r.sends},   {"unacked", r.unacked}, {"p50_ms", r.p50_ms},
          {"p99_ms", r.p99_ms}, {"max_ms", r.max_ms},   {"cpu", cpu_json(r.cpu)}};
}

json scale_json(const ScaleRound& r) {
  return {{"agents", r.agents},
          {"connect_s", r.connect_s},
          {"serve_rss_kib_before", r.serve_before.rss},
          {"serve_rss_kib_after", r.serve_after.rss},
          {"serve_hwm_kib_after", r.serve_after.hwm},
          {"kib_per_agent", r.kib_per_agent},
          {"still_open", r.still_open},
          {"load_1m", r.load_1m}};
}

template <class Round, class ToJson>
json array_of(const std::vector<Round>& rounds, ToJson to_json) {
  json a = json::array();
  for (const auto& r : rounds) a.push_back(to_json(r));
  return a;
}

void print_throughput(std::ostream& out, const Options& o, const std::vector<ThroughputRound>& rs) {
  if (rs.empty()) return;
  fmt::print(out,
             "throughput  {} agents, window {}, {} s: median {:.0f} envelopes/s (goal >= 50000)\n",
             o.agents, o.window, o.seconds,
             median_of(rs, [](const auto& r) { return r.envelopes_per_s; }));
  for (const auto& r : rs) {
    out << "  ";
    print_progress(out, r);
  }
}

void print_latency(std::ostream& out, const Options& o, const std::vector<LatencyRound>& rs) {
  if (rs.empty()) return;
  fmt::print(
      out,
      "latency     {} agents at {} Hz, {} s: median p50 {:.2f} ms, p99 {:.2f} ms, max {:.2f} ms\n",
      o.agents, o.hz, o.seconds, median_of(rs, [](const auto& r) { return r.p50_ms; }),
      median_of(rs, [](const auto& r) { return r.p99_ms; }),
      median_of(rs, [](const auto& r) { return r.max_ms; }));
  for (const auto& r : rs) {
    out << "  ";
    print_progress(out, r);
  }
}

void print_scale(std::ostream& out, const std::vector<ScaleRound>& rs) {
  if (rs.empty()) return;
  fmt::print(
      out,
      "scale       {} idle agents: median serve RSS {:.1f} MiB -> {:.1f} MiB, {:.1f} KiB/agent\n",
      rs.front().agents, median_of(rs, [](const auto& r) { return r.serve_before.rss; }) / 1024,
      median_of(rs, [](const auto& r) { return r.serve_after.rss; }) / 1024,
      median_of(rs, [](const auto& r) { return r.kib_per_agent; }));
  for (const auto& r : rs) {
    out << "  ";
    print_progress(out, r);
  }
}

}  // namespace

void print_progress(std::ostream& out, const ThroughputRound& r) {
  fmt::print(out,
             "throughput {:.0f}/s; acked {} stored {}{}; serve {:.2f} cores (threads {}), bench "
             "{:.2f} cores; load {:.2f}\n",
             r.envelopes_per_s, r.acked, r.stored,
             r.stored == static_cast<std::int64_t>(r.acked) ? "" : " MISMATCH", r.cpu.serve_cores,
             busiest_threads(r.cpu, 4), r.cpu.bench_cores, r.cpu.load_1m);
}

void print_progress(std::ostream& out, const LatencyRound& r) {
  fmt::print(
      out,
      "latency p50 {:.2f} ms p99 {:.2f} ms max {:.2f} ms; {} sends, {} unacked; serve {:.2f} "
      "cores, bench {:.2f} cores; load {:.2f}\n",
      r.p50_ms, r.p99_ms, r.max_ms, r.sends, r.unacked, r.cpu.serve_cores, r.cpu.bench_cores,
      r.cpu.load_1m);
}

void print_progress(std::ostream& out, const ScaleRound& r) {
  fmt::print(out,
             "scale {} agents ({} open) in {:.1f} s; serve RSS {} KiB -> {} KiB (HWM {} KiB), "
             "{:.1f} KiB/agent; load {:.2f}\n",
             r.agents, r.still_open, r.connect_s, r.serve_before.rss, r.serve_after.rss,
             r.serve_after.hwm, r.kib_per_agent, r.load_1m);
}

void print_table(std::ostream& out, const Options& options, const Rounds& rounds) {
  fmt::print(out, "collector_load: {} round(s), load average {:.2f} before\n", options.repeats,
             rounds.load_before);
  print_throughput(out, options, rounds.throughput);
  print_latency(out, options, rounds.latency);
  print_scale(out, rounds.scale);
}

json rounds_json(const Options& o, const Rounds& rounds) {
  json j = {{"agents", o.agents},
            {"seconds", o.seconds},
            {"window", o.window},
            {"hz", o.hz},
            {"idle", o.idle},
            {"repeats", o.repeats},
            {"load_1m_before", rounds.load_before}};
  const auto& t = rounds.throughput;
  const auto& l = rounds.latency;
  const auto& s = rounds.scale;
  if (!t.empty()) {
    j["throughput"] = {
        {"median_envelopes_per_s", median_of(t, [](const auto& r) { return r.envelopes_per_s; })},
        {"rounds", array_of(t, throughput_json)}};
  }
  if (!l.empty()) {
    j["latency"] = {{"median_p50_ms", median_of(l, [](const auto& r) { return r.p50_ms; })},
                    {"median_p99_ms", median_of(l, [](const auto& r) { return r.p99_ms; })},
                    {"median_max_ms", median_of(l, [](const auto& r) { return r.max_ms; })},
                    {"rounds", array_of(l, latency_json)}};
  }
  if (!s.empty()) {
    j["scale"] = {
        {"median_kib_per_agent", median_of(s, [](const auto& r) { return r.kib_per_agent; })},
        {"median_serve_rss_kib_after",
         median_of(s, [](const auto& r) { return r.serve_after.rss; })},
        {"rounds", array_of(s, scale_json)}};
  }
  return j;
}

}  // namespace schedrig::bench
