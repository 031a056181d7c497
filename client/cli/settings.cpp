#include "client/cli/settings.hpp"

#include "client/cli/exit_codes.hpp"
#include "client/cli/private_file.hpp"
#include "client/cli/text.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <pwd.h>
#include <unistd.h>

namespace tally::cli {

namespace fs = std::filesystem;

namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

std::string home_directory() {
  std::string home = env("HOME");
  if (!home.empty()) return home;
  if (const passwd* pw = getpwuid(getuid()); pw != nullptr && pw->pw_dir != nullptr) {
    return pw->pw_dir;
  }
  throw usage_error("cli.config.no_home");
}

std::string first_of(const std::optional<std::string>& flag, const char* env_name,
                     const StoredConfig& stored, const char* key, const std::string& fallback) {
  if (flag) return *flag;
  if (std::string e = env(env_name); !e.empty()) return e;
  if (auto it = stored.find(key); it != stored.end() && !it->second.empty()) return it->second;
  return fallback;
}

}  // namespace

fs::path config_path() {
  // XDG Base Directory: a relative XDG_CONFIG_HOME is invalid and must be ignored.
  std::string xdg = env("XDG_CONFIG_HOME");
  fs::path base =
      !xdg.empty() && xdg[0] == '/' ? fs::path(xdg) : fs::path(home_directory()) / ".config";
  return base / "tally" / "config";
}

StoredConfig read_config(const fs::path& path) {
  StoredConfig config;
  std::ifstream in(path);
  if (!in) {
    if (errno == ENOENT || !fs::exists(path)) return config;
    throw usage_error(i18n::Message("cli.config.cannot_read",
                                    {{"path", path.string()}, {"problem", std::strerror(errno)}}));
  }
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    std::string text = trim(line);
    if (text.empty() || text[0] == '#') continue;
    auto eq = text.find('=');
    if (eq == std::string::npos) {
      throw usage_error(i18n::Message("cli.config.bad_line",
                                      {{"path", path.string()}, {"line", std::to_string(number)}}));
    }
    config[trim(text.substr(0, eq))] = trim(text.substr(eq + 1));
  }
  return config;
}

void write_config(const fs::path& path, const StoredConfig& config) {
  ensure_private_directory(path.parent_path());
  std::ostringstream text;
  text << "# written by tally login; keep it private (it holds a token)\n";
  for (const auto& [key, value] : config) text << key << " = " << value << "\n";
  // Created with 0600 from the start, so the token is never readable by others, not even briefly.
  write_private_file(path, text.str());
}

Settings resolve_settings(const std::optional<std::string>& server_flag,
                          const std::optional<std::string>& token_flag,
                          const std::optional<std::string>& tournament_flag,
                          const std::optional<std::string>& ca_file_flag,
                          const StoredConfig& stored) {
  Settings s;
  s.server = first_of(server_flag, "TALLY_SERVER", stored, "server", kDefaultServer);
  s.token = first_of(token_flag, "TALLY_TOKEN", stored, "token", "");
  s.tournament = first_of(tournament_flag, "TALLY_TOURNAMENT", stored, "tournament", "");
  s.ca_file = first_of(ca_file_flag, "TALLY_CA_FILE", stored, "ca_file", "");
  return s;
}

}  // namespace tally::cli
