// The sched features file against a FUSE file with the kernel's semantics
// (tests/support/fake_sched_features.cpp): no real debugfs is touched.
#include "agent/knobs/features.h"

#include <gtest/gtest.h>

#include "tests/agent/knobs/fake_root.h"

namespace schedrig::knobs {
namespace {

using testing::FakeRoot;

constexpr const char* kFeatures = "PLACE_LAG RUN_TO_PARITY SIS_UTIL NI_RANDOM NO_NI_RATE";

#define MOUNT_OR_SKIP(root, ...) \
  if (!(root).mount_features(__VA_ARGS__)) GTEST_SKIP() << "FUSE (/dev/fuse) is not usable here"

TEST(ParseFeatures, NamesAndStates) {
  auto f = parse_features("GENTLE_FAIR_SLEEPERS NO_NI_RANDOM SIS_UTIL \n", "x");
  EXPECT_EQ(f.size(), 3u);
  EXPECT_TRUE(f.at("GENTLE_FAIR_SLEEPERS"));
  EXPECT_FALSE(f.at("NI_RANDOM"));
  EXPECT_THROW(parse_features("  \n", "x"), KnobError);
}

TEST(FeaturesFile, ReadsTheKernelLine) {
  FakeRoot root;
  MOUNT_OR_SKIP(root, kFeatures);
  auto f = FeaturesFile(root.root()).read();
  EXPECT_EQ(f.size(), 5u);
  EXPECT_TRUE(f.at("NI_RANDOM"));
  EXPECT_FALSE(f.at("NI_RATE"));
}

TEST(FeaturesFile, OneTokenPerWriteThenVerified) {
  FakeRoot root;
  MOUNT_OR_SKIP(root, kFeatures);
  FeaturesFile f(root.root());
  f.set("NI_RANDOM", false);
  EXPECT_FALSE(f.read().at("NI_RANDOM"));
  EXPECT_EQ(root.feature_writes(), 1);
  f.set("NI_RANDOM", true);
  EXPECT_TRUE(f.read().at("NI_RANDOM"));
  EXPECT_EQ(root.feature_writes(), 2);
  EXPECT_TRUE(f.read().at("SIS_UTIL"));  // the others are untouched
}

TEST(FeaturesFile, AWriteThatDoesNotTakeIsAnError) {
  FakeRoot root;
  MOUNT_OR_SKIP(root, kFeatures, "ignore");
  try {
    FeaturesFile(root.root()).set("NI_RANDOM", false);
    FAIL() << "expected KnobUnavailable";
  } catch (const KnobUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find("did not take"), std::string::npos) << e.what();
  }
}

TEST(FeaturesFile, EpermNamesThePathAndErrno) {
  FakeRoot root;
  MOUNT_OR_SKIP(root, kFeatures, "eperm");
  try {
    FeaturesFile(root.root()).set("NI_RANDOM", false);
    FAIL() << "expected KnobUnavailable";
  } catch (const KnobUnavailable& e) {
    EXPECT_EQ(e.errno_value(), EPERM);
    EXPECT_NE(std::string(e.what()).find("sys/kernel/debug/sched/features"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("EPERM"), std::string::npos) << e.what();
  }
  EXPECT_EQ(root.feature_writes(), 0);
}

TEST(FeaturesFile, UnknownNameListsCloseMatches) {
  FakeRoot root;
  MOUNT_OR_SKIP(root, kFeatures);
  try {
    FeaturesFile(root.root()).set("NI_RANDON", false);
    FAIL() << "expected KnobError";
  } catch (const KnobUnavailable&) {
    FAIL() << "an unknown name is bad input, not an unavailable facility";
  } catch (const KnobError& e) {
    EXPECT_NE(std::string(e.what()).find("did you mean NI_RANDOM"), std::string::npos) << e.what();
  }
  EXPECT_EQ(root.feature_writes(), 0);
}

TEST(FeaturesFile, MissingFileIsUnavailableNamingThePath) {
  FakeRoot root;  // no features file at all
  try {
    FeaturesFile(root.root()).read();
    FAIL() << "expected KnobUnavailable";
  } catch (const KnobUnavailable& e) {
    EXPECT_EQ(e.errno_value(), ENOENT);
    EXPECT_NE(std::string(e.what()).find(root.path("sys/kernel/debug/sched/features")),
              std::string::npos);
  }
}

TEST(FeaturesFile, OlderKernelsPath) {
  FakeRoot root;
  root.put("sys/kernel/debug/sched_features", "NI_RANDOM SIS_UTIL\n");
  FeaturesFile f(root.root());
  EXPECT_EQ(f.path(), root.path("sys/kernel/debug/sched_features"));
  EXPECT_TRUE(f.read().at("NI_RANDOM"));
}

}  // namespace
}  // namespace schedrig::knobs
