#include "daemon/replay.hpp"

#include "daemon/warm_pages.hpp"
#include "events/keys.hpp"

#include <kj/exception.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tally::daemon {

namespace {

// ~55 MiB of heap growth (docs/performance.md: ~560 bytes per event).
constexpr std::uint64_t kWarmHeapFromEvents = 100'000;

// Events as the log holds them, copied out of RocksDB back to back. The reading thread only
// copies; the folding thread decodes, which allocates one block per event (most of which the
// projections keep). Decoding on the reading thread made it the slower half: blocks it allocated
// and the folding thread freed kept both waiting on the allocator's lock.
struct EncodedBatch {
  static constexpr std::size_t kMaxEvents = 1024;
  static constexpr std::size_t kMaxBytes = 1 << 20;  // events are usually far smaller

  struct Entry {
    std::uint64_t seq;
    std::size_t offset;  // of the hash in `bytes`; the encoded event follows it
    std::size_t size;    // of the encoded event
  };
  std::string bytes;
  std::vector<Entry> entries;

  bool full() const { return entries.size() == kMaxEvents || bytes.size() >= kMaxBytes; }
  void add(const events::EncodedEvent& e) {
    entries.push_back({e.seq, bytes.size(), e.bytes.size()});
    bytes.append(e.hash).append(e.bytes);
  }
  schema::StoredEvent decode(const Entry& entry) const {
    std::string_view record = std::string_view(bytes).substr(entry.offset);
    schema::Digest hash = events::keys::digest_at(record);
    return {entry.seq, hash, record.substr(hash.size(), entry.size)};
  }
  void clear() {
    bytes.clear();  // keeps the capacity: the batch goes round again
    entries.clear();
  }
};

// A fixed set of batches going round between the two threads: the reader fills an empty one and
// hands it over, the folder folds a full one and hands it back. Memory stays bounded (the reader
// waits when every batch is full) and nothing is allocated once each batch has grown.
class BatchRing {
 public:
  static constexpr std::size_t kBatches = 8;

  BatchRing() : batches_(kBatches) {
    for (auto& b : batches_) empty_.push_back(&b);
  }

  // Reader side. Null once the folder has stopped.
  EncodedBatch* take_empty() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return stopped_ || !empty_.empty(); });
    if (stopped_) return nullptr;
    EncodedBatch* batch = empty_.front();
    empty_.pop_front();
    return batch;
  }
  void put_full(EncodedBatch* batch) { put(full_, batch); }
  void close() { set(closed_); }

  // Folder side. Null once the reader has closed and every full batch is taken.
  EncodedBatch* take_full() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return closed_ || !full_.empty(); });
    if (full_.empty()) return nullptr;
    EncodedBatch* batch = full_.front();
    full_.pop_front();
    return batch;
  }
  void put_empty(EncodedBatch* batch) {
    batch->clear();
    put(empty_, batch);
  }
  void stop() { set(stopped_); }

 private:
  void put(std::deque<EncodedBatch*>& to, EncodedBatch* batch) {
    std::lock_guard lock(mutex_);
    to.push_back(batch);
    changed_.notify_all();
  }
  void set(bool& flag) {
    std::lock_guard lock(mutex_);
    flag = true;
    changed_.notify_all();
  }

  std::vector<EncodedBatch> batches_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<EncodedBatch*> empty_, full_;  // GUARDED_BY(mutex_)
  bool closed_ = false;                     // GUARDED_BY(mutex_): the reader is done
  bool stopped_ = false;                    // GUARDED_BY(mutex_): the folder gave up (threw)
};

DamagedLog damaged(const std::string& where, const kj::Exception& e) {
  return DamagedLog(events::damaged_log_message(where, e.getDescription().cStr()));
}

void read_log(const events::ReadView& view, BatchRing& ring) {
  EncodedBatch* batch = ring.take_empty();
  if (batch != nullptr) {
    view.scan_encoded(1, [&](const events::EncodedEvent& event) {
      batch->add(event);
      if (!batch->full()) return true;
      ring.put_full(batch);
      batch = ring.take_empty();
      return batch != nullptr;
    });
  }
  if (batch != nullptr && !batch->entries.empty()) ring.put_full(batch);
  ring.close();
}

}  // namespace

std::uint64_t replay(const events::EventStore& store, LiveState& state,
                     const std::function<void(const ReplayProgress&)>& progress) {
  auto view = store.read_view();
  ReplayProgress done{0, view.head().seq};
  if (done.total == 0) return 0;

  // The heap's first touches, made ahead on the other core while the fold grows it; not for a
  // short log, whose projections grow the heap by a few tens of MiB at most.
  HeapWarming warming(done.total >= kWarmHeapFromEvents);
  BatchRing ring;
  std::thread reader([&] { read_log(view, ring); });
  // Whatever the fold throws (an event that does not decode), the reader stops and is joined.
  struct JoinReader {
    BatchRing& ring;
    std::thread& reader;
    ~JoinReader() {
      ring.stop();
      reader.join();
    }
  } join_reader{ring, reader};

  std::vector<schema::StoredEvent> decoded;
  decoded.reserve(EncodedBatch::kMaxEvents);
  auto last_report = std::chrono::steady_clock::now();
  while (EncodedBatch* batch = ring.take_full()) {
    for (const auto& entry : batch->entries) {
      try {
        decoded.push_back(batch->decode(entry));
      } catch (const kj::Exception& e) {
        throw damaged("event " + std::to_string(entry.seq), e);
      }
    }
    ring.put_empty(batch);
    try {
      state.apply(decoded);
    } catch (const kj::Exception& e) {
      // An event of several segments is read lazily: a damaged field shows when the fold reaches
      // it (one of a single segment was checked whole when it was decoded).
      throw damaged("one of events " + std::to_string(decoded.front().seq()) + "–" +
                        std::to_string(decoded.back().seq()),
                    e);
    }
    done.events += decoded.size();
    decoded.clear();
    warming.progress(done.events, done.total);
    if (progress && std::chrono::steady_clock::now() - last_report > std::chrono::seconds(2)) {
      progress(done);
      last_report = std::chrono::steady_clock::now();
    }
  }
  return done.events;
}

}  // namespace tally::daemon
