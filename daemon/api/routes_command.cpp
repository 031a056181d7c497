#include "daemon/api/routes_command.hpp"

#include "daemon/api/api.hpp"
#include "daemon/http/authorization.hpp"

#include <iomanip>
#include <iostream>

namespace tally::daemon {

bool is_routes_command(const std::vector<std::string>& args) {
  return !args.empty() && args[0] == "routes";
}

int run_routes_command(const std::vector<std::string>& args) {
  const bool markdown = args.size() == 2 && args[1] == "--markdown";
  if (args.size() > 2 || (args.size() == 2 && !markdown)) {
    std::cerr << "usage: tallyd routes [--markdown]\n";
    return 2;
  }
  struct Line {
    std::string method, path, roles;
  };
  std::vector<Line> lines;
  for (const auto& spec : Api::routes()) {
    lines.push_back(
        {std::string(http::to_string(spec.method)), spec.pattern, roles_of(spec.access)});
  }
  lines.push_back(
      {"GET", std::string(Api::kLiveFeedRoute) + " (WebSocket)", roles_of(Api::kLiveFeedAccess)});
  if (markdown) {
    std::cout << "| method | path | who |\n|---|---|---|\n";
    for (const auto& l : lines)
      std::cout << "| " << l.method << " | `" << l.path << "` | " << l.roles << " |\n";
    return 0;
  }
  for (const auto& l : lines) {
    std::cout << std::left << std::setw(7) << l.method << std::setw(68) << l.path << l.roles
              << "\n";
  }
  return 0;
}

}  // namespace tally::daemon
