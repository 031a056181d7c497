#include "events/store.hpp"

#include "events/keys.hpp"

#include <capnp/serialize.h>
#include <kj/exception.h>
#include <rocksdb/db.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/table.h>
#include <rocksdb/utilities/checkpoint.h>
#include <rocksdb/write_batch.h>

#include <sys/statvfs.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <future>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_map>

namespace tally::events {

namespace {

enum Family : std::size_t { kDefault, kLog, kStreams, kIdempotency, kMeta, kFamilies };
const char* const kFamilyNames[kFamilies] = {"default", "log", "streams", "idempotency", "meta"};

std::int64_t now_micros() {
  using namespace std::chrono;
  return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}

std::string_view as_view(const rocksdb::Slice& s) { return {s.data(), s.size()}; }

std::string flat_bytes(capnp::MessageBuilder& message) {
  auto words = capnp::messageToFlatArray(message);
  auto bytes = words.asBytes();
  return std::string(reinterpret_cast<const char*>(bytes.begin()), bytes.size());
}

bool valid_stream_name(std::string_view stream) {
  return !stream.empty() && stream.find('\0') == std::string_view::npos;
}

struct Pending {
  AppendRequest request;
  EventStore::Completion done;
};

// Where in the memtable the next key of a family goes, as RocksDB's insert hints see it: keys with
// the same "prefix" are inserted after the last one with that prefix, so the skiplist starts its
// search from there instead of from the top (a quarter of the writer's instructions went to
// that search). The log's keys (seq) and the stream index's keys of one stream (stream '\0'
// version) only ever grow, so one hint per family, and one per stream, land next to the last key.
class InsertHint : public rocksdb::SliceTransform {
 public:
  enum class Scope { family, stream };
  explicit InsertHint(Scope scope) : scope_(scope) {}
  const char* Name() const override {
    return scope_ == Scope::family ? "tally.InsertHint.family" : "tally.InsertHint.stream";
  }
  rocksdb::Slice Transform(const rocksdb::Slice& key) const override {
    if (scope_ == Scope::family) return rocksdb::Slice(key.data(), 0);
    return rocksdb::Slice(key.data(), as_view(key).find('\0') + 1);
  }
  bool InDomain(const rocksdb::Slice& key) const override {
    return scope_ == Scope::family || as_view(key).find('\0') != std::string_view::npos;
  }

 private:
  Scope scope_;
};

}  // namespace

// 256 words (2 KiB) hold a table's result or scoring in one segment; Cap'n Proto's default
// first segment is 8 KiB, zeroed, for every draft. A larger event just grows a second segment.
std::string damaged_log_message(std::string_view which, std::string_view why) {
  return "the log is damaged: " + std::string(which) + " cannot be read (" + std::string(why) +
         "); restore the last backup or re-import an export (docs/operations.md)";
}

DamagedEvent::DamagedEvent(std::uint64_t seq, std::string_view why)
    : std::runtime_error(damaged_log_message("event " + std::to_string(seq), why)), seq_(seq) {}

namespace {

// An event read from the log, decoded; one that does not decode is a DamagedEvent.
StoredEvent decode_stored(std::uint64_t seq, std::string_view hash, std::string_view bytes) {
  try {
    return StoredEvent(seq, keys::digest_at(hash), bytes);
  } catch (const kj::Exception& e) {
    throw DamagedEvent(seq, e.getDescription().cStr());
  }
}

}  // namespace

struct EventStore::Impl {
  StoreOptions options;
  std::string dir;
  std::unique_ptr<rocksdb::DB> db;
  std::vector<rocksdb::ColumnFamilyHandle*> families;

  // The head as of the last durable batch. Written by the writer thread; read by head().
  mutable std::mutex head_mutex;
  Head head;  // GUARDED_BY(head_mutex)

  // Writer-thread state: the current version of every stream touched since open, and the time
  // of the last event (event times never go backwards).
  std::unordered_map<std::string, std::uint64_t> versions;
  std::int64_t last_time = 0;
  bool last_write_failed = false;

  std::mutex queue_mutex;
  std::condition_variable queue_ready;
  std::deque<Pending> queue;  // GUARDED_BY(queue_mutex)
  bool stopping = false;      // GUARDED_BY(queue_mutex)

