// A tallyd server's address as a person writes it: "http://host:port", "https://host", "host:port".
// Used by the CLI, the load generator and a follower (tallyd --follow URL).
//
// Thread safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <variant>

namespace tally::net {

struct ServerAddress {
  std::string host;
  std::uint16_t port = 80;
  bool tls = false;  // https: the server's certificate is verified, host name included
  std::string url;   // as normalised: http://host:port or https://host:port
};

// Why an address was refused: a message catalog key ("cli.server.bad_url", "…bad_ipv6",
// "…bad_address", "…bad_port") taking the argument {url}.
struct AddressProblem {
  std::string key;
};

// "http://host:port", "http://host" (port 80), "https://host[:port]" (port 443), "host:port";
// a path, user info or a bad port is an AddressProblem.
std::variant<ServerAddress, AddressProblem> parse_server_address(const std::string& url);

}  // namespace tally::net
