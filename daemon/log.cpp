#include "daemon/log.hpp"

#include "daemon/api/views.hpp"

#include <boost/json.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>

namespace tally::daemon::log {

namespace {
std::atomic<Level> threshold{Level::info};

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

// Where the lines go: stderr, in one write per batch of lines. Lines below warn wait up to
// kDelay (or until kBatchBytes have gathered) so that a busy server makes one write(2) every
// 50 ms instead of one per request; a warning or an error writes at once, with the lines before
// it, so the order is kept. Whatever waits is written at exit.
class Sink {
 public:
  static Sink& instance() {
    // Never destroyed: threads may still log while static objects are torn down at exit.
    static Sink* sink = [] {
      auto* s = new Sink;
      std::atexit([] { instance().write_now(); });
      return s;
    }();
    return *sink;
  }

  void add(const std::string& line, bool urgent) {
    std::unique_lock lock(mutex_);
    bool was_empty = pending_.empty();
    pending_ += line;
    if (urgent || pending_.size() >= kBatchBytes) return write_locked();
    if (!flusher_started_) {
      flusher_started_ = true;
      std::thread([this] { flush_forever(); }).detach();
    }
    if (was_empty) lines_waiting_.notify_one();
  }

  void write_now() {
    std::lock_guard lock(mutex_);
    write_locked();
  }

 private:
  static constexpr std::size_t kBatchBytes = 64 * 1024;
  static constexpr auto kDelay = std::chrono::milliseconds(50);

  void flush_forever() {
    for (;;) {
      {
        std::unique_lock lock(mutex_);
        lines_waiting_.wait(lock, [this] { return !pending_.empty(); });
      }
      std::this_thread::sleep_for(kDelay);  // let the lines of the next 50 ms join
      write_now();
    }
  }

  void write_locked() {
    if (pending_.empty()) return;
    std::fwrite(pending_.data(), 1, pending_.size(), stderr);
    std::fflush(stderr);
    pending_.clear();
  }

  std::mutex mutex_;
  std::condition_variable lines_waiting_;
  std::string pending_;  // GUARDED_BY(mutex_)
  bool flusher_started_ = false;
};
}  // namespace

void set_level(Level level) { threshold = level; }

namespace {

// The members every line starts with: when, how bad, what.
void begin_line(text::JsonWriter& line, Level level, std::string_view message) {
  using namespace std::chrono;
  auto now = duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
  line.begin_object();
  line.key("ts").string(iso_time(now));
  line.key("level").string(name(level));
  line.key("msg").string(message);
}

void end_line(std::string& text, text::JsonWriter& line, Level level) {
  line.end_object();
  text += '\n';
  Sink::instance().add(text, level >= Level::warn);
}

}  // namespace

void write(Level level, std::string_view message, boost::json::object fields) {
  if (level < threshold.load()) return;
  // Written out member by member, in the bytes boost::json::serialize would write.
  std::string text;
  text.reserve(256);
  text::JsonWriter line(text);
  begin_line(line, level, message);
  for (const auto& [key, value] : fields) line.key(key).value(value);
  end_line(text, line, level);
}

void request(const RequestLine& request) {
  if (Level::info < threshold.load()) return;
  // The same members as log::info("request", {...}) would write, without the object.
  std::string text;
  text.reserve(256);
  text::JsonWriter line(text);
  begin_line(line, Level::info, "request");
  line.key("request_id").string(request.request_id);
  line.key("judge").string(request.judge);
  line.key("method").string(request.method);
  line.key("route").string(request.route);
  line.key("status").number(std::int64_t{request.status});
  line.key("latency_us").number(request.latency_us);
  end_line(text, line, Level::info);
}

void flush() { Sink::instance().write_now(); }

}  // namespace tally::daemon::log