  std::mutex subscribers_mutex;
  std::map<std::uint64_t, Subscriber> subscribers;  // GUARDED_BY(subscribers_mutex)
  std::uint64_t next_subscriber = 1;                // GUARDED_BY(subscribers_mutex)

  // Tells every subscriber of `events`, in order: the subscribers as they are now, called outside
  // the lock (a subscriber may subscribe or unsubscribe another).
  void notify(const std::vector<StoredEvent>& events) {
    std::vector<Subscriber> listeners;
    {
      std::lock_guard lock(subscribers_mutex);
      for (auto& [id, s] : subscribers) listeners.push_back(s);
    }
    for (const StoredEvent& event : events) {
      for (auto& listener : listeners) listener(event);
    }
  }

  std::thread writer;

  // Closes the database after its column family handles (RocksDB asserts that none is left),
  // also when open() threw half way. REQUIRES: the writer has stopped.
  ~Impl() {
    if (!db) return;
    for (auto* handle : families) db->DestroyColumnFamilyHandle(handle);
    db->Close();
  }

  rocksdb::ColumnFamilyHandle* cf(Family f) const { return families[f]; }

  void open(const std::string& dir);
  void writer_loop();
  void process(std::vector<Pending>& batch, Sha256& hasher);
  std::optional<std::string> why_appends_are_refused() const;
  std::uint64_t load_version(const std::string& stream);
  std::uint64_t version_of_seq(std::uint64_t seq);
};

void EventStore::Impl::open(const std::string& dir) {
  rocksdb::Options db_options;
  db_options.create_if_missing = options.create_if_missing;
  db_options.create_missing_column_families = true;
  db_options.IncreaseParallelism(2);
  db_options.keep_log_file_num = 5;
  // One thread writes (the writer), so concurrent memtable writes buy nothing; without them,
  // RocksDB uses the insert hints below.
  db_options.allow_concurrent_memtable_write = false;

  rocksdb::BlockBasedTableOptions point_lookups;
  point_lookups.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  auto family_hint = std::make_shared<InsertHint>(InsertHint::Scope::family);

  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (std::size_t f = 0; f < kFamilies; ++f) {
    rocksdb::ColumnFamilyOptions family;
    if (f == kIdempotency || f == kStreams) {
      family.table_factory.reset(rocksdb::NewBlockBasedTableFactory(point_lookups));
    }
    if (f == kLog || f == kMeta) family.memtable_insert_with_hint_prefix_extractor = family_hint;
    if (f == kStreams) {
      family.memtable_insert_with_hint_prefix_extractor =
          std::make_shared<InsertHint>(InsertHint::Scope::stream);
    }
    descriptors.emplace_back(kFamilyNames[f], family);
  }
  rocksdb::DB* raw = nullptr;
  auto status = options.read_only
                    ? rocksdb::DB::OpenForReadOnly(db_options, dir, descriptors, &families, &raw)
                    : rocksdb::DB::Open(db_options, dir, descriptors, &families, &raw);
  if (!status.ok())
    throw std::runtime_error("event store: cannot open " + dir + ": " + status.ToString());
  db.reset(raw);

  std::string value;
  status = db->Get(rocksdb::ReadOptions(), cf(kMeta), keys::kHeadKey, &value);
  if (status.ok()) {
    head.seq = keys::read_be64(value);
    head.hash = keys::digest_at(std::string_view(value).substr(8));
    std::string last;
    if (db->Get(rocksdb::ReadOptions(), cf(kLog), keys::be64(head.seq), &last).ok()) {
      // A damaged newest event stops the open here (DamagedEvent); ~Impl closes the database.
      last_time =
          decode_stored(head.seq, last, std::string_view(last).substr(32)).event().getRecordedAt();
    }
  } else if (!status.IsNotFound()) {
    throw std::runtime_error("event store: cannot read its head: " + status.ToString());
  }
}

std::uint64_t EventStore::Impl::load_version(const std::string& stream) {
  if (auto it = versions.find(stream); it != versions.end()) return it->second;
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions(), cf(kStreams)));
  std::string prefix = keys::stream_prefix(stream);
  it->SeekForPrev(keys::stream_key(stream, UINT64_MAX));
  std::uint64_t version = 0;
  if (it->Valid() && it->key().starts_with(prefix)) {
    version = keys::read_be64(as_view(it->key()).substr(prefix.size()));
  }
  versions.emplace(stream, version);
  return version;
}

