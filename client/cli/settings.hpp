// Where `tally` finds the server, the token and the tournament: the command line first, then the
// environment (TALLY_SERVER, TALLY_TOKEN, TALLY_TOURNAMENT, TALLY_CA_FILE), then the file `tally
// login` writes
// ($XDG_CONFIG_HOME/tally/config, else $HOME/.config/tally/config; mode 0600).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace tally::cli {

// The stored configuration: `key = value` lines, `#` comments (the same shape as tallyd's).
using StoredConfig = std::map<std::string, std::string>;

// The config file's path from the environment (XDG_CONFIG_HOME when set and absolute, else
// HOME/.config, else the password database's home directory).
std::filesystem::path config_path();

// The stored configuration, empty when there is no file. Throws Failure(kUsage) when the file
// exists but cannot be read or has a line that is not `key = value`.
StoredConfig read_config(const std::filesystem::path& path);

// Writes `config` so that only the user can read it: the directory is created with mode 0700,
// the file written beside it with mode 0600 and renamed over the old one. Throws Failure(kUsage)
// when that fails.
void write_config(const std::filesystem::path& path, const StoredConfig& config);

struct Settings {
  std::string server;      // a URL; the default is tallyd's default address
  std::string token;       // empty: none
  std::string tournament;  // empty: none chosen
  std::string ca_file;     // PEM certificates to trust for https; empty: the system's
};

// Resolves each setting: flag, then environment variable, then stored config, then default.
Settings resolve_settings(const std::optional<std::string>& server_flag,
                          const std::optional<std::string>& token_flag,
                          const std::optional<std::string>& tournament_flag,
                          const std::optional<std::string>& ca_file_flag,
                          const StoredConfig& stored);

inline constexpr const char* kDefaultServer = "http://127.0.0.1:8080";

}  // namespace tally::cli
