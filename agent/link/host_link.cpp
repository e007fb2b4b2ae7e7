#include "agent/link/host_link.h"

#include "agent/link/link_state.h"
#include "agent/link/ws_connection.h"
#include "agent/link/ws_url.h"

namespace schedrig::link {

using v1::Envelope;

// The state callers share, and the connection once connect() made one.
class HostLink::Impl {
 public:
  explicit Impl(AgentIdentity id) : state(std::move(id)) {}
  ~Impl() { close(); }

  void close() {
    if (connection) connection->close();
    state.mark_closed("closed by the agent", LinkEnd::kClean);
  }

  LinkState state;
  std::unique_ptr<Connection> connection;
};

HostLink::HostLink(AgentIdentity identity) : impl_(std::make_unique<Impl>(std::move(identity))) {}
HostLink::~HostLink() = default;

void HostLink::connect(const std::string& url, std::chrono::milliseconds timeout,
                       const LinkSecurity& security, std::chrono::milliseconds silence_limit) {
  impl_->state.set_url(url);
  WsUrl u;
  try {
    u = parse_ws_url(url);
  } catch (const std::invalid_argument& e) {
    throw LinkError(ErrorKind::kUsage, e.what());
  }
  impl_->connection = open_connection(impl_->state, u, security, timeout, silence_limit);
}

std::uint64_t HostLink::send(Envelope env) {
  return impl_->state.stamp(std::move(env), [this](std::string bytes) {
    if (impl_->connection) impl_->connection->write(std::move(bytes));
  });
}

std::optional<Envelope> HostLink::next_command(std::chrono::milliseconds timeout) {
  return impl_->state.next_command(timeout);
}
bool HostLink::wait_acked(std::uint64_t seq, std::chrono::milliseconds timeout) {
  return impl_->state.wait_acked(seq, timeout);
}
std::uint64_t HostLink::acked_seq() const { return impl_->state.acked_seq(); }
bool HostLink::closed() const { return impl_->state.closed(); }
std::string HostLink::close_reason() const { return impl_->state.close_reason(); }
bool HostLink::closed_cleanly() const { return impl_->state.closed_cleanly(); }
bool HostLink::refused() const { return impl_->state.refused(); }
std::atomic<bool>& HostLink::abort_flag() { return impl_->state.abort_flag(); }
void HostLink::close() { impl_->close(); }

}  // namespace schedrig::link
