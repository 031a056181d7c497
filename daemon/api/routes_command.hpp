// `tallyd routes`: every route of the API with its method, path and who may use it, from the
// same table the daemon routes and authorizes with (Api::routes()), so that the API's docs can be
// checked against it (tests/deploy: docs/api.md's "Routes" table).
#pragma once

#include <string>
#include <vector>

namespace tally::daemon {

// True when `args` (argv without the program) is `routes …`.
bool is_routes_command(const std::vector<std::string>& args);
// Prints the routes (`--markdown`: as docs/api.md's table); returns the exit code.
int run_routes_command(const std::vector<std::string>& args);

}  // namespace tally::daemon
