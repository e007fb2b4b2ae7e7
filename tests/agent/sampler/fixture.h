// Reading fixtures from SCHEDRIG_FIXTURES (../shared/fixtures) at test time;
// a test skips with a message when its fixture is absent.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace schedrig::sampler::testing {

inline bool read_fixture(const std::string& rel, std::string& out) {
  const std::filesystem::path p = std::filesystem::path(SCHEDRIG_FIXTURES) / rel;
  std::ifstream in(p);
  if (!in) return false;
  std::stringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

}  // namespace schedrig::sampler::testing

// Declares `std::string var` with the fixture's text, or skips the test.
#define SCHEDRIG_FIXTURE(var, rel)                                             \
  std::string var;                                                             \
  if (!::schedrig::sampler::testing::read_fixture(rel, var)) {                 \
    GTEST_SKIP() << "fixture " << (rel) << " absent under " SCHEDRIG_FIXTURES; \
  }
