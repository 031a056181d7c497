// The benchmarks' command lines: one small helper over Boost.Program_options instead of an argv
// loop in each program. Flags are `--name value`; `--help` prints them with their defaults.
//
//   BenchOptions options("tally-loadgen", "judges and screens against a running tallyd");
//   options.add("writers", o.writers, "judges writing at once");
//   options.parse(argc, argv);  // prints --help or an error (exit 0 or 2)
//
// Thread safety: one thread, at start.
#pragma once

#include <boost/program_options.hpp>

#include <string>

namespace tally::bench {

class BenchOptions {
 public:
  BenchOptions(std::string program, const std::string& what);

  // `--name VALUE` into `target`, whose value now is the default --help shows.
  template <typename T>
  BenchOptions& add(const char* name, T& target, const char* help) {
    options_.add_options()(name, boost::program_options::value<T>(&target)->default_value(target),
                           help);
    return *this;
  }
  // `--name VALUE` with no default (empty when not given).
  BenchOptions& add(const char* name, std::string& target, const char* help);
  // The one word that is not a flag (e.g. the number of events) goes into `target`.
  template <typename T>
  BenchOptions& positional(const char* name, T& target, const char* help) {
    add(name, target, help);
    positional_.add(name, 1);
    return *this;
  }

  // Reads argv into the targets. `--help`: prints the flags and exits 0; an unknown flag, a
  // missing or bad value: says so on stderr and exits 2.
  void parse(int argc, char** argv);

  // For checks after parse(): says `message` with the usage on stderr and exits 2.
  [[noreturn]] void fail(const std::string& message) const;

 private:
  std::string program_;
  boost::program_options::options_description options_;
  boost::program_options::positional_options_description positional_;
};

// "host:port" → host and port (the --server flags). Throws std::invalid_argument.
void split_server(const std::string& address, std::string& host, std::uint16_t& port);

}  // namespace tally::bench
