// tallyd's settings (daemon/config.cpp): the one table the config file and the flags are read
// with — defaults, the file's format, "file, then flags", both flag spellings, and errors that
// name the setting.
#include "daemon/config.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "tests/support/temp_dir.hpp"

namespace tally::daemon {
namespace {

using tally::testing::TempDir;

std::string write(const TempDir& dir, const std::string& name, const std::string& text) {
  std::string path = dir.sub(name);
  std::ofstream(path) << text;
  return path;
}

// The message of the ConfigError that reading `args` throws ("" when none is thrown).
std::string error_of(const std::vector<std::string>& args) {
  try {
    Config::from_args(args);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(Config, NoArgumentsGiveTheDefaultsWithOneThreadPerCore) {
  Config config = Config::from_args({});
  Config expected;
  expected.threads = std::max(1u, std::thread::hardware_concurrency());
  EXPECT_EQ(config, expected);
}

TEST(Config, EveryDefaultThatHelpShowsIsTheDefault) {
  for (const Setting& s : settings()) {
    Config config;
    // "none" is an empty text setting.
    config.set(std::string(s.key), s.default_text == "none" ? "" : std::string(s.default_text));
    EXPECT_EQ(config, Config{}) << s.key << " = " << s.default_text;
  }
}

TEST(Config, EveryKeyIsAFlagWithDashesOrUnderscoresOrAnEqualsSign) {
  EXPECT_EQ(Config::from_args({"--body-limit", "1000"}).body_limit, 1000u);
  EXPECT_EQ(Config::from_args({"--body_limit", "1001"}).body_limit, 1001u);
  EXPECT_EQ(Config::from_args({"--body-limit=1002"}).body_limit, 1002u);
  Config c = Config::from_args({"--max-connections-per-address", "3", "--replicas-ack-missing",
                                "alone", "--public-reads", "no", "--idle-timeout", "7"});
  EXPECT_EQ(c.max_connections_per_address, 3u);
  EXPECT_TRUE(c.replicas_ack_alone);
  EXPECT_FALSE(c.public_reads);
  EXPECT_EQ(c.idle_timeout, std::chrono::seconds(7));
}

TEST(Config, TheFileIsKeyEqualsValueLinesWithComments) {
  TempDir dir;
  std::string file = write(dir, "tallyd.conf",
                           "# a comment\n"
                           "\n"
                           "data = /var/lib/x   # after the value\n"
                           "  rate_limit=50\n"
                           "listen = 0.0.0.0:9000\n"
                           "tls_cert =\n"
                           "rate_limit = 60\n");  // the last one wins
  Config c = Config::from_args({"--config", file});
  EXPECT_EQ(c.data, "/var/lib/x");
  EXPECT_EQ(c.rate_limit, 60);
  EXPECT_EQ(c.listen, "0.0.0.0:9000");
  EXPECT_EQ(c.tls_cert, "");
}

TEST(Config, AFlagWinsOverTheFileWhereverItStands) {
  TempDir dir;
  std::string file = write(dir, "tallyd.conf", "body_limit = 1\nrate_limit = 50\n");
  for (const auto& args : {std::vector<std::string>{"--body-limit", "2", "--config", file},
                           std::vector<std::string>{"--config", file, "--body-limit", "2"}}) {
    Config c = Config::from_args(args);
    EXPECT_EQ(c.body_limit, 2u);
    EXPECT_EQ(c.rate_limit, 50);
  }
  // The last of a flag given twice wins, as the last line of the file does.
  EXPECT_EQ(Config::from_args({"--rate-limit", "1", "--rate-limit", "3"}).rate_limit, 3);
}

TEST(Config, EveryKeyOfTheExampleConfigIsRead) {
  // deploy/tallyd.conf with its commented-out `#key = value` lines switched on.
  std::ifstream in(TALLY_SOURCE_DIR "/deploy/tallyd.conf");
  std::stringstream all;
  std::set<std::string> keys;
  const std::regex setting(R"(^#?([a-z_]+) = (.*)$)");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, setting)) {
      all << m[1] << " = " << m[2] << "\n";
      keys.insert(m[1]);
    }
  }
  std::set<std::string> known;
  for (const Setting& s : settings()) known.insert(std::string(s.key));
  EXPECT_EQ(keys, known);
  TempDir dir;
  std::string file = write(dir, "tallyd.conf", all.str());
  Config c = Config::from_args({"--config", file});
  EXPECT_EQ(c.data, "/var/lib/tallyd");
  EXPECT_EQ(c.replicas_ack, 1u);
  EXPECT_EQ(c.follow, "http://10.0.0.5:8080");
}

TEST(Config, ABadValueIsRefusedNamingItsSetting) {
  EXPECT_EQ(error_of({"--body-limit", "lots"}),
            "config: body_limit must be a number, not \"lots\"");
  EXPECT_EQ(error_of({"--live-deflate", "maybe"}),
            "config: live_deflate must be true or false, not \"maybe\"");
  EXPECT_EQ(error_of({"--replicas-ack-missing", "never"}),
            "config: replicas_ack_missing must be wait or alone, not \"never\"");
  EXPECT_EQ(error_of({"--listen", "8080"}), "listen: expected host:port, not \"8080\"");
  EXPECT_EQ(error_of({"--tls-cert", "cert.pem"}),
            "config: tls_cert and tls_key go together (both, or neither)");
  TempDir dir;
  std::string file = write(dir, "tallyd.conf", "rate_burst = many\n");
  EXPECT_EQ(error_of({"--config", file}), "config: rate_burst must be a number, not \"many\"");
}

TEST(Config, UnknownKeysStrayWordsAndMissingValuesAreRefused) {
  EXPECT_EQ(error_of({"--bogus", "1"}),
            "config: unknown key \"bogus\" (see docs/configuration.md)");
  EXPECT_EQ(error_of({"--data"}), "--data needs a value");
  EXPECT_EQ(error_of({"--data", "x", "stray"}), "unexpected argument \"stray\"");
  EXPECT_EQ(error_of({"--config", "/nonexistent/tallyd.conf"}),
            "config: cannot read /nonexistent/tallyd.conf");
  TempDir dir;
  std::string unknown = write(dir, "unknown.conf", "data = x\nbogus_key = 1\n");
  EXPECT_NE(error_of({"--config", unknown}).find("unknown key \"bogus_key\""), std::string::npos)
      << error_of({"--config", unknown});
  std::string no_equals = write(dir, "no-equals.conf", "data /var/lib\n");
  EXPECT_NE(error_of({"--config", no_equals}).find("expected key = value"), std::string::npos)
      << error_of({"--config", no_equals});
  // The file is not a place for --config.
  std::string nested = write(dir, "nested.conf", "config = other.conf\n");
  EXPECT_NE(error_of({"--config", nested}).find("unknown key \"config\""), std::string::npos)
      << error_of({"--config", nested});
}

TEST(Config, HelpListsEverySettingWithItsDefault) {
  std::string help = settings_help();
  for (const Setting& s : settings()) {
    std::regex line("\\n  --" + std::string(s.key) +
                    " [^\\n]*\\(default: " + std::string(s.default_text) + "\\)\\n");
    EXPECT_TRUE(std::regex_search(help, line)) << s.key << " in:\n" << help;
  }
}

}  // namespace
}  // namespace tally::daemon
