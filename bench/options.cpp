#include "bench/options.hpp"

#include <charconv>
#include <cstdlib>
#include <iostream>
#include <stdexcept>

namespace tally::bench {

namespace po = boost::program_options;

BenchOptions::BenchOptions(std::string program, const std::string& what)
    : program_(std::move(program)), options_(program_ + " — " + what + "\n\nOptions") {
  options_.add_options()("help", "these options and their defaults");
}

BenchOptions& BenchOptions::add(const char* name, std::string& target, const char* help) {
  auto* value = po::value<std::string>(&target);
  if (!target.empty()) value->default_value(target);
  options_.add_options()(name, value, help);
  return *this;
}

void BenchOptions::parse(int argc, char** argv) {
  po::variables_map values;
  try {
    po::store(po::command_line_parser(argc, argv)
                  .options(options_)
                  .positional(positional_)
                  .style(po::command_line_style::allow_long |
                         po::command_line_style::long_allow_adjacent |
                         po::command_line_style::long_allow_next)
                  .run(),
              values);
    if (values.count("help")) {
      std::cout << options_;
      std::exit(0);
    }
    po::notify(values);  // writes the targets
  } catch (const po::error& e) {
    fail(e.what());
  }
}

void BenchOptions::fail(const std::string& message) const {
  std::cerr << program_ << ": " << message << "\n\n" << options_;
  std::exit(2);
}

void split_server(const std::string& address, std::string& host, std::uint16_t& port) {
  auto colon = address.rfind(':');
  std::uint16_t number = 0;
  if (colon == std::string::npos) throw std::invalid_argument("not host:port: " + address);
  const char* end = address.data() + address.size();
  auto [at, ec] = std::from_chars(address.data() + colon + 1, end, number);
  if (ec != std::errc() || at != end) throw std::invalid_argument("not host:port: " + address);
  host = address.substr(0, colon);
  port = number;
}

}  // namespace tally::bench
