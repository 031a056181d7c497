#include "daemon/config.hpp"

#include "daemon/log.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <charconv>
#include <thread>

namespace tally::daemon {

namespace po = boost::program_options;

namespace {

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

// How a value is applied, by the type of the Config member it goes to.
using Apply = std::function<void(Config&, const std::string&)>;

Apply text(std::string Config::*member) {
  return [member](Config& c, const std::string& v) { c.*member = v; };
}

template <typename T>
Apply number(T Config::*member, const char* key, T at_least = T{}) {
  return [member, key, at_least](Config& c, const std::string& v) {
    c.*member = std::max(at_least, parse_number<T>(key, v));
  };
}

Apply seconds(std::chrono::seconds Config::*member, const char* key, unsigned at_least = 0) {
  return [member, key, at_least](Config& c, const std::string& v) {
    c.*member = std::chrono::seconds(std::max(at_least, parse_number<unsigned>(key, v)));
  };
}

Apply boolean(bool Config::*member, const char* key) {
  return [member, key](Config& c, const std::string& v) { c.*member = parse_bool(key, v); };
}

std::vector<Setting> make_settings() {
  using C = Config;
  return {
      {"data", "DIR", "./data", "data directory: the RocksDB store and organizer.token",
       text(&C::data)},
      {"listen", "HOST:PORT", "127.0.0.1:8080",
       "address and port to serve; port 0 picks a free one",
       [](Config& c, const std::string& v) {
         split_address(v);  // refused here, at start, rather than when binding
         c.listen = v;
       }},
      {"threads", "N", "0", "I/O threads for the HTTP API; 0: one per core",
       number(&C::threads, "threads")},
      {"live_threads", "N", "1", "I/O threads for the live WebSocket screens; at least 1",
       number(&C::live_threads, "live_threads", 1u)},
      {"body_limit", "BYTES", "65536", "largest request body; larger is answered 413",
       number(&C::body_limit, "body_limit")},
      {"import_limit", "BYTES", "67108864",
       "largest venue export the organizer may import into a series (POST "
       "/v1/series/{s}/imports); larger is answered 413",
       number(&C::import_limit, "import_limit")},
      {"header_limit", "BYTES", "8192", "largest request header block; larger is answered 431",
       number(&C::header_limit, "header_limit")},
      {"idle_timeout", "SECONDS", "30",
       "a connection idle this long, or this slow to send one request, is closed",
       seconds(&C::idle_timeout, "idle_timeout")},
      {"max_connections", "N", "10000",
       "open HTTP connections, live screens not counted; beyond, 503",
       number(&C::max_connections, "max_connections")},
      {"reserved_connections", "N", "100",
       "of max_connections, the slots kept for judges', the organizer's and replicas' tokens; "
       "at most a quarter",
       number(&C::reserved_connections, "reserved_connections")},
      {"max_connections_per_address", "N", "64",
       "connections from one address without such a token; beyond, 503",
       number(&C::max_connections_per_address, "max_connections_per_address", std::size_t{1})},
      {"header_timeout", "SECONDS", "5",
       "time a new connection has to send its first request's header; at least 1",
       seconds(&C::header_timeout, "header_timeout", 1)},
      {"max_screens", "N", "10000", "open live (WebSocket) screens; beyond, 503 before the upgrade",
       number(&C::max_screens, "max_screens")},
      {"rate_limit", "PER_SECOND", "100",
       "requests per second per token, or per address when anonymous",
       number(&C::rate_limit, "rate_limit")},
      {"rate_burst", "N", "200", "requests a token may send at once before rate_limit applies",
       number(&C::rate_burst, "rate_burst")},
      {"table_rate_limit", "PER_SECOND", "2", "requests per second per table token",
       number(&C::table_rate_limit, "table_rate_limit")},
      {"table_rate_burst", "N", "60", "requests a table token may send at once",
       number(&C::table_rate_burst, "table_rate_burst")},
      {"registration_rate_limit", "PER_MINUTE", "5",
       "anonymous registrations (Q-7) per minute per address; beyond, 429",
       number(&C::registration_rate_limit, "registration_rate_limit")},
      {"registration_burst", "N", "5", "registrations one address may send at once",
       number(&C::registration_burst, "registration_burst")},
      {"public_reads", "true|false", "true",
       "tournaments, rounds, standings and the live feed need no token",
       boolean(&C::public_reads, "public_reads")},
      {"live_queue_limit", "N", "256", "events queued for one live screen before it is closed",
       number(&C::live_queue_limit, "live_queue_limit")},
      {"live_deflate", "true|false", "true",
       "permessage-deflate on the live feed for clients that offer it",
       boolean(&C::live_deflate, "live_deflate")},
      {"ready_file", "FILE", "none", "once listening, the bound address:port is written there",
       text(&C::ready_file)},
      {"web_root", "DIR", "none",
       "the pages' files; none: share/tallyd/web beside tallyd, else the source tree's",
       text(&C::web_root)},
      {"backup_dir", "DIR", "none",
       "where POST /v1/backup puts its checkpoints; none: DATA/backups", text(&C::backup_dir)},
      {"min_free_space", "MIB", "128", "writes answer 503 while the data disk has less free",
       number(&C::min_free_space_mib, "min_free_space")},
      {"tls_cert", "FILE", "none", "PEM certificate chain; with tls_key: HTTPS and WSS only",
       text(&C::tls_cert)},
      {"tls_key", "FILE", "none", "the PEM private key of tls_cert", text(&C::tls_key)},
      {"follow", "URL", "none",
       "a follower of the primary at this URL, copying its log and serving reads; none: a primary",
       text(&C::follow)},
      {"follow_token_file", "FILE", "none", "with follow: the file holding the replica token",
       text(&C::follow_token_file)},
      {"follow_ca_file", "FILE", "none",
       "with an https follow: the PEM the primary's certificate is checked against",
       text(&C::follow_ca_file)},
      {"replicas_ack", "N", "0", "a write is answered once this many standbys have it on disk",
       number(&C::replicas_ack, "replicas_ack")},
      {"replicas_ack_timeout", "SECONDS", "10",
       "how long a write's answer waits for the standbys, then 503; at least 1",
       seconds(&C::replicas_ack_timeout, "replicas_ack_timeout", 1)},
      {"replicas_ack_missing", "wait|alone", "wait",
       "with the standbys gone: wait for the timeout, then 503, or answer alone",
       [](Config& c, const std::string& v) {
         if (v != "wait" && v != "alone") {
           throw ConfigError("config: replicas_ack_missing must be wait or alone, not \"" + v +
                             "\"");
         }
         c.replicas_ack_alone = v == "alone";
       }},
  };
}

// A vector so that a key given twice (in the file, or as a flag) is no error: the last one wins.
using Values = std::vector<std::string>;

po::options_description file_options() {
  po::options_description options("Settings");
  for (const Setting& s : settings()) {
    options.add_options()(
        std::string(s.key).c_str(), po::value<Values>()->value_name(std::string(s.kind)),
        (std::string(s.description) + " (default: " + std::string(s.default_text) + ")").c_str());
  }
  return options;
}

po::options_description flag_options() {
  po::options_description options = file_options();
  options.add_options()("config", po::value<Values>()->value_name("FILE"),
                        "a file of `key = value` lines; flags win over it");
  return options;
}

// `--body-limit` is `--body_limit`: the key with `-` for `_` (as the flags were always read).
std::vector<std::string> with_underscores(std::vector<std::string> args) {
  for (std::string& a : args) {
    if (a.rfind("--", 0) != 0) continue;
    std::replace(a.begin() + 2, std::find(a.begin(), a.end(), '='), '-', '_');
  }
  return args;
}

std::string without_dashes(std::string name) {
  name.erase(0, name.find_first_not_of('-'));
  return name;
}

}  // namespace

const std::vector<Setting>& settings() {
  static const std::vector<Setting> table = make_settings();
  return table;
}

std::string settings_help() {
  // One line per setting (no wrapping, unlike options_description's own printing): scripts and
  // tests read a setting's line whole.
  struct Line {
    std::string flag, text;
  };
  std::vector<Line> lines{{"--config FILE", "a file of `key = value` lines; flags win over it"}};
  for (const Setting& s : settings()) {
    lines.push_back(
        {"--" + std::string(s.key) + " " + std::string(s.kind),
         std::string(s.description) + " (default: " + std::string(s.default_text) + ")"});
  }
  std::size_t width = 0;
  for (const Line& l : lines) width = std::max(width, l.flag.size());
  std::string out = "Settings:\n";
  for (const Line& l : lines) {
    out += "  " + l.flag + std::string(width + 2 - l.flag.size(), ' ') + l.text + "\n";
  }
  return out;
}

void Config::set(const std::string& key, const std::string& value) {
  for (const Setting& s : settings()) {
    if (s.key == key) return s.apply(*this, value);
  }
  throw ConfigError("config: unknown key \"" + key + "\" (see docs/configuration.md)");
}

Config Config::from_args(const std::vector<std::string>& raw_args) {
  const po::options_description flags = flag_options();
  // Any word that is not a flag or a flag's value lands here, to be named in the error.
  po::options_description stray;
  stray.add_options()("unexpected", po::value<Values>());
  po::options_description all;
  all.add(flags).add(stray);
  po::positional_options_description positional;
  positional.add("unexpected", -1);

  po::variables_map values;
  try {
    // Flags are stored first: a value stored once is not replaced, so flags win over the file.
    po::store(po::command_line_parser(with_underscores(raw_args))
                  .options(all)
                  .positional(positional)
                  .style(po::command_line_style::allow_long |
                         po::command_line_style::long_allow_adjacent |
                         po::command_line_style::long_allow_next)
                  .run(),
              values);
  } catch (const po::invalid_command_line_syntax& e) {
    if (e.kind() == po::invalid_command_line_syntax::missing_parameter) {
      throw ConfigError("--" + without_dashes(e.get_option_name()) + " needs a value");
    }
    throw ConfigError(std::string("config: ") + e.what());
  } catch (const po::unknown_option& e) {
    throw ConfigError("config: unknown key \"" + without_dashes(e.get_option_name()) +
                      "\" (see docs/configuration.md)");
  } catch (const po::error& e) {
    throw ConfigError(std::string("config: ") + e.what());
  }
  if (values.count("unexpected")) {
    throw ConfigError("unexpected argument \"" + values["unexpected"].as<Values>().front() + "\"");
  }
  if (values.count("config")) {
    // The last --config wins over earlier ones, as the last of a flag does.
    const auto& files = values["config"].as<Values>();
    for (auto file = files.rbegin(); file != files.rend(); ++file) {
      try {
        po::store(po::parse_config_file(file->c_str(), file_options()), values);
      } catch (const po::reading_file&) {
        throw ConfigError("config: cannot read " + *file);
      } catch (const po::invalid_config_file_syntax& e) {
        throw ConfigError("config: " + *file + ": expected key = value (" + e.what() + ")");
      } catch (const po::unknown_option& e) {
        throw ConfigError("config: unknown key \"" + without_dashes(e.get_option_name()) +
                          "\" in " + *file + " (see docs/configuration.md)");
      } catch (const po::error& e) {
        throw ConfigError("config: " + *file + ": " + e.what());
      }
    }
  }

  Config config;
  for (const Setting& s : settings()) {
    if (values.count(std::string(s.key))) {
      s.apply(config, values[std::string(s.key)].as<Values>().back());
    }
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
