#include "daemon/http/io_pool.hpp"

#include <thread>

namespace tally::daemon {

IoPool::IoPool(unsigned threads) {
  for (unsigned i = 0; i < std::max(1u, threads); ++i) {
    // One thread runs each: Asio may leave out the locking a shared context needs between threads
    // that run it (posts from other threads still lock).
    contexts_.push_back(std::make_unique<boost::asio::io_context>(1));
    work_.push_back(boost::asio::make_work_guard(*contexts_.back()));
  }
}

IoPool::~IoPool() = default;

boost::asio::io_context& IoPool::next() {
  return *contexts_[next_.fetch_add(1, std::memory_order_relaxed) % contexts_.size()];
}

void IoPool::run(const std::function<void(boost::asio::io_context&)>& run_one) {
  std::vector<std::thread> threads;
  for (std::size_t i = 1; i < contexts_.size(); ++i) {
    threads.emplace_back([&run_one, &context = *contexts_[i]] { run_one(context); });
  }
  run_one(first());
  for (auto& t : threads) t.join();
}

void IoPool::stop() {
  work_.clear();
  for (auto& context : contexts_) context->stop();
}

}  // namespace tally::daemon
