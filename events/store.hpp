// The event store: an append-only log of Cap'n Proto events in RocksDB.
//
// Thread safety: an EventStore may be used from any number of threads at once. Appends from all
// threads go through one writer thread, which gathers the appends waiting at that moment into a
// single WriteBatch and syncs it once (group commit); each append is acknowledged only after that
// sync. Reads take a consistent RocksDB snapshot (see ReadView) and never block the writer.
// Subscribers are called on the writer thread, one event at a time in seq order, after the batch
// holding the event is durable and before the appends of that batch are acknowledged — so a
// projection updated by a subscriber already shows an event when its writer hears "appended".
//
// Layout (column families): `log` big-endian seq → [32-byte hash][encoded event];
// `streams` stream '\0' big-endian version → big-endian seq; `idempotency` key → first seq,
// event count and the digest of the request; `meta` "head" → head seq and head hash.
#pragma once

#include "events/draft.hpp"
#include "events/sha256.hpp"
#include "schema/tally.capnp.h"

#include <capnp/message.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rocksdb {
class DB;
class ColumnFamilyHandle;
class Snapshot;
}  // namespace rocksdb

namespace tally::events {

using schema::StoredEvent;

struct StoreOptions {
  // Sync the write-ahead log before acknowledging a batch. true: an acknowledged append survives
  // a process crash and a power cut. false: it survives a process crash only (the OS still holds
  // it). Default: true. Only the benchmark of the non-durable path turns it off.
  bool sync = true;

  // The most appends gathered into one WriteBatch. Default: 1024.
  std::size_t max_batch = 1024;

  // Create the store when the directory holds none. Default: true.
  bool create_if_missing = true;

  // Open without ever writing (RocksDB's read-only mode), for a data directory on a read-only
  // file system: reads work, every append fails (AppendStatus::failed). Default: false.
  bool read_only = false;

  // Refuse appends (AppendStatus::failed) while the store's file system has less than this many
  // bytes free, so that RocksDB never meets a full disk (0: no check). Default: 0; tallyd sets
  // its `min_free_space`. Why: RocksDB, as Debian builds it, aborts the process when it writes
  // to its log again after a write failed for lack of space.
  std::uint64_t min_free_bytes = 0;

  // For tests only: fault injection in the group commit. When set, the writer thread calls it
  // just before each batch's RocksDB write; an error it returns makes that write fail as a
  // RocksDB I/O error would (nothing of the batch is written, every append it answers is
  // `failed`, the next batch first tells RocksDB to resume), and nullopt lets the write go ahead.
  // The error stops before RocksDB, so it never puts RocksDB itself into its error state (see
  // docs/reliability.md on why a real write failure is best avoided). Empty (the default) costs
  // one test of an empty std::function per batch. Never set by tallyd.
  std::function<std::optional<std::string>()> fail_write_for_testing;
};

struct AppendRequest {
  std::string stream;
  ExpectedVersion expected = ExpectedVersion::any();
  std::vector<Draft> events;  // appended together, contiguously, or not at all
  // Empty: no idempotency. Otherwise a retry with the same key and the same content is answered
  // with the original seqs and appends nothing, also after a restart.
  std::string idempotency_key;
  // What "the same content" means for the key. Default: the digest of the stream and the drafts.
  std::optional<Digest> content_digest;
};

enum class AppendStatus {
  appended,              // the events are durable; seqs and version are theirs
  duplicate,             // the key was seen with the same content: the original seqs, nothing new
  version_conflict,      // the stream was not as expected: nothing appended, its current version
  idempotency_mismatch,  // the key was seen with other content: nothing appended
  invalid,               // the request itself is unusable (no events, bad stream name)
  failed,                // the store could not write (disk full, read-only, …): nothing appended
};

struct AppendResult {
  AppendStatus status = AppendStatus::failed;
  std::uint64_t first_seq = 0;       // appended / duplicate
  std::uint64_t last_seq = 0;        // appended / duplicate
  std::uint64_t stream_version = 0;  // appended / duplicate: after the events; conflict: current
  std::string error;                 // invalid / failed: why
};

struct Head {
  std::uint64_t seq = 0;  // 0: the log is empty
  Digest hash{};          // all zeros for an empty log
};

// What the store remembers of an idempotency key.
struct IdempotencyRecord {
  std::uint64_t first_seq = 0;
  std::uint64_t last_seq = 0;
  Digest digest{};
};

struct VerifyResult {
  bool ok = true;
  std::uint64_t events = 0;     // events checked
  Digest head{};                // the hash of the last event
  std::uint64_t first_bad = 0;  // !ok: the first seq whose hash or link does not match
  std::string problem;          // !ok: what did not match
};

class EventStore;

// What a damaged log is reported as, wherever it shows (a read here, replay at start): `which`
// names the event or events, `why` is the decoder's reason; the text says what to do about it.
std::string damaged_log_message(std::string_view which, std::string_view why);

// The log holds an event whose bytes do not decode (a damaged disk, an edit outside tallyd):
// thrown by every read below that decodes events, naming the first such event, instead of Cap'n
// Proto's exception (no std::exception, which nothing up the stack would catch).
class DamagedEvent : public std::runtime_error {
 public:
  DamagedEvent(std::uint64_t seq, std::string_view why);
  std::uint64_t seq() const { return seq_; }

