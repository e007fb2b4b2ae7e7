#include "host/nightly/night_plan_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/printable.h"

namespace schedrig::nightly {
namespace {

std::string kernels_text(const LabFile& lab) {
  return lab.kernels.empty() ? "current (no reboot)"
                             : fmt::format("{}", fmt::join(lab.kernels, ", "));
}

std::string baseline_text(const LabFile& lab) {
  return lab.baseline_kernel.empty() ? "last_good" : lab.baseline_kernel;
}

std::string then_text(const LabFile& lab) {
  std::vector<std::string> then;
  for (const LabPlan& p : lab.plans) then.push_back(p.name);
  if (lab.selftest) then.push_back("selftest");
  return fmt::format("{}", fmt::join(then, ", "));
}

std::vector<std::string> plan_paths(const LabFile& lab) {
  std::vector<std::string> out;
  for (const LabPlan& p : lab.plans) out.push_back(p.path);
  return out;
}

std::string how_text(const NightSlot& s, const NightAgent& a) {
  if (!s.reboot) return "no reboot";
  auto it = a.kernels.find(s.kernel);
  if (it == a.kernels.end()) return "?";
  return printable(fmt::format("{} -> {}", it->second.hook, it->second.release));
}

}  // namespace

std::string schedule_text(const LabFile& lab, const std::vector<NightAgent>& agents) {
  const std::vector<NightSlot> slots = night_slots(lab);
  std::string out = fmt::format(
      "night of {}: kernels {}, baseline {}, {} boots each; each boot runs {}\n", lab.path,
      kernels_text(lab), baseline_text(lab), lab.boots_per_kernel, then_text(lab));
  for (const std::string& n : lab.notes) out += "note: " + n + "\n";
  for (const NightAgent& a : agents) {
    out += "\n" +
           printable(fmt::format("agent {} ({}, {}, now {})", a.agent_id, a.hostname, a.arch,
                                 a.kernel_release)) +
           "\n";
    std::size_t w = 6;
    for (const NightSlot& s : slots) w = std::max(w, s.kernel.size());
    out += fmt::format("  {:<4}  {:<{}}  {:<5}  {}\n", "SLOT", "KERNEL", w, "BOOT", "HOW");
    for (const NightSlot& s : slots) {
      out += fmt::format("  {:<4}  {:<{}}  {:<5}  {}\n", s.index, s.kernel, w,
                         fmt::format("{}/{}", s.boot, lab.boots_per_kernel), how_text(s, a));
    }
  }
  return out;
}

nlohmann::json schedule_json(const LabFile& lab, const std::vector<NightAgent>& agents) {
  const std::vector<NightSlot> slots = night_slots(lab);
  nlohmann::json rows = nlohmann::json::array();
  for (const NightAgent& a : agents) {
    nlohmann::json js = nlohmann::json::array();
    for (const NightSlot& s : slots) {
      auto it = a.kernels.find(s.kernel);
      const bool known = s.reboot && it != a.kernels.end();
      js.push_back({{"index", s.index},
                    {"kernel", s.kernel},
                    {"boot", s.boot},
                    {"reboot", s.reboot},
                    {"hook", known ? it->second.hook : ""},
                    {"release", known ? it->second.release : a.kernel_release}});
    }
    rows.push_back({{"agent_id", a.agent_id},
                    {"hostname", a.hostname},
                    {"arch", a.arch},
                    {"kernel_release", a.kernel_release},
                    {"slots", js}});
  }
  return {{"lab", lab.path},
          {"kernels", lab.kernels.empty() ? std::vector<std::string>{"current"} : lab.kernels},
          {"baseline", baseline_text(lab)},
          {"boots_per_kernel", lab.boots_per_kernel},
          {"plans", plan_paths(lab)},
          {"selftest", lab.selftest},
          {"notes", lab.notes},
          {"agents", rows}};
}

}  // namespace schedrig::nightly
