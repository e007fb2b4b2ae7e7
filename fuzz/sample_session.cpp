#include "fuzz/sample_session.h"

#include "common/envelope_codec.h"

namespace schedrig::fuzz {
namespace {

namespace v1 = schedrig::v1;

void fill_hello(v1::Hello& h, const std::string& agent_id) {
  h.set_hostname(agent_id + ".lab");
  h.set_kernel_release("6.19.0-rc3");
  h.set_agent_version("0.1.0");
  h.set_allowed_pus(4);
}

void fill_topology(v1::Topology& t) {
  t.set_packages(1);
  t.set_cores(4);
  t.set_pus(4);
  t.set_online_cpus("0-3");
  t.set_allowed_cpus("0-3");
  t.add_package_cpus("0-3");
  for (const char* c : {"0", "1", "2", "3"}) t.add_core_cpus(c);
  v1::NumaNode* n = t.add_numa_nodes();
  n->set_os_index(0);
  n->set_cpus("0-3");
  v1::Llc* llc = t.add_llcs();
  llc->set_cpus("0-3");
  llc->set_level(3);
}

void fill_result(v1::IterationResult& r, const std::string& run_id) {
  r.set_run_id(run_id);
  r.set_case_name("fork");
  r.set_variant("baseline");
  r.set_iteration(1);
  r.set_position(1);
  r.set_status(v1::STATUS_OK);
  r.set_started_at_ns(1'700'000'001'000'000'000);
  r.set_finished_at_ns(1'700'000'002'000'000'000);
  r.set_cpus("0-3");
  v1::Metric* m = r.add_metrics();
  m->set_name("forks_per_s");
  m->set_value(12345.5);
  m->set_unit("1/s");
  r.mutable_knobs()->insert({std::string("kernel.sched_autogroup_enabled"), std::string("1")});
}

void fill_sample(v1::Sample& s, const std::string& run_id) {
  s.set_run_id(run_id);
  s.set_case_name("fork");
  s.set_variant("baseline");
  s.set_interval_s(0.1);
  s.set_ops_so_far(1234);
  s.set_ctxt_per_s(5000);
  s.set_psi_some_pct(1.5);
}

}  // namespace

std::vector<v1::Envelope> sample_session(const std::string& agent_id,
                                         const std::string& instance_id,
                                         const std::string& run_id) {
  std::vector<v1::Envelope> out(6);
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i].set_protocol_version(kProtocolVersion);
    out[i].set_agent_id(agent_id);
    out[i].set_boot_id("7d1c6a2e-0000-4000-8000-000000000001");
    out[i].set_instance_id(instance_id);
    out[i].set_seq(i + 1);
    out[i].set_sent_at_ns(1'700'000'000'000'000'000 + static_cast<long long>(i) * 1'000'000);
  }
  fill_hello(*out[0].mutable_hello(), agent_id);
  fill_topology(*out[1].mutable_topology());
  out[2].mutable_run_started()->set_run_id(run_id);
  out[2].mutable_run_started()->set_planned_iterations(1);
  fill_sample(*out[3].mutable_sample(), run_id);
  fill_result(*out[4].mutable_iteration_result(), run_id);
  v1::RunFinished* f = out[5].mutable_run_finished();
  f->set_run_id(run_id);
  f->set_status(v1::STATUS_OK);
  f->set_completed_iterations(1);
  return out;
}

}  // namespace schedrig::fuzz
