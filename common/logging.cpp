#include "common/logging.h"

#include <stdexcept>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace schedrig {

void init_logging(const std::string& name, const std::string& level) {
  auto lvl = spdlog::level::from_str(level);
  if (lvl == spdlog::level::off && level != "off") {
    throw std::invalid_argument("log level '" + level +
                                "' is not one of trace, debug, info, warn, error, off");
  }
  auto logger = spdlog::stderr_color_mt(name);
  logger->set_pattern("[%H:%M:%S.%e] [%n] [%^%l%$] %v");
  logger->set_level(lvl);
  spdlog::set_default_logger(logger);
}

}  // namespace schedrig
