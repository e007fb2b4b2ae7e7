#include "host/store/agent_queries.h"

#include "schedrig/v1/topology.pb.h"

namespace schedrig::store {
namespace {

// Counts from a serialized schedrig.v1.Topology; false when it does not decode.
bool summarize_topology(const std::string& bytes, TopologySummary& out) {
  v1::Topology t;
  if (bytes.empty() || !t.ParseFromString(bytes)) return false;
  out.packages = t.packages();
  out.numa_nodes = static_cast<unsigned>(t.numa_nodes_size());
  out.llcs = static_cast<unsigned>(t.llcs_size());
  out.cores = t.cores();
  out.pus = t.pus();
  out.smt = t.smt();
  out.online_cpus = t.online_cpus();
  out.offline_pus = t.offline_pus();
  return true;
}

}  // namespace

std::vector<AgentRecord> load_agents(sqlite::Db& db) {
  sqlite::Statement st(db, R"sql(
      SELECT a.agent_id, a.hostname, a.last_seen_ns,
             (SELECT count(*) FROM runs r WHERE r.agent_id = a.agent_id),
             i.instance_id, i.boot_id, i.kernel_release, i.agent_version, i.allowed_pus,
             i.topology
      FROM agents a
      LEFT JOIN instances i ON i.rowid = (SELECT max(rowid) FROM instances
                                          WHERE agent_id = a.agent_id)
      ORDER BY a.agent_id)sql");
  std::vector<AgentRecord> agents;
  while (st.step()) {
    AgentRecord a;
    a.agent_id = st.column_text(0);
    a.hostname = st.column_text(1);
    a.last_seen_ns = st.column_int(2);
    a.runs = static_cast<unsigned>(st.column_int(3));
    a.instance_id = st.column_text(4);
    a.boot_id = st.column_text(5);
    a.kernel_release = st.column_text(6);
    a.agent_version = st.column_text(7);
    a.allowed_pus = static_cast<unsigned>(st.column_int(8));
    a.has_topology = summarize_topology(st.column_blob(9), a.topology);
    agents.push_back(std::move(a));
  }
  return agents;
}

}  // namespace schedrig::store
