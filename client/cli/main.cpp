// tally: the judges' and organizers' command line for tallyd (see docs/cli.md).
#include "client/cli/app.hpp"

#include <iostream>

#include <unistd.h>

int main(int argc, char** argv) {
  std::vector<std::string> arguments(argv + 1, argv + argc);
  return tally::cli::run_cli(arguments, std::cin, std::cout, std::cerr, ::isatty(STDIN_FILENO) == 1,
                             ::isatty(STDOUT_FILENO) == 1);
}
