// Structured logs: one JSON object per line on stderr, e.g.
//   {"ts":"2026-11-30T14:32:05.123Z","level":"info","msg":"request","route":"…","status":201}
// Tokens and secrets are never passed here (the organizer token's path is logged, not the token).
//
// Lines below warn are written in batches, at most 50 ms after they are logged (a busy server
// would otherwise make a write(2) per request); warnings and errors are written at once, after
// the lines before them, and whatever waits is written at exit (flush() forces it).
//
// Thread safety: safe from any thread; lines never interleave.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <string_view>

namespace tally::daemon::log {

enum class Level { debug, info, warn, error };

void set_level(Level level);
void write(Level level, std::string_view message, boost::json::object fields = {});
// The line of one answered request (info, "request"): written member by member, as
// info("request", {...}) would write the same members, without building the object — one such
// line per request was ~5% of a table write's instructions.
struct RequestLine {
  std::string_view request_id;
  std::string_view judge;
  std::string_view method;
  std::string_view route;
  int status = 0;
  std::int64_t latency_us = 0;
};
void request(const RequestLine& line);
// Writes the lines still waiting.
void flush();
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
