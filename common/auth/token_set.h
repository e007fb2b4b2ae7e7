// TEMPORARY STUB (P5 control) until P1 common/auth lands: only Principal.
#pragma once

#include <string>

namespace schedrig::auth {

enum class Role { kAgent, kOperator };

struct Principal {
  Role role = Role::kAgent;
  std::string name;
};

}  // namespace schedrig::auth
