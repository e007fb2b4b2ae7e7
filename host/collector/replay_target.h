// Whether an agent's upgrade asks for a replay session (docs/architecture.md
// "Wire protocol", replay connections): `/agent?replay=1`. Such a session
// carries an older instance's spooled envelopes: stored and acked, never
// live (no id claim, no on_hello, no run sent to it).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace schedrig::collector {

// True when the query of request target `target` ("/agent?replay=1&x=y")
// has the parameter replay=1; any other value or none is a live session.
bool replay_requested(std::string_view target);

// The value of an upgrade's X-Schedrig-Spool-Backlog header (decimal, at
// most 20 digits, fits 64 bits); nullopt for anything else or none ("").
std::optional<std::uint64_t> spool_backlog_of(std::string_view header);

}  // namespace schedrig::collector
