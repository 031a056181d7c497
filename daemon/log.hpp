// Structured logs: one JSON object per line on stderr, e.g.
//   {"ts":"2026-11-30T14:32:05.123Z","level":"info","msg":"request","route":"…","status":201}
// Tokens and secrets are never passed here (the organizer token's path is logged, not the token).
//
// Thread safety: each line is written with one call under a lock; safe from any thread.
#pragma once

#include <boost/json/object.hpp>

#include <string_view>

namespace tally::daemon::log {

enum class Level { debug, info, warn, error };

void set_level(Level level);
void write(Level level, std::string_view message, boost::json::object fields = {});
inline void info(std::string_view m, boost::json::object f = {}) {
  write(Level::info, m, std::move(f));
}
inline void warn(std::string_view m, boost::json::object f = {}) {
  write(Level::warn, m, std::move(f));
}
inline void error(std::string_view m, boost::json::object f = {}) {
  write(Level::error, m, std::move(f));
}

}  // namespace tally::daemon::log
