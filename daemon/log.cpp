#include "daemon/log.hpp"

#include "daemon/views.hpp"

#include <boost/json.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>

namespace tally::daemon::log {

namespace {
std::atomic<Level> threshold{Level::info};
std::mutex out;

const char* name(Level level) {
  switch (level) {
    case Level::debug:
      return "debug";
    case Level::info:
      return "info";
    case Level::warn:
      return "warn";
    case Level::error:
      return "error";
  }
  return "info";
}
}  // namespace

void set_level(Level level) { threshold = level; }

void write(Level level, std::string_view message, boost::json::object fields) {
  if (level < threshold.load()) return;
  using namespace std::chrono;
  auto now = duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
  boost::json::object line{{"ts", iso_time(now)}, {"level", name(level)}, {"msg", message}};
  for (auto& [k, v] : fields) line[k] = std::move(v);
  std::string text = boost::json::serialize(line);
  text += '\n';
  std::lock_guard lock(out);
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

}  // namespace tally::daemon::log
