// tallyd's configuration: defaults, then the config file (`--config FILE`), then flags.
// One table of settings (settings()) is what the file and the flags are read with (through
// Boost.Program_options) and what `tallyd --help` prints. Every key is documented in
// docs/configuration.md; the file format is `key = value` lines with `#` comments, and every key
// can also be given as a flag `--key value` (`-` or `_` in the key).
//
// Thread safety: a value; read-only once the daemon starts.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tally::daemon {

struct Config {
  std::string data = "./data";            // data directory (the RocksDB store, the organizer token)
  std::string listen = "127.0.0.1:8080";  // address:port; port 0 picks a free one
  unsigned threads = 0;                   // API worker threads; 0 = the number of cores
  unsigned live_threads = 1;              // threads that write to live (WebSocket) screens
  std::size_t body_limit = 64 * 1024;     // request body bytes (413 beyond)
  // The organizer's import of a venue's export into a series (POST /v1/series/{s}/imports):
  // the venue's whole log up to the tournament's head, bytes and readable form.
  std::size_t import_limit = 64 * 1024 * 1024;
  std::size_t header_limit = 8 * 1024;    // request header bytes (431 beyond)
  std::chrono::seconds idle_timeout{
      30};  // a connection idle (or a request unfinished) this long is closed
  std::size_t max_connections = 10000;  // open HTTP connections (not live screens); 503 beyond
  // Of max_connections, the slots only a judge's, the organizer's or a replica's token may take:
  // strangers (no token, a table token) never hold more than max_connections - this many.
  // At most max_connections / 4 (from_args clamps it).
  std::size_t reserved_connections = 100;
  // Open HTTP connections from one address that have shown no judge's, organizer's or replica's
  // token; 503 beyond (one phone on the venue's Wi-Fi cannot take every slot).
  std::size_t max_connections_per_address = 64;
  // Seconds a new connection has to send its first request's header (half-open connections).
  std::chrono::seconds header_timeout{5};
  std::size_t max_screens = 10000;  // open live (WebSocket) screens; 503 before the upgrade
  double rate_limit = 100;          // requests per second per token (or per address when anonymous)
  double rate_burst = 200;          // requests a token may send at once before the rate applies
  // A table token (self-reporting) is the few phones at one table: a bucket of its own, smaller
  // than a judge's — against a script, not against a table (docs/configuration.md).
  double table_rate_limit = 2;   // requests per second per table token
  double table_rate_burst = 60;  // requests a table token may send at once
  // anonymous registrations (POST …/registrations) from one address, a bucket of its own
  // beside rate_limit: a script cannot fill an event (docs/registration.md).
  double registration_rate_limit = 5;  // registrations per minute per address
  double registration_burst = 5;       // registrations an address may send at once
  bool public_reads = true;            // tournaments, rounds, standings and live need no token
  std::size_t live_queue_limit = 256;  // events queued for one live client before it is closed
  bool live_deflate = true;  // permessage-deflate on the live feed when the client offers it
  std::string ready_file;    // when set: the bound address is written there once listening
  std::string web_root;      // the pages' files (client/web); empty: the built-in default
  std::string backup_dir;    // where POST /v1/backup puts checkpoints; empty: DATA/backups
  std::string tls_cert;      // PEM certificate (chain); with tls_key: serve HTTPS and WSS only
  std::string tls_key;       // the PEM private key of tls_cert
  std::uint64_t min_free_space_mib = 128;  // writes answer 503 while the disk has less free
  // A follower of this primary (URL, e.g. http://10.0.0.5:8080): copies its log, serves reads,
  // answers writes 503 with Tally-Primary. Empty: this server is a primary.
  std::string follow;
  std::string follow_token_file;  // the replica token the follower reads the primary's log with
  std::string follow_ca_file;     // PEM the primary's certificate is checked against (https)
  // A synchronous standby: a write is answered once this many followers have it on disk.
  unsigned replicas_ack = 0;
  std::chrono::seconds replicas_ack_timeout{10};  // how long an answer waits for them (then 503)
  bool replicas_ack_alone = false;  // replicas_ack_missing = alone: go on without a gone standby

  // Reads `--key value` flags and the `key = value` lines of `--config FILE` (a flag wins over
  // the file wherever it stands; within one of them the last occurrence wins). Throws ConfigError.
  static Config from_args(const std::vector<std::string>& args);
  // Applies one setting by its key. Throws ConfigError for an unknown key or a bad value.
  void set(const std::string& key, const std::string& value);

  bool operator==(const Config&) const = default;
};

// One setting: its key (the file's key, the flag without `--`), the kind of value --help shows,
// its default as --help shows it, one line for --help, and how a value is applied (throws
// ConfigError naming the key for a bad value).
struct Setting {
  std::string_view key;
  std::string_view kind;
  std::string_view default_text;
  std::string_view description;
  std::function<void(Config&, const std::string& value)> apply;
};

// Every setting, in the order --help lists them.
const std::vector<Setting>& settings();

// `--help`'s list of the settings (and --config), one per setting with its default.
std::string settings_help();

struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The files the store, the logs and the listener may hold open besides connections.
inline constexpr std::size_t kFilesBesideConnections = 256;

// max_connections + max_screens, which are sockets, must fit under the process's open-file limit
// `open_files` (less kFilesBesideConnections): if they do not, both are lowered in proportion and
// a warning says so (else the accept loop would run out of descriptors under load). Throws
// ConfigError when the limit leaves fewer than 16 connections.
void fit_connections_to_open_files(Config& config, std::size_t open_files);

// "127.0.0.1:8080" → host and port. Throws ConfigError.
std::pair<std::string, std::uint16_t> split_address(const std::string& address);

}  // namespace tally::daemon
