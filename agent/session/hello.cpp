#include "agent/session/hello.h"

#include "agent/session/agent_state.h"
#include "common/ids.h"
#include "common/printable.h"

namespace schedrig::agent {

namespace {

// `text` as a protobuf string may carry it: escaped when it is not UTF-8.
std::string utf8(const std::string& text) {
  return well_formed_utf8(text) ? text : printable(text);
}

}  // namespace

schedrig::v1::Envelope make_hello(const topology::Topology& topo,
                                  const knobs::KnobController& knob_control) {
  schedrig::v1::Envelope env;
  auto* h = env.mutable_hello();
  h->set_hostname(utf8(host_name()));
  h->set_kernel_release(utf8(kernel_release(knob_control.root())));
  h->set_agent_version(SCHEDRIG_VERSION);
  h->set_allowed_pus(static_cast<std::uint32_t>(topo.allowed_cpus.size()));
  add_knob_capabilities(knob_control, *h);
  add_source_capabilities(knob_control, *h);
  return env;
}

schedrig::v1::Envelope make_topology(const topology::Topology& topo) {
  schedrig::v1::Envelope env;
  topology::topology_to_proto(topo, env.mutable_topology());
  return env;
}

}  // namespace schedrig::agent
