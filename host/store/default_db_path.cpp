#include "host/store/default_db_path.h"

#include <filesystem>

#include "common/state_dir.h"

namespace schedrig::store {

std::string default_db_path() {
  return (std::filesystem::path(default_state_dir()) / "schedrig.db").string();
}

std::string default_tokens_path() {
  return (std::filesystem::path(default_state_dir()) / "tokens").string();
}

}  // namespace schedrig::store