std::uint64_t EventStore::Impl::version_of_seq(std::uint64_t seq) {
  std::string value;
  if (!db->Get(rocksdb::ReadOptions(), cf(kLog), keys::be64(seq), &value).ok()) return 0;
  return decode_stored(seq, value, std::string_view(value).substr(32)).event().getVersion();
}

void EventStore::Impl::writer_loop() {
  Sha256 hasher;
  for (;;) {
    std::vector<Pending> batch;
    {
      std::unique_lock lock(queue_mutex);
      queue_ready.wait(lock, [&] { return stopping || !queue.empty(); });
      if (queue.empty()) return;  // stopping, and everything queued is done
      std::size_t n = std::min(queue.size(), options.max_batch);
      batch.reserve(n);
      for (std::size_t i = 0; i < n; ++i) {
        batch.push_back(std::move(queue.front()));
        queue.pop_front();
      }
    }
    process(batch, hasher);
  }
}

// Why no append can be taken now, if so: a read-only store, or a disk nearly full.
std::optional<std::string> EventStore::Impl::why_appends_are_refused() const {
  if (options.read_only) return "the store is open read-only (its directory is not writable)";
  if (options.min_free_bytes == 0) return std::nullopt;
  struct statvfs disk {};
  if (::statvfs(dir.c_str(), &disk) != 0) return std::nullopt;  // RocksDB will tell
  std::uint64_t free_bytes = static_cast<std::uint64_t>(disk.f_bavail) * disk.f_frsize;
  if (free_bytes >= options.min_free_bytes) return std::nullopt;
  return "not enough free disk space: " + std::to_string(free_bytes >> 20) + " MiB free, " +
         std::to_string(options.min_free_bytes >> 20) + " MiB kept in reserve";
}

