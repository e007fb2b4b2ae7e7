#include "host/store/default_db_path.h"

#include <filesystem>

#include "common/state_dir.h"

namespace schedrig::store {

std::string default_db_path() {
  return (std::filesystem::path(default_state_dir()) / "schedrig.db").string();
}

}  // namespace schedrig::store
