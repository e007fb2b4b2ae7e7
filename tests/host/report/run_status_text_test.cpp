#include "host/report/run_status_text.h"

#include <gtest/gtest.h>

namespace schedrig::report {
namespace {

store::RunRecord run_of(const std::string& status, const std::string& reason) {
  store::RunRecord run;
  run.run_id = "r1";
  run.status = status;
  run.reason = reason;
  run.planned_iterations = 3;
  return run;
}

TEST(RunStatusNote, OkSaysNothing) { EXPECT_EQ(run_status_note(run_of("ok", "")), ""); }

TEST(RunStatusNote, FailedNamesReasonAndOkResults) {
  store::RunRecord run = run_of("failed", "agent box1 disconnected: closed by the host");
  run.started_at_ns = 1;
  run.iterations.resize(2);
  run.iterations[0].status = "ok";
  run.iterations[1].status = "failed";
  EXPECT_EQ(run_status_note(run),
            "run r1 failed: agent box1 disconnected: closed by the host (1 of 3 iterations ok)");
}

TEST(RunStatusNote, AbortedBeforeItStartedSaysNeverStarted) {
  EXPECT_EQ(run_status_note(run_of("aborted", "aborted by operator 'ann' before it started")),
            "run r1 aborted: aborted by operator 'ann' before it started (never started)");
  EXPECT_EQ(run_status_note(run_of("queued", "")), "run r1 queued (never started)");
}

TEST(RunStatusNote, RunningCountsItsResults) {
  store::RunRecord run = run_of("running", "");
  run.started_at_ns = 1;
  EXPECT_EQ(run_status_note(run), "run r1 running (0 of 3 iterations ok)");
}

}  // namespace
}  // namespace schedrig::report