// One group commit: decide every request of the batch against the state left by the ones before
// it, write all accepted events in one synced WriteBatch, then publish and acknowledge. When the
// write fails, every answer that rests on an append of the batch is turned into `failed`: the
// appends themselves, and the answers decided against them (`provisional`). Answers decided
// against what was already stored (a duplicate of a stored append, a conflict with a stored
// version, an invalid request) stand.
void EventStore::Impl::process(std::vector<Pending>& batch, Sha256& hasher) {
  if (auto reason = why_appends_are_refused()) {
    for (auto& pending : batch) {
      if (pending.done) pending.done(AppendResult{AppendStatus::failed, 0, 0, 0, *reason});
    }
    return;
  }
  if (last_write_failed) {
    // A failed write leaves RocksDB refusing writes until it is told to resume (e.g. once disk
    // space is back). Try once per batch; if it still fails the batch fails below.
    last_write_failed = !db->Resume().ok();
  }

  Head start;
  {
    std::lock_guard lock(head_mutex);
    start = head;
  }
  Head next = start;
  std::int64_t start_time = last_time;
  std::unordered_map<std::string, std::uint64_t> versions_before;  // for a rollback
  std::unordered_map<std::string, std::pair<keys::IdempotencyValue, std::uint64_t>> keys_in_batch;
  // The requests answered from an earlier append of this batch, which a failed write undoes: a
  // duplicate or mismatch of a key first used in the batch, a conflict with a version the batch
  // made.
  std::vector<std::size_t> provisional;

  rocksdb::WriteBatch write;
  std::vector<AppendResult> results(batch.size());
  std::vector<StoredEvent> appended;

  for (std::size_t i = 0; i < batch.size(); ++i) {
    AppendRequest& request = batch[i].request;
    AppendResult& result = results[i];
    if (!valid_stream_name(request.stream) || request.events.empty()) {
      result.status = AppendStatus::invalid;
      result.error = request.events.empty() ? "an append needs at least one event"
                                            : "a stream name must be non-empty and without NUL";
      continue;
    }
    // What the key remembers of the request; without a key nothing needs it (a hash saved).
    Digest digest{};
    if (!request.idempotency_key.empty()) {
      digest = request.content_digest ? *request.content_digest : default_digest(request);
      std::optional<keys::IdempotencyValue> seen;
      std::uint64_t seen_version = 0;
      if (auto it = keys_in_batch.find(request.idempotency_key); it != keys_in_batch.end()) {
        seen = it->second.first;
        seen_version = it->second.second;
        provisional.push_back(i);
      } else {
        std::string value;
        if (db->Get(rocksdb::ReadOptions(), cf(kIdempotency), request.idempotency_key, &value)
                .ok()) {
          seen = keys::decode_idempotency(value);
          try {
            if (seen) seen_version = version_of_seq(seen->first_seq + seen->count - 1);
          } catch (const DamagedEvent& e) {
            // The writer goes on: only this answer rests on the damaged event.
            result.status = AppendStatus::failed;
            result.error = e.what();
            continue;
          }
        }
      }
      if (seen) {
        if (seen->digest == digest) {
          result.status = AppendStatus::duplicate;
          result.first_seq = seen->first_seq;
          result.last_seq = seen->first_seq + seen->count - 1;
          result.stream_version = seen_version;
        } else {
          result.status = AppendStatus::idempotency_mismatch;
          result.error = "this Idempotency-Key was used with different content";
        }
        continue;
      }
    }

    std::uint64_t current = load_version(request.stream);
    if (!request.expected.accepts(current)) {
      result.status = AppendStatus::version_conflict;
      result.stream_version = current;
      // versions_before holds the streams this batch appended to so far.
      if (versions_before.contains(request.stream)) provisional.push_back(i);
      continue;
    }
    versions_before.emplace(request.stream, current);

    result.first_seq = next.seq + 1;
    for (Draft& draft : request.events) {
      auto event = draft.event();
      event.setSeq(++next.seq);
      event.setStream(request.stream);
      event.setVersion(++current);
      event.setEventId(request.idempotency_key);
      last_time = std::max(last_time, now_micros());
      event.setRecordedAt(last_time);
      event.setPrevHash(capnp::Data::Reader(next.hash.data(), next.hash.size()));
      std::string bytes = flat_bytes(*draft.message_);
      next.hash = hasher.update(next.hash.data(), next.hash.size()).update(bytes).finish();
      write.Put(cf(kLog), keys::be64(next.seq), keys::log_value(next.hash, bytes));
      write.Put(cf(kStreams), keys::stream_key(request.stream, current), keys::be64(next.seq));
      appended.emplace_back(next.seq, next.hash, bytes);
    }
    versions[request.stream] = current;
    result.status = AppendStatus::appended;
    result.last_seq = next.seq;
    result.stream_version = current;
    if (!request.idempotency_key.empty()) {
      keys::IdempotencyValue record{result.first_seq, request.events.size(), digest};
      write.Put(cf(kIdempotency), request.idempotency_key, keys::encode(record));
      keys_in_batch.emplace(request.idempotency_key, std::make_pair(record, current));
    }
  }

  if (!appended.empty()) {
    write.Put(cf(kMeta), keys::kHeadKey, keys::encode_head(next.seq, next.hash));
    rocksdb::WriteOptions write_options;
    write_options.sync = options.sync;
    rocksdb::Status status;
    if (options.fail_write_for_testing) {
      if (auto error = options.fail_write_for_testing()) status = rocksdb::Status::IOError(*error);
    }
    if (status.ok()) status = db->Write(write_options, &write);
    if (!status.ok()) {
      // Nothing of this batch is in the log: undo the in-memory state (the head was never moved),
      // publish nothing, and refuse every append and every answer that rests on one.
      last_write_failed = true;
      last_time = start_time;
      for (auto& [stream, version] : versions_before) versions[stream] = version;
      const AppendResult failed{AppendStatus::failed, 0, 0, 0,
                                "the store could not write: " + status.ToString()};
      for (auto& result : results) {
        if (result.status == AppendStatus::appended) result = failed;
      }
      for (std::size_t i : provisional) results[i] = failed;
      appended.clear();
    } else {
      std::lock_guard lock(head_mutex);
      head = next;
    }
  }

  if (!appended.empty()) notify(appended);

  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (batch[i].done) batch[i].done(std::move(results[i]));
  }
}

EventStore::EventStore(const std::string& dir, StoreOptions options)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = options;
  if (impl_->options.max_batch == 0) impl_->options.max_batch = 1;
  impl_->dir = dir;
  impl_->open(dir);
  impl_->writer = std::thread([this] { impl_->writer_loop(); });
}

