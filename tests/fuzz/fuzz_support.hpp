// What the fuzz targets share: reading the input as JSON the way the daemon reads a body, and
// FUZZ_CHECK, which stops the run with a report (and a crash libFuzzer records) when an
// invariant does not hold.
#pragma once

#include "projections/rational.hpp"

#include <boost/json.hpp>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string_view>

// An invariant: its failure is a bug, reported as a crash with the input that found it.
#define FUZZ_CHECK(cond)                                                                      \
  do {                                                                                        \
    if (!(cond)) {                                                                            \
      std::fprintf(stderr, "fuzz invariant failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
      __builtin_trap();                                                                       \
    }                                                                                         \
  } while (0)

namespace tally::fuzz {

namespace json = boost::json;

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// The input as JSON with the daemon's limits (daemon/http/body.cpp parse_object: depth 32), or
// nullopt when it is not JSON.
inline std::optional<json::value> parse_json(std::string_view text) {
  boost::system::error_code ec;
  json::parse_options options;
  options.max_depth = 32;
  json::value value = json::parse(text, ec, {}, options);
  if (ec) return std::nullopt;
  return value;
}

// {"value":2.5,"exact":"5/2"} (Rational::to_json) back to the exact value.
inline Rational exact_of(const json::value& points) {
  return Rational::parse(std::string(points.at("exact").as_string()));
}

}  // namespace tally::fuzz
