#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

#include "fuzz/fuzz_target.h"

namespace schedrig::fuzz {

void broken(const char* what) {
  std::fprintf(stderr, "fuzz: invariant broken: %s\n", what);
  std::abort();
}

void quiet_logs() {
  auto logger =
      std::make_shared<spdlog::logger>("fuzz", std::make_shared<spdlog::sinks::null_sink_mt>());
  logger->set_level(spdlog::level::trace);
  spdlog::set_default_logger(std::move(logger));
}

}  // namespace schedrig::fuzz