EventStore::~EventStore() {
  {
    std::lock_guard lock(impl_->queue_mutex);
    impl_->stopping = true;
  }
  impl_->queue_ready.notify_all();
  impl_->writer.join();
}  // ~Impl closes the database

void EventStore::append_async(AppendRequest request, Completion done) {
  {
    std::lock_guard lock(impl_->queue_mutex);
    impl_->queue.push_back(Pending{std::move(request), std::move(done)});
  }
  impl_->queue_ready.notify_one();
}

void EventStore::flush() {
  // An empty request, which the writer refuses as invalid, queued behind all the others: the
  // writer takes requests in order and answers a batch in order, so its answer comes last.
  append(AppendRequest{});
}

AppendResult EventStore::append(AppendRequest request) {
  // A promise wakes the caller with one futex call; a mutex and condition variable notified under
  // the lock woke it only to block again on the mutex (with 64 writers, a third of the CPU went
  // to context switches).
  std::promise<AppendResult> promise;
  std::future<AppendResult> result = promise.get_future();
  append_async(std::move(request), [&promise](AppendResult r) { promise.set_value(std::move(r)); });
  return result.get();
}

Head EventStore::head() const {
  std::lock_guard lock(impl_->head_mutex);
  return impl_->head;
}

std::uint64_t EventStore::subscribe(Subscriber subscriber) {
  std::lock_guard lock(impl_->subscribers_mutex);
  std::uint64_t id = impl_->next_subscriber++;
  impl_->subscribers.emplace(id, std::move(subscriber));
  return id;
}

void EventStore::unsubscribe(std::uint64_t id) {
  std::lock_guard lock(impl_->subscribers_mutex);
  impl_->subscribers.erase(id);
}

Digest EventStore::default_digest(const AppendRequest& request) {
  Sha256 hasher;
  hasher.update(request.stream).update("\0", 1);
  for (const Draft& draft : request.events) {
    hasher.update(flat_bytes(*draft.message_));
  }
  return hasher.finish();
}

EventStore::CheckpointResult EventStore::checkpoint(const std::string& dir) const {
  CheckpointResult result;
  rocksdb::Checkpoint* raw = nullptr;
  auto status = rocksdb::Checkpoint::Create(impl_->db.get(), &raw);
  std::unique_ptr<rocksdb::Checkpoint> checkpoint(raw);
  if (status.ok()) status = checkpoint->CreateCheckpoint(dir);
  if (!status.ok()) {
    result.error = status.ToString();
    return result;
  }
  // What the copy holds: its own head record, read back from the copy (read-only: the backup
  // stays exactly as RocksDB made it).
  try {
    EventStore copy(dir, StoreOptions{.create_if_missing = false, .read_only = true});
    result.head = copy.head();
    result.ok = true;
  } catch (const std::exception& e) {
    result.error = e.what();
  }
  return result;
}

std::optional<std::string> EventStore::restore(const std::vector<RestoredEvent>& events) {
  if (events.empty()) return std::nullopt;
  auto& impl = *impl_;
  rocksdb::WriteBatch write;
  for (const auto& e : events) {
    write.Put(impl.cf(kLog), keys::be64(e.seq), keys::log_value(e.hash, e.bytes));
    write.Put(impl.cf(kStreams), keys::stream_key(e.stream, e.version), keys::be64(e.seq));
    if (!e.idempotency_key.empty()) {
      keys::IdempotencyValue record{e.seq, e.idempotency_count, e.idempotency_digest};
      write.Put(impl.cf(kIdempotency), e.idempotency_key, keys::encode(record));
    }
  }
  write.Put(impl.cf(kMeta), keys::kHeadKey,
            keys::encode_head(events.back().seq, events.back().hash));
  rocksdb::WriteOptions options;
  options.sync = true;
  auto status = impl.db->Write(options, &write);
  if (!status.ok()) return status.ToString();
  std::lock_guard lock(impl.head_mutex);
  impl.head = Head{events.back().seq, events.back().hash};
  return std::nullopt;
}

std::optional<std::string> EventStore::replicate(const std::vector<RestoredEvent>& events) {
  if (auto error = restore(events)) return error;
  std::vector<StoredEvent> stored;
  stored.reserve(events.size());
  for (const auto& e : events) stored.emplace_back(e.seq, e.hash, e.bytes);
  impl_->notify(stored);
  return std::nullopt;
}

