#include "host/nightly/night_state.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "common/cli_error.h"
#include "host/nightly/night_files.h"

namespace schedrig::nightly {
namespace {

using nlohmann::json;

json slot_json(const SlotRecord& r) {
  return {{"index", r.slot.index},   {"kernel", r.slot.kernel}, {"boot", r.slot.boot},
          {"reboot", r.slot.reboot}, {"state", r.state},        {"reason", r.reason},
          {"boot_id", r.boot_id},    {"release", r.release},    {"runs", r.runs}};
}

unsigned small_number(const json& j, const char* key) {
  const json& v = j.at(key);
  if (!v.is_number_unsigned() || v.get<std::uint64_t>() > 100000)
    throw std::invalid_argument(fmt::format("'{}' is not a small whole number", key));
  return v.get<unsigned>();
}

SlotRecord slot_of(const json& j) {
  SlotRecord r;
  r.slot.index = small_number(j, "index");
  r.slot.kernel = j.at("kernel").get<std::string>();
  r.slot.boot = small_number(j, "boot");
  r.slot.reboot = j.at("reboot").get<bool>();
  r.state = j.at("state").get<std::string>();
  r.reason = j.at("reason").get<std::string>();
  r.boot_id = j.at("boot_id").get<std::string>();
  r.release = j.at("release").get<std::string>();
  r.runs = j.at("runs").get<std::map<std::string, std::string>>();
  static const std::set<std::string> kStates{"pending", "booting", "running", "done", "failed"};
  if (!kStates.count(r.state)) throw std::invalid_argument("an unknown slot state");
  return r;
}

}  // namespace

NightState::NightState(std::string path, std::string night, std::string lab,
                       const std::vector<std::string>& agents, const std::vector<NightSlot>& slots)
    : path_(std::move(path)), night_(std::move(night)), lab_(std::move(lab)) {
  for (const std::string& a : agents) {
    auto& rows = agents_[a];
    for (const NightSlot& s : slots) {
      SlotRecord r;
      r.slot = s;
      rows.push_back(std::move(r));
    }
  }
  std::lock_guard lock(mu_);
  save_locked();
}

std::unique_ptr<NightState> NightState::load(const std::string& path) {
  const json j = json::parse(read_bounded_file(path, kMaxNightStateBytes), nullptr, false);
  std::unique_ptr<NightState> s(new NightState());
  s->path_ = path;
  try {
    s->night_ = j.at("night").get<std::string>();
    s->lab_ = j.at("lab").get<std::string>();
    for (const auto& [agent, rows] : j.at("agents").items()) {
      for (const json& r : rows) s->agents_[agent].push_back(slot_of(r));
    }
  } catch (const std::exception& e) {  // json::exception, a bad value
    throw CliError(ErrorKind::kUsage, fmt::format("{}: not a night's state: {}", path, e.what()));
  }
  return s;
}

std::vector<std::string> NightState::agents() const {
  std::lock_guard lock(mu_);
  std::vector<std::string> out;
  for (const auto& [a, _] : agents_) out.push_back(a);
  return out;
}

std::vector<SlotRecord> NightState::slots(const std::string& agent) const {
  std::lock_guard lock(mu_);
  auto it = agents_.find(agent);
  return it == agents_.end() ? std::vector<SlotRecord>{} : it->second;
}

void NightState::update(const std::string& agent, const SlotRecord& r) {
  std::lock_guard lock(mu_);
  for (SlotRecord& row : agents_[agent]) {
    if (row.slot.index == r.slot.index) row = r;
  }
  save_locked();
}

json NightState::to_json() const {
  std::lock_guard lock(mu_);
  return json_locked();
}

json NightState::json_locked() const {
  json agents = json::object();
  for (const auto& [a, rows] : agents_) {
    json js = json::array();
    for (const SlotRecord& r : rows) js.push_back(slot_json(r));
    agents[a] = js;
  }
  return {{"night", night_}, {"lab", lab_}, {"agents", agents}};
}

void NightState::save_locked() const { replace_file(path_, json_locked().dump(2) + "\n"); }

}  // namespace schedrig::nightly
