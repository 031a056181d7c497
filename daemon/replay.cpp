#include "daemon/replay.hpp"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace tally::daemon {

namespace {

// Batches of decoded events from the reading thread to the folding one, at most `kMaxBatches`
// waiting (so the reader cannot run ahead and fill memory).
class BatchQueue {
 public:
  static constexpr std::size_t kBatch = 1024;
  static constexpr std::size_t kMaxBatches = 16;
  using Batch = std::vector<schema::StoredEvent>;

  void push(Batch batch) {
    std::unique_lock lock(mutex_);
    room_.wait(lock, [&] { return batches_.size() < kMaxBatches; });
    batches_.push_back(std::move(batch));
    ready_.notify_one();
  }

  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    ready_.notify_one();
  }

  // An empty batch: closed and drained.
  Batch pop() {
    std::unique_lock lock(mutex_);
    ready_.wait(lock, [&] { return closed_ || !batches_.empty(); });
    if (batches_.empty()) return {};
    Batch batch = std::move(batches_.front());
    batches_.pop_front();
    room_.notify_one();
    return batch;
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_, room_;
  std::deque<Batch> batches_;  // GUARDED_BY(mutex_)
  bool closed_ = false;        // GUARDED_BY(mutex_)
};

}  // namespace

std::uint64_t replay(const events::EventStore& store, LiveState& state,
                     const std::function<void(const ReplayProgress&)>& progress) {
  auto view = store.read_view();
  ReplayProgress done{0, view.head().seq};
  if (done.total == 0) return 0;

  BatchQueue queue;
  std::thread reader([&] {
    BatchQueue::Batch batch;
    batch.reserve(BatchQueue::kBatch);
    view.scan(1, [&](const schema::StoredEvent& event) {
      batch.push_back(event);
      if (batch.size() == BatchQueue::kBatch) {
        queue.push(std::move(batch));
        batch = {};
        batch.reserve(BatchQueue::kBatch);
      }
      return true;
    });
    if (!batch.empty()) queue.push(std::move(batch));
    queue.close();
  });

  auto last_report = std::chrono::steady_clock::now();
  for (auto batch = queue.pop(); !batch.empty(); batch = queue.pop()) {
    state.apply(batch);
    done.events += batch.size();
    if (progress && std::chrono::steady_clock::now() - last_report > std::chrono::seconds(2)) {
      progress(done);
      last_report = std::chrono::steady_clock::now();
    }
  }
  reader.join();
  return done.events;
}

}  // namespace tally::daemon