VerifyResult EventStore::verify() const {
  VerifyResult result;
  auto view = read_view();
  Digest previous{};
  std::uint64_t expected_seq = 1;
  Sha256 hasher;
  rocksdb::ReadOptions read_options;
  read_options.snapshot = view.snapshot_;
  std::unique_ptr<rocksdb::Iterator> it(impl_->db->NewIterator(read_options, impl_->cf(kLog)));
  auto fail = [&](std::uint64_t seq, std::string problem) {
    result.ok = false;
    result.first_bad = seq;
    result.problem = std::move(problem);
  };
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++expected_seq) {
    std::uint64_t seq = keys::read_be64(as_view(it->key()));
    std::string_view value = as_view(it->value());
    if (seq != expected_seq) {
      fail(expected_seq, "seq " + std::to_string(expected_seq) + " is missing from the log");
      return result;
    }
    if (value.size() < 32) {
      fail(seq, "the stored record is truncated");
      return result;
    }
    Digest stored = keys::digest_at(value);
    std::string_view bytes = value.substr(32);
    Digest computed = hasher.update(previous.data(), previous.size()).update(bytes).finish();
    if (computed != stored) {
      fail(seq, "the hash does not match the event's bytes");
      return result;
    }
    try {
      StoredEvent event(seq, stored, bytes);
      auto prev = event.event().getPrevHash();
      if (event.event().getSeq() != seq || prev.size() != previous.size() ||
          !std::equal(prev.begin(), prev.end(), previous.begin())) {
        fail(seq, "the event does not link to the previous hash");
        return result;
      }
    } catch (const kj::Exception& e) {
      fail(seq, "the event cannot be decoded");
      return result;
    }
    previous = stored;
    result.events = seq;
  }
  if (result.events != view.head().seq || previous != view.head().hash) {
    fail(result.events + 1, "the recorded head does not match the end of the log");
    return result;
  }
  result.head = previous;
  return result;
}

// --- ReadView ----------------------------------------------------------------------------------

ReadView EventStore::read_view() const {
  const rocksdb::Snapshot* snapshot = impl_->db->GetSnapshot();
  rocksdb::ReadOptions read_options;
  read_options.snapshot = snapshot;
  Head head;
  std::string value;
  if (impl_->db->Get(read_options, impl_->cf(kMeta), keys::kHeadKey, &value).ok()) {
    head.seq = keys::read_be64(value);
    head.hash = keys::digest_at(std::string_view(value).substr(8));
  }
  return ReadView(*this, snapshot, head);
}

ReadView::ReadView(const EventStore& store, const rocksdb::Snapshot* snapshot, Head head)
    : store_(&store), snapshot_(snapshot), head_(head) {}

ReadView::ReadView(ReadView&& other) noexcept
    : store_(other.store_), snapshot_(other.snapshot_), head_(other.head_) {
  other.snapshot_ = nullptr;
}

ReadView::~ReadView() {
  if (snapshot_ != nullptr) store_->impl_->db->ReleaseSnapshot(snapshot_);
}

std::vector<StoredEvent> ReadView::events_for(std::vector<std::uint64_t> seqs) const {
  auto& impl = *store_->impl_;
  std::vector<StoredEvent> out;
  out.reserve(seqs.size());
  rocksdb::ReadOptions read_options;
  read_options.snapshot = snapshot_;
  std::string value;
  for (std::uint64_t seq : seqs) {
    if (!impl.db->Get(read_options, impl.cf(kLog), keys::be64(seq), &value).ok()) continue;
    out.push_back(decode_stored(seq, value, std::string_view(value).substr(32)));
  }
  return out;
}

std::vector<StoredEvent> ReadView::stream(std::string_view stream, std::uint64_t from_version,
                                          std::size_t limit) const {
  auto& impl = *store_->impl_;
  rocksdb::ReadOptions read_options;
  read_options.snapshot = snapshot_;
  std::unique_ptr<rocksdb::Iterator> it(impl.db->NewIterator(read_options, impl.cf(kStreams)));
  std::string prefix = keys::stream_prefix(stream);
  std::vector<std::uint64_t> seqs;
  for (it->Seek(keys::stream_key(stream, from_version));
       it->Valid() && it->key().starts_with(prefix) && seqs.size() < limit; it->Next()) {
    seqs.push_back(keys::read_be64(as_view(it->value())));
  }
  return events_for(std::move(seqs));
}

