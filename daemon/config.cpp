#include "daemon/config.hpp"

#include "daemon/log.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <thread>

namespace tally::daemon {

namespace {

std::string trim(const std::string& s) {
  auto begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos) return "";
  auto end = s.find_last_not_of(" \t\r");
  return s.substr(begin, end - begin + 1);
}

template <typename T>
T parse_number(const std::string& key, const std::string& value) {
  T out{};
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
  if (ec != std::errc() || end != value.data() + value.size()) {
    throw ConfigError("config: " + key + " must be a number, not \"" + value + "\"");
  }
  return out;
}

bool parse_bool(const std::string& key, const std::string& value) {
  if (value == "true" || value == "yes" || value == "1") return true;
  if (value == "false" || value == "no" || value == "0") return false;
  throw ConfigError("config: " + key + " must be true or false, not \"" + value + "\"");
}

}  // namespace

void Config::set(const std::string& key, const std::string& value) {
  if (key == "data") {
    data = value;
  } else if (key == "listen") {
    split_address(value);
    listen = value;
  } else if (key == "threads") {
    threads = parse_number<unsigned>(key, value);
  } else if (key == "live_threads") {
    live_threads = std::max(1u, parse_number<unsigned>(key, value));
  } else if (key == "body_limit") {
    body_limit = parse_number<std::size_t>(key, value);
  } else if (key == "header_limit") {
    header_limit = parse_number<std::size_t>(key, value);
  } else if (key == "idle_timeout") {
    idle_timeout = std::chrono::seconds(parse_number<unsigned>(key, value));
  } else if (key == "max_connections") {
    max_connections = parse_number<std::size_t>(key, value);
  } else if (key == "reserved_connections") {
    reserved_connections = parse_number<std::size_t>(key, value);
  } else if (key == "max_connections_per_address") {
    max_connections_per_address = std::max<std::size_t>(1, parse_number<std::size_t>(key, value));
  } else if (key == "header_timeout") {
    header_timeout = std::chrono::seconds(std::max(1u, parse_number<unsigned>(key, value)));
  } else if (key == "max_screens") {
    max_screens = parse_number<std::size_t>(key, value);
  } else if (key == "rate_limit") {
    rate_limit = parse_number<double>(key, value);
  } else if (key == "rate_burst") {
    rate_burst = parse_number<double>(key, value);
  } else if (key == "follow") {
    follow = value;
  } else if (key == "follow_token_file") {
    follow_token_file = value;
  } else if (key == "follow_ca_file") {
    follow_ca_file = value;
  } else if (key == "replicas_ack") {
    replicas_ack = parse_number<unsigned>(key, value);
  } else if (key == "replicas_ack_timeout") {
    replicas_ack_timeout = std::chrono::seconds(std::max(1u, parse_number<unsigned>(key, value)));
  } else if (key == "replicas_ack_missing") {
    if (value != "wait" && value != "alone") {
      throw ConfigError("config: replicas_ack_missing must be wait or alone, not \"" + value +
                        "\"");
    }
    replicas_ack_alone = value == "alone";
  } else if (key == "table_rate_limit") {
    table_rate_limit = parse_number<double>(key, value);
  } else if (key == "table_rate_burst") {
    table_rate_burst = parse_number<double>(key, value);
  } else if (key == "public_reads") {
    public_reads = parse_bool(key, value);
  } else if (key == "live_queue_limit") {
    live_queue_limit = parse_number<std::size_t>(key, value);
  } else if (key == "live_deflate") {
    live_deflate = parse_bool(key, value);
  } else if (key == "ready_file") {
    ready_file = value;
  } else if (key == "web_root") {
    web_root = value;
  } else if (key == "backup_dir") {
    backup_dir = value;
  } else if (key == "min_free_space") {
    min_free_space_mib = parse_number<std::uint64_t>(key, value);
  } else if (key == "tls_cert") {
    tls_cert = value;
  } else if (key == "tls_key") {
    tls_key = value;
  } else {
    throw ConfigError("config: unknown key \"" + key + "\" (see docs/configuration.md)");
  }
}

void Config::load_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError("config: cannot read " + path);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::string content = trim(line.substr(0, line.find('#')));
    if (content.empty()) continue;
    auto eq = content.find('=');
    if (eq == std::string::npos) {
      throw ConfigError("config: " + path + ":" + std::to_string(number) +
                        ": expected key = value");
    }
    set(trim(content.substr(0, eq)), trim(content.substr(eq + 1)));
  }
}

Config Config::from_args(const std::vector<std::string>& args) {
  Config config;
  // The file first, so that flags override it wherever they stand.
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == "--config") config.load_file(args[i + 1]);
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    if (flag.rfind("--", 0) != 0) throw ConfigError("unexpected argument \"" + flag + "\"");
    if (i + 1 >= args.size()) throw ConfigError(flag + " needs a value");
    std::string key = flag.substr(2);
    for (char& c : key) {
      if (c == '-') c = '_';
    }
    if (key != "config") config.set(key, args[i + 1]);
    ++i;
  }
  if (config.threads == 0) config.threads = std::max(1u, std::thread::hardware_concurrency());
  // At most a quarter of the slots are kept for tokens: strangers always have the rest.
  config.reserved_connections = std::min(config.reserved_connections, config.max_connections / 4);
  if (config.tls_cert.empty() != config.tls_key.empty()) {
    throw ConfigError("config: tls_cert and tls_key go together (both, or neither)");
  }
  return config;
}

void fit_connections_to_open_files(Config& config, std::size_t open_files) {
  const std::size_t wanted = config.max_connections + config.max_screens;
  const std::size_t room =
      open_files > kFilesBesideConnections ? open_files - kFilesBesideConnections : 0;
  if (wanted <= room) return;
  if (room < 16) {
    throw ConfigError("the open-file limit (" + std::to_string(open_files) +
                      ") leaves no room for connections; raise it (ulimit -n, LimitNOFILE) to at "
                      "least " +
                      std::to_string(kFilesBesideConnections + 16));
  }
  const std::size_t asked_http = config.max_connections, asked_screens = config.max_screens;
  // In proportion, each at least a quarter of the room (neither side is shut out).
  std::size_t http = std::max(room / 4, room * asked_http / wanted);
  http = std::min(http, room - room / 4);
  config.max_connections = std::min(asked_http, http);
  config.max_screens = std::min(asked_screens, room - config.max_connections);
  config.reserved_connections = std::min(config.reserved_connections, config.max_connections / 4);
  log::warn(
      "max_connections + max_screens do not fit under the open-file limit: both lowered (raise "
      "LimitNOFILE to keep them)",
      {{"open_file_limit", open_files},
       {"max_connections", config.max_connections},
       {"max_connections_asked", asked_http},
       {"max_screens", config.max_screens},
       {"max_screens_asked", asked_screens}});
}

std::pair<std::string, std::uint16_t> split_address(const std::string& address) {
  auto colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0) {
    throw ConfigError("listen: expected host:port, not \"" + address + "\"");
  }
  std::string host = address.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  return {host, parse_number<std::uint16_t>("listen port", address.substr(colon + 1))};
}

}  // namespace tally::daemon
