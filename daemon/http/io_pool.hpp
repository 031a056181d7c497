// The API's I/O threads: one io_context per thread, and each connection on one of them for its
// whole life. A connection's reads, handler, store completion and answer then all run on the
// same thread, one after the other, with no strand and no hand-over between threads except the
// store's completion.
//
// Why not one io_context run by every thread: its threads share one queue under one mutex, and
// the idle one sleeps on a condition variable that every post signals. Measured with 64 judges on
// 2 cores, those wake-ups were most of the futex calls (three per request) and a sixth of the
// CPU went to switching threads.
//
// Thread safety: next() may be called from any thread; run() and stop() once each.
#pragma once

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace tally::daemon {

class IoPool {
 public:
  explicit IoPool(unsigned threads);
  ~IoPool();
  IoPool(const IoPool&) = delete;
  IoPool& operator=(const IoPool&) = delete;

  // The first context: the listener's, and the one signals and timers of the process use.
  boost::asio::io_context& first() { return *contexts_.front(); }
  // The context for a new connection: round robin over all.
  boost::asio::io_context& next();
  std::size_t size() const { return contexts_.size(); }

  // Runs every context on a thread of its own (the calling thread runs the first) until stop().
  // `run_one` runs a context to its end: where the caller decides what an uncaught exception does.
  void run(const std::function<void(boost::asio::io_context&)>& run_one);
  // Lets run() return: every context stops, handlers still queued are dropped.
  void stop();

 private:
  using WorkGuard = boost::asio::executor_work_guard<boost::asio::io_context::executor_type>;
  std::vector<std::unique_ptr<boost::asio::io_context>> contexts_;
  std::vector<WorkGuard> work_;  // keeps run() going while no connection is open
  std::atomic<std::size_t> next_{0};
};

}  // namespace tally::daemon