std::vector<StoredEvent> ReadView::log(std::uint64_t from_seq, std::size_t limit) const {
  std::vector<StoredEvent> out;
  scan(from_seq, [&](const StoredEvent& e) {
    out.push_back(e);
    return out.size() < limit;
  });
  return out;
}

void ReadView::scan(std::uint64_t from_seq,
                    const std::function<bool(const StoredEvent&)>& visit) const {
  scan_encoded(from_seq,
               [&](const EncodedEvent& e) { return visit(decode_stored(e.seq, e.hash, e.bytes)); });
}

void ReadView::scan_encoded(std::uint64_t from_seq,
                            const std::function<bool(const EncodedEvent&)>& visit) const {
  auto& impl = *store_->impl_;
  rocksdb::ReadOptions read_options;
  read_options.snapshot = snapshot_;
  read_options.readahead_size = 2 << 20;
  std::unique_ptr<rocksdb::Iterator> it(impl.db->NewIterator(read_options, impl.cf(kLog)));
  for (it->Seek(keys::be64(std::max<std::uint64_t>(from_seq, 1))); it->Valid(); it->Next()) {
    std::uint64_t seq = keys::read_be64(as_view(it->key()));
    if (seq > head_.seq) break;
    std::string_view value = as_view(it->value());
    if (!visit(EncodedEvent{seq, value.substr(0, 32), value.substr(32)})) break;
  }
}

std::vector<StoredEvent> ReadView::tree(std::string_view root) const {
  auto& impl = *store_->impl_;
  rocksdb::ReadOptions read_options;
  read_options.snapshot = snapshot_;
  std::unique_ptr<rocksdb::Iterator> it(impl.db->NewIterator(read_options, impl.cf(kStreams)));
  std::vector<std::uint64_t> seqs;
  // Keys sort as "root\0…" < "root-other…" < "root/…": walk everything that starts with root and
  // keep the stream itself and the ones below "root/".
  for (it->Seek(rocksdb::Slice(root.data(), root.size()));
       it->Valid() && it->key().starts_with(rocksdb::Slice(root.data(), root.size())); it->Next()) {
    std::string_view key = as_view(it->key());
    std::string_view name = key.substr(0, key.find('\0'));
    bool below = name.size() > root.size() && name[root.size()] == '/';
    if (name == root || below) seqs.push_back(keys::read_be64(as_view(it->value())));
  }
  std::sort(seqs.begin(), seqs.end());
  return events_for(std::move(seqs));
}

std::optional<StoredEvent> ReadView::event(std::uint64_t seq) const {
  if (seq == 0 || seq > head_.seq) return std::nullopt;
  auto events = events_for({seq});
  if (events.empty()) return std::nullopt;
  return std::move(events.front());
}

std::uint64_t ReadView::stream_version(std::string_view stream) const {
  auto& impl = *store_->impl_;
  rocksdb::ReadOptions read_options;
  read_options.snapshot = snapshot_;
  std::unique_ptr<rocksdb::Iterator> it(impl.db->NewIterator(read_options, impl.cf(kStreams)));
  std::string prefix = keys::stream_prefix(stream);
  it->SeekForPrev(keys::stream_key(stream, UINT64_MAX));
  if (it->Valid() && it->key().starts_with(prefix)) {
    return keys::read_be64(as_view(it->key()).substr(prefix.size()));
  }
  return 0;
}

std::optional<IdempotencyRecord> ReadView::idempotency(std::string_view key) const {
  auto& impl = *store_->impl_;
  rocksdb::ReadOptions read_options;
  read_options.snapshot = snapshot_;
  std::string value;
  if (!impl.db
           ->Get(read_options, impl.cf(kIdempotency), rocksdb::Slice(key.data(), key.size()),
                 &value)
           .ok()) {
    return std::nullopt;
  }
  auto record = keys::decode_idempotency(value);
  if (!record) return std::nullopt;
  return IdempotencyRecord{record->first_seq, record->first_seq + record->count - 1,
                           record->digest};
}

}  // namespace tally::events
