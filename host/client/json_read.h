// Reading the server's JSON: nlohmann's key and type errors as one
// schedrig::Error, and the few conversions every reader needs.
#pragma once

#include <limits>
#include <map>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/printable.h"

namespace schedrig::client {

// read() with nlohmann::json exceptions turned into Error(kFailed)
// "unexpected WHAT JSON from the server: REASON" (a missing key, a wrong type).
template <class Read>
auto reading(const char* what, Read&& read) {
  try {
    return read();
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorKind::kFailed,
                fmt::format("unexpected {} JSON from the server: {}", what, printable(e.what())));
  }
}

// A number that JSON may hold as null (a NaN dumps as null): null -> NaN.
inline double number_or_nan(const nlohmann::json& j) {
  return j.is_null() ? std::numeric_limits<double>::quiet_NaN() : j.get<double>();
}

// An object of strings.
inline std::map<std::string, std::string> string_map(const nlohmann::json& j) {
  return j.get<std::map<std::string, std::string>>();
}

}  // namespace schedrig::client
