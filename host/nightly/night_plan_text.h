// The night's schedule in words and JSON (`schedrig nightly --dry-run`,
// docs/nightly.md "The schedule").
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/nightly/lab_file.h"
#include "host/nightly/night_agents.h"
#include "host/nightly/night_schedule.h"

namespace schedrig::nightly {

// A header (kernels, baseline, boots, plans, selftest, notes), then per
// agent a table of its slots: SLOT KERNEL BOOT HOW (hook -> release, or "no
// reboot") THEN (the plans and the selftest). Remote strings escaped.
std::string schedule_text(const LabFile& lab, const std::vector<NightAgent>& agents);

// {lab, kernels, baseline ("last_good" when so), boots_per_kernel, plans,
// selftest, notes, agents: [{agent_id, hostname, arch, kernel_release,
// slots: [{index, kernel, boot, reboot, hook, release}]}]}.
nlohmann::json schedule_json(const LabFile& lab, const std::vector<NightAgent>& agents);

}  // namespace schedrig::nightly
