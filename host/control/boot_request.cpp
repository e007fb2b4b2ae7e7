#include "host/control/boot_request.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/kernel_name.h"
#include "common/printable.h"
#include "host/control/api_error.h"

namespace schedrig::control {

BootRequest parse_boot_request(const std::string& body) {
  const nlohmann::json j = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) throw ApiError(400, "body: want a JSON object");
  BootRequest out;
  for (const auto& [key, value] : j.items()) {
    if (key != "kernel" && key != "reason")
      throw ApiError(400,
                     fmt::format("body: unknown key '{}' (known: kernel, reason)", printable(key)));
    if (!value.is_string()) throw ApiError(400, fmt::format("{}: want a string", key));
    (key == "kernel" ? out.kernel : out.reason) = value.get<std::string>();
  }
  if (!valid_kernel_name(out.kernel))
    throw ApiError(400, fmt::format("kernel: '{}' is not a kernel name ([A-Za-z0-9._-], 1..64 "
                                    "bytes, not 'current')",
                                    printable(out.kernel.substr(0, 80))));
  if (out.reason.size() > kMaxBootReasonBytes || printable(out.reason) != out.reason)
    throw ApiError(400, fmt::format("reason: at most {} printable bytes", kMaxBootReasonBytes));
  return out;
}

}  // namespace schedrig::control
