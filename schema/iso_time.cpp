#include "schema/iso_time.hpp"

#include <cstdio>
#include <ctime>
#include <optional>

namespace tally::schema {

std::string iso_time(std::int64_t micros) {
  // gmtime_r and strftime cost more than the rest of a log line, and most calls on a thread fall
  // in the second of the one before: that second's text is kept.
  thread_local std::optional<std::time_t> cached_second;
  thread_local char cached_text[40];
  std::time_t seconds = static_cast<std::time_t>(micros / 1000000);
  if (cached_second != seconds) {
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    std::strftime(cached_text, sizeof cached_text, "%Y-%m-%dT%H:%M:%S", &utc);
    cached_second = seconds;
  }
  char millis[8];
  std::snprintf(millis, sizeof millis, ".%03dZ", static_cast<int>((micros / 1000) % 1000));
  return std::string(cached_text) + millis;
}

}  // namespace tally::schema
