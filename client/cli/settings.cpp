#include "client/cli/settings.hpp"

#include "client/cli/exit_codes.hpp"
#include "client/cli/text.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
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
  std::error_code ec;
  fs::path dir = path.parent_path();
  if (!fs::exists(dir)) {
    fs::create_directories(dir, ec);
    if (ec) {
      throw usage_error(i18n::Message("cli.config.cannot_create",
                                      {{"path", dir.string()}, {"problem", ec.message()}}));
    }
    ::chmod(dir.c_str(), 0700);
  }
  std::ostringstream text;
  text << "# written by tally login; keep it private (it holds a token)\n";
  for (const auto& [key, value] : config) text << key << " = " << value << "\n";
  const std::string body = text.str();

  // Created with 0600 from the start, so the token is never readable by others, not even briefly.
  fs::path temporary = path;
  temporary += ".tmp" + std::to_string(::getpid());
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    throw usage_error(i18n::Message("cli.error.cannot_write", {{"path", temporary.string()},
                                                               {"problem", std::strerror(errno)}}));
  }
  bool ok = ::fchmod(fd, 0600) == 0 &&
            ::write(fd, body.data(), body.size()) == static_cast<ssize_t>(body.size()) &&
            ::fsync(fd) == 0;
  int saved = errno;
  ok = (::close(fd) == 0) && ok;
  if (!ok || ::rename(temporary.c_str(), path.c_str()) != 0) {
    if (ok) saved = errno;
    ::unlink(temporary.c_str());
    throw usage_error(i18n::Message("cli.error.cannot_write",
                                    {{"path", path.string()}, {"problem", std::strerror(saved)}}));
  }
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
