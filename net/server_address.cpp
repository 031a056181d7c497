#include "net/server_address.hpp"

#include <exception>
#include <string>

namespace tally::net {

std::variant<ServerAddress, AddressProblem> parse_server_address(const std::string& url) {
  std::string rest = url;
  ServerAddress out;
  if (rest.rfind("https://", 0) == 0) {
    out.tls = true;
    out.port = 443;
    rest = rest.substr(8);
  } else if (rest.rfind("http://", 0) == 0) {
    rest = rest.substr(7);
  }
  while (!rest.empty() && rest.back() == '/') rest.pop_back();
  if (rest.empty() || rest.find('/') != std::string::npos || rest.find('@') != std::string::npos) {
    return AddressProblem{"cli.server.bad_url"};
  }
  std::string port_text;
  if (rest.front() == '[') {  // [::1]:8080
    auto close = rest.find(']');
    if (close == std::string::npos) {
      return AddressProblem{"cli.server.bad_ipv6"};
    }
    out.host = rest.substr(1, close - 1);
    if (close + 1 < rest.size()) {
      if (rest[close + 1] != ':') {
        return AddressProblem{"cli.server.bad_address"};
      }
      port_text = rest.substr(close + 2);
    }
  } else if (auto colon = rest.rfind(':'); colon != std::string::npos) {
    out.host = rest.substr(0, colon);
    port_text = rest.substr(colon + 1);
  } else {
    out.host = rest;
  }
  if (!port_text.empty()) {
    unsigned long port = 0;
    try {
      std::size_t used = 0;
      port = std::stoul(port_text, &used);
      if (used != port_text.size()) port = 0;
    } catch (const std::exception&) {
      port = 0;
    }
    if (port == 0 || port > 65535) {
      return AddressProblem{"cli.server.bad_port"};
    }
    out.port = static_cast<std::uint16_t>(port);
  }
  if (out.host.empty()) return AddressProblem{"cli.server.bad_url"};
  bool ipv6 = out.host.find(':') != std::string::npos;
  out.url = std::string(out.tls ? "https://" : "http://") +
            (ipv6 ? "[" + out.host + "]" : out.host) + ":" + std::to_string(out.port);
  return out;
}

}  // namespace tally::net
