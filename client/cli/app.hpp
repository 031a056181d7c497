// `tally`'s front door: finds the command named by the first words of the command line, parses
// its options, resolves the settings and runs it; prints help for every command and group.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace tally::cli {

// Runs `tally` with `arguments` (without the program name). Returns the exit code.
int run_cli(const std::vector<std::string>& arguments, std::istream& in, std::ostream& out,
            std::ostream& err, bool stdin_is_terminal, bool stdout_is_terminal);

}  // namespace tally::cli