 private:
  std::uint64_t seq_;
};

// One event as the log holds it, not yet decoded. The views are valid only while the visit that
// receives it runs.
struct EncodedEvent {
  std::uint64_t seq = 0;
  std::string_view hash;   // the event's 32-byte hash
  std::string_view bytes;  // the encoded event (a Cap'n Proto message)
};

// A consistent view of the log at one moment: every read through it sees the same events.
class ReadView {
 public:
  ~ReadView();
  ReadView(ReadView&&) noexcept;
  ReadView& operator=(ReadView&&) = delete;

  Head head() const { return head_; }

  // The reads that return or visit StoredEvents throw DamagedEvent for one that does not decode.

  // Events of `stream` with version >= from_version, in version order, at most `limit`.
  std::vector<StoredEvent> stream(std::string_view stream, std::uint64_t from_version = 1,
                                  std::size_t limit = SIZE_MAX) const;
  // The log from `from_seq`, in seq order, at most `limit` events.
  std::vector<StoredEvent> log(std::uint64_t from_seq, std::size_t limit = SIZE_MAX) const;
  // Calls `visit` for each event from `from_seq` to the view's head, in seq order, without
  // collecting them; stops early when `visit` returns false.
  void scan(std::uint64_t from_seq, const std::function<bool(const StoredEvent&)>& visit) const;
  // The same walk without decoding: for a reader that hands the bytes to another thread to
  // decode there (replay at start).
  void scan_encoded(std::uint64_t from_seq,
                    const std::function<bool(const EncodedEvent&)>& visit) const;
  // Events of the stream `root` and of every stream below `root/` (a tournament and its
  // tables), in seq order.
  std::vector<StoredEvent> tree(std::string_view root) const;
  // One event; nullopt when seq is 0 or beyond the head.
  std::optional<StoredEvent> event(std::uint64_t seq) const;
  // The current version of a stream (0: no such stream).
  std::uint64_t stream_version(std::string_view stream) const;
  // The append an idempotency key produced, if the key was used.
  std::optional<IdempotencyRecord> idempotency(std::string_view key) const;

 private:
  friend class EventStore;
  ReadView(const EventStore& store, const rocksdb::Snapshot* snapshot, Head head);
  std::vector<StoredEvent> events_for(std::vector<std::uint64_t> seqs) const;
  const EventStore* store_;
  const rocksdb::Snapshot* snapshot_;
  Head head_;
};

class EventStore {
 public:
  using Subscriber = std::function<void(const StoredEvent&)>;
  using Completion = std::function<void(AppendResult)>;

  // Opens (or creates) the store in `dir`. Throws std::runtime_error when RocksDB cannot open it.
  // Finds its head from the meta record: no scan of the log.
  explicit EventStore(const std::string& dir, StoreOptions options = {});
  // Finishes the appends already queued, then closes the database.
  ~EventStore();
  EventStore(const EventStore&) = delete;
  EventStore& operator=(const EventStore&) = delete;

  // Appends and waits until the events are durable (or refused). Safe from any thread.
  AppendResult append(AppendRequest request);
  // Queues an append; `done` runs on the writer thread once it is durable or refused. It must be
  // quick and must not append and wait (post the work elsewhere instead).
  void append_async(AppendRequest request, Completion done);
  // Waits until every append queued before the call is done and its completion has run (for a
  // shutdown: before what the completions refer to goes away). Not from the writer thread.
  void flush();

  // A consistent view of everything appended so far.
  ReadView read_view() const;
  Head head() const;

  // Called for every event appended from now on (see the class comment). Returns an id for
  // unsubscribe(). Subscribers must not call append() (they run on the writer thread).
  std::uint64_t subscribe(Subscriber subscriber);
  void unsubscribe(std::uint64_t id);

  // Recomputes the hash chain over the whole log. Not an error: a mismatch is reported in the
  // result with the first bad seq.
  VerifyResult verify() const;

  // The digest the store uses as content of a request without an explicit one.
  static Digest default_digest(const AppendRequest& request);

  // An online, consistent copy of the whole store in `dir` (which must not exist), taken while
  // others append (RocksDB checkpoint: hard links where it can). Returns the head it holds, or
  // the error.
  struct CheckpointResult {
    bool ok = false;
    Head head;
    std::string error;
  };
  CheckpointResult checkpoint(const std::string& dir) const;

  // For import only: writes events exactly as they were (same seq, bytes, hash) after the
  // current head, with their stream index and idempotency records, in one synced batch.
  // REQUIRES: nobody else appends; the caller verified the chain. Returns the error, if any.
  struct RestoredEvent {
    std::uint64_t seq;
    Digest hash;
    std::string bytes;
    std::string stream;
    std::uint64_t version;
    std::string idempotency_key;  // non-empty on the first event of an append made with a key
    std::uint64_t idempotency_count = 0;
    Digest idempotency_digest{};
  };
  std::optional<std::string> restore(const std::vector<RestoredEvent>& events);
  // A follower's copy of its primary's events: restore(), then every subscriber hears each event
  // in seq order, as after an append. REQUIRES: as restore(), and one caller at a time.
  std::optional<std::string> replicate(const std::vector<RestoredEvent>& events);

 private:
  friend class ReadView;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tally::events
