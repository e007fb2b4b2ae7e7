// What fuzz_api_request runs its requests against (docs/architecture.md
// "Control plane", "HTTP API"): a real Control over a real store file in a
// temporary directory, no network. The store holds agent kSampleAgent
// (Hello and Topology), its finished run kSampleRun (fuzz/sample_session.h)
// and one queued run, kQueuedRun, so every route has something to find.
#pragma once

#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>

#include "host/control/control.h"
#include "host/server/api_handler.h"
#include "host/store/store.h"

namespace schedrig::fuzz {

inline constexpr const char* kQueuedRun = "22222222-3333-4444-8555-666666666666";

class ApiFixture {
 public:
  // Creates the directory under $TMPDIR (else /tmp) and the store. Throws
  // std::runtime_error (or StoreError) when it cannot.
  ApiFixture();
  // Removes the directory and everything in it.
  ~ApiFixture();
  ApiFixture(const ApiFixture&) = delete;
  ApiFixture& operator=(const ApiFixture&) = delete;

  // Calls Control::handle and runs the io_context until `done` is called
  // (events long polls are bounded to 0 s here). broken() when it never is.
  server::ApiResponse call(server::ApiRequest request);

 private:
  std::string dir_;
  std::unique_ptr<store::Store> store_;
  boost::asio::io_context ioc_;
  std::unique_ptr<control::Control> control_;
};

}  // namespace schedrig::fuzz
