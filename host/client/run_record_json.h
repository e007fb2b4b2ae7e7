// `schedrig results --json` read back (docs/architecture.md "Results model"):
// what `GET /api/v1/runs/ID` and the run events carry, turned into the
// store's records so `results`, `compare` and `watch --server` compute and
// print exactly as they do on a local store.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/store/records.h"

namespace schedrig::client {

// {"runs":[...]} (report::results_json's shape) -> the runs, in order.
// Keys results_json writes are required; a number where the JSON has null
// (a NaN metric value) reads as NaN. Fields the JSON does not carry
// (instance_id, planned_iterations, iteration ids and positions) stay
// default, except that positions are the iterations' order. An optional
// "fingerprint" object of strings is read when present. Throws
// schedrig::Error(kFailed) "unexpected results JSON: ..." naming the key.
std::vector<store::RunRecord> runs_from_results_json(const nlohmann::json& j);

// One element of a run's "iterations" (report::iteration_json's shape).
store::IterationRecord iteration_from_json(const nlohmann::json& j);

// A run event's sample body {position, case, variant, iteration, t_ns,
// values:{FIELD: number}} plus, when present, interval_s, ops_so_far,
// starved, starved_reason (report::sample_json's names).
store::SampleRecord sample_from_json(const nlohmann::json& j, const std::string& run_id);

// The planned iterations of a plan object as results_json writes it
// (cases x variants x iterations; variants default to one).
unsigned planned_iterations(const nlohmann::json& plan);

}  // namespace schedrig::client
