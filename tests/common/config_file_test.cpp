// Flat YAML config files: values as written, numbers in range, and every
// refusal naming the file, the line and the key.
#include "common/config_file.h"

#include <array>
#include <fstream>

#include <gtest/gtest.h>

#include "common/error.h"
#include "tests/support/run_command.h"

namespace schedrig {
namespace {

using testing::TempDir;

constexpr std::array<std::string_view, 3> kKeys{"url", "id", "connect_timeout_s"};

std::string write(const TempDir& dir, const std::string& text) {
  const std::string path = dir.file("agent.yaml");
  std::ofstream(path) << text;
  return path;
}

std::string load_error(const std::string& path) {
  try {
    ConfigFile::load(path, kKeys);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    return e.what();
  }
  return "loaded";
}

TEST(ConfigFile, ValuesAsWritten) {
  const TempDir dir;
  const ConfigFile c = ConfigFile::load(
      write(dir, "# agent\nurl: wss://collector:7443/agent\nconnect_timeout_s: 2.5\n"), kKeys);
  EXPECT_EQ(c.text("url"), "wss://collector:7443/agent");
  EXPECT_EQ(c.text("id"), std::nullopt);
  EXPECT_EQ(c.number("connect_timeout_s", 0.1, 3600), 2.5);
  EXPECT_EQ(c.where("connect_timeout_s"), dir.file("agent.yaml") + ":3: key 'connect_timeout_s'");
  EXPECT_EQ(ConfigFile::load(write(dir, ""), kKeys).text("url"),
            std::nullopt);  // empty: nothing set
}

TEST(ConfigFile, RefusalsNameFileLineAndKey) {
  const TempDir dir;
  const std::string f = dir.file("agent.yaml");
  EXPECT_EQ(load_error(write(dir, "url: ws://h\ntokn: x\n")),
            f + ":2: unknown key 'tokn' (known: url, id, connect_timeout_s)");
  EXPECT_EQ(load_error(write(dir, "id: [a, b]\n")), f + ":1: key 'id': not a single value");
  EXPECT_EQ(load_error(write(dir, "- url\n")), f + ": not a mapping of keys to values");
  EXPECT_EQ(load_error(write(dir, "url: a\nurl: b\n")), f + ":2: key 'url' given twice");
  EXPECT_EQ(load_error(write(dir, "url: [\n")).rfind(f + ":2: YAML syntax: ", 0), 0u);
  EXPECT_EQ(load_error(dir.file("none.yaml")),
            dir.file("none.yaml") + ": cannot read: No such file or directory");
  const ConfigFile c = ConfigFile::load(write(dir, "connect_timeout_s: soon\n"), kKeys);
  try {
    c.number("connect_timeout_s", 0.1, 3600);
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              f + ":1: key 'connect_timeout_s': 'soon' is not a number in 0.1..3600");
  }
}

}  // namespace
}  // namespace schedrig

namespace schedrig {
namespace {

constexpr std::array<std::string_view, 2> kAgentKeys{"url", "tools"};
constexpr std::array<std::string_view, 1> kAgentMapKeys{"tools"};

TEST(ConfigFile, AMapKeyHoldsNamesToValuesEachWithItsLine) {
  const testing::TempDir dir;
  const ConfigFile c = ConfigFile::load(
      write(dir, "url: ws://h\ntools:\n  stress-ng: /opt/bin/stress-ng\n  schbench: /opt/sb\n"),
      kAgentKeys, kAgentMapKeys);
  EXPECT_EQ(c.entries("tools"), (std::vector<std::pair<std::string, std::string>>{
                                    {"schbench", "/opt/sb"}, {"stress-ng", "/opt/bin/stress-ng"}}));
  EXPECT_EQ(c.where("tools.schbench"), dir.file("agent.yaml") + ":4: key 'tools.schbench'");
  EXPECT_EQ(c.text("url"), "ws://h");
  EXPECT_TRUE(c.entries("url").empty());
  EXPECT_TRUE(
      ConfigFile::load(write(dir, "tools:\n"), kAgentKeys, kAgentMapKeys).entries("tools").empty());
}

TEST(ConfigFile, AMapKeyRefusesWhatIsNotAMapOfSingleValues) {
  const testing::TempDir dir;
  const std::string f = dir.file("agent.yaml");
  const auto error = [&](const std::string& text) {
    try {
      ConfigFile::load(write(dir, text), kAgentKeys, kAgentMapKeys);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("loaded");
  };
  EXPECT_EQ(error("tools: /usr/bin/schbench\n"),
            f + ":1: key 'tools': not a mapping of names to single values");
  EXPECT_EQ(error("tools:\n  schbench: [a, b]\n"),
            f + ":2: key 'tools': not a mapping of names to single values");
  EXPECT_EQ(error("tools:\n  schbench: /a\n  schbench: /b\n"),
            f + ":3: key 'tools.schbench' given twice");
  std::string many = "tools:\n";
  for (int i = 0; i < 65; ++i) many += "  t" + std::to_string(i) + ": /x\n";
  EXPECT_EQ(error(many), f + ":1: key 'tools': more than 64 entries");
  // A map key is not a scalar key's value.
  EXPECT_EQ(error("url:\n  a: b\n"), f + ":1: key 'url': not a single value");
}

}  // namespace
}  // namespace schedrig
