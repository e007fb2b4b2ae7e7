// fuzz_api_request: one HTTP API request per input to a real Control over a
// seeded store file (fuzz/api_fixture.h), as the server hands it over
// (host/server/api_handler.h) from operator "fuzz". The input is
// "METHOD TARGET\nBODY": its first line up to the first space is the method,
// the rest of that line the target, everything after the newline the body.
// Every answer is JSON with a status the API documents. A request that may
// have changed the store (a 2xx POST) gets a fresh fixture after it, so
// every input starts from the same store.
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "fuzz/api_fixture.h"
#include "fuzz/fuzz_target.h"

namespace {

using schedrig::server::ApiRequest;

ApiRequest request_of(std::string_view input) {
  ApiRequest r;
  const std::size_t eol = std::min(input.find('\n'), input.size());
  const std::string_view line = input.substr(0, eol);
  const std::size_t space = std::min(line.find(' '), line.size());
  r.method = std::string(line.substr(0, space));
  r.target = std::string(line.substr(std::min(space + 1, line.size())));
  r.body = std::string(input.substr(std::min(eol + 1, input.size())));
  r.principal.role = schedrig::auth::Role::kOperator;
  r.principal.name = "fuzz";
  r.peer = "127.0.0.1:1";
  return r;
}

bool documented_status(unsigned status) {
  for (unsigned s : {200u, 201u, 400u, 404u, 405u, 409u}) {
    if (status == s) return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static std::unique_ptr<schedrig::fuzz::ApiFixture> fixture;
  if (!fixture) fixture = std::make_unique<schedrig::fuzz::ApiFixture>();
  ApiRequest request = request_of(std::string_view(reinterpret_cast<const char*>(data), size));
  const bool post = request.method == "POST";
  const schedrig::server::ApiResponse response = fixture->call(std::move(request));
  schedrig::fuzz::require(documented_status(response.status),
                          "a 2xx or 4xx the API documents (500: an internal error)");
  schedrig::fuzz::require(response.content_type == "application/json", "API answers are JSON");
  schedrig::fuzz::require(nlohmann::json::accept(response.body), "an API answer parses as JSON");
  if (post && response.status < 300) fixture.reset();
  return 0;
}
