#include "fuzz/api_fixture.h"

#include <stdlib.h>

#include <filesystem>
#include <optional>
#include <stdexcept>

#include "fuzz/fuzz_target.h"
#include "fuzz/sample_session.h"

namespace schedrig::fuzz {
namespace {

constexpr const char* kQueuedPlan =
    "name: quick\n"
    "iterations: 1\n"
    "duration_s: 0.5\n"
    "cases:\n"
    "  - workload: fork\n"
    "    params: {fork_max: 1}\n";

std::string make_temp_dir() {
  const char* tmp = getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/schedrig-fuzz-api-XXXXXX";
  if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot create " + pattern);
  return pattern;
}

void seed_store(store::Store& store) {
  for (const v1::Envelope& env : sample_session()) store.ingest(env, env.SerializeAsString());
  store::QueuedRun row;
  row.run_id = kQueuedRun;
  row.agent_id = kSampleAgent;
  row.plan_name = "quick.yaml";
  row.plan = parse_plan_yaml(kQueuedPlan, row.plan_name);
  row.submitted_by = "alice";
  store.enqueue_run(row);
}

// Long polls answer at once: a request must not wait on the clock.
control::ControlOptions prompt_options() {
  control::ControlOptions options;
  options.poll_interval = std::chrono::milliseconds(1);
  options.default_wait = std::chrono::seconds(0);
  options.max_wait = std::chrono::seconds(0);
  return options;
}

}  // namespace

ApiFixture::ApiFixture() : dir_(make_temp_dir()) {
  quiet_logs();
  store_ = std::make_unique<store::Store>(dir_ + "/schedrig.db");
  seed_store(*store_);
  control_ = std::make_unique<control::Control>(*store_, ioc_.get_executor(), prompt_options());
}

ApiFixture::~ApiFixture() {
  control_.reset();
  store_.reset();
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

server::ApiResponse ApiFixture::call(server::ApiRequest request) {
  std::optional<server::ApiResponse> response;
  int calls = 0;
  control_->handle(std::move(request), [&](server::ApiResponse r) {
    ++calls;
    response = std::move(r);
  });
  ioc_.restart();
  while (!response && ioc_.run_one_for(std::chrono::seconds(5)) > 0) {
  }
  require(response.has_value(), "Control::handle answers every request");
  require(calls == 1, "Control::handle calls done exactly once");
  return *response;
}

}  // namespace schedrig::fuzz
