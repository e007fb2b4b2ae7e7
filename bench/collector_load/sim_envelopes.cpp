#include "bench/collector_load/sim_envelopes.h"

namespace schedrig::bench {

namespace v1 = schedrig::v1;

v1::Plan sim_plan() {
  v1::Plan plan;
  plan.set_name("collector-load");
  plan.set_iterations(1);
  plan.set_duration_ns(1'000'000'000);
  plan.set_sample_hz(10);
  v1::Case* c = plan.add_cases();
  c->set_name("fork-all");
  c->set_workload("fork");
  c->set_placement("all");
  plan.add_variants()->set_name("baseline");
  return plan;
}

v1::Envelope sim_hello(const std::string& agent_id) {
  v1::Envelope env;
  v1::Hello* h = env.mutable_hello();
  h->set_hostname(agent_id + ".sim");
  h->set_kernel_release("6.1.0-sim");
  h->set_agent_version("collector_load");
  h->set_allowed_pus(2);
  return env;
}

v1::Envelope sim_topology() {
  v1::Envelope env;
  v1::Topology* t = env.mutable_topology();
  t->set_packages(1);
  t->set_cores(2);
  t->set_pus(2);
  t->set_online_cpus("0-1");
  t->set_allowed_cpus("0-1");
  t->add_package_cpus("0-1");
  t->add_core_cpus("0");
  t->add_core_cpus("1");
  v1::NumaNode* node = t->add_numa_nodes();
  node->set_os_index(0);
  node->set_cpus("0-1");
  node->set_memory_bytes(4ULL << 30);
  return env;
}

v1::Envelope sim_run_started(const std::string& run_id) {
  v1::Envelope env;
  v1::RunStarted* r = env.mutable_run_started();
  r->set_run_id(run_id);
  *r->mutable_plan() = sim_plan();
  r->set_planned_iterations(1);
  r->mutable_fingerprint()->set_kernel_release("6.1.0-sim");
  return env;
}

v1::Envelope sim_run_finished(const std::string& run_id) {
  v1::Envelope env;
  v1::RunFinished* r = env.mutable_run_finished();
  r->set_run_id(run_id);
  r->set_status(v1::STATUS_OK);
  r->set_completed_iterations(1);
  return env;
}

v1::Envelope sim_sample(const std::string& run_id, std::uint64_t n) {
  v1::Envelope env;
  v1::Sample* s = env.mutable_sample();
  s->set_run_id(run_id);
  s->set_case_name("fork-all");
  s->set_variant("baseline");
  s->set_iteration(0);
  s->set_position(0);
  s->set_t_ns(static_cast<std::int64_t>(n) * 100'000'000);
  s->set_interval_s(0.1);
  s->set_idle_pct(12.5);
  s->set_ctxt_per_s(123456.0);
  s->set_runnable(3);
  s->set_load1(1.5);
  return env;
}

v1::Envelope sim_load_envelope(const std::string& run_id, std::uint64_t n) {
  if (n % 4 != 3) return sim_sample(run_id, n);
  v1::Envelope env;
  const auto i = static_cast<std::uint32_t>(n);
  v1::IterationResult* it = env.mutable_iteration_result();
  it->set_run_id(run_id);
  it->set_case_name("fork-all");
  it->set_variant("baseline");
  it->set_iteration(i);
  it->set_position(i);
  it->set_status(v1::STATUS_OK);
  for (const char* name : {"bogo_ops_per_s", "stale_pick_rate"}) {
    v1::Metric* m = it->add_metrics();
    m->set_name(name);
    m->set_value(1000.0 + i);
    m->set_unit("ops/s");
    m->set_direction(v1::HIGHER_IS_BETTER);
  }
  it->set_cpus("0-1");
  return env;
}

}  // namespace schedrig::bench
