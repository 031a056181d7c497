// One event as it lies in the log: its seq, its hash and its encoded bytes, with a reader.
//
// Thread safety: immutable after construction; copies share the bytes (reference-counted) and may
// be used from any number of threads at once.
#pragma once

#include "schema/tally.capnp.h"

#include <capnp/serialize.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string_view>

namespace tally::schema {

// A SHA-256 digest: an event's hash, a token hash, a request digest.
using Digest = std::array<std::uint8_t, 32>;

class StoredEvent {
 public:
  // Copies `encoded` (a Cap'n Proto message with its segment table, any alignment) into aligned
  // storage. Throws kj::Exception when the bytes are not a valid message.
  StoredEvent(std::uint64_t seq, const Digest& hash, std::string_view encoded);
  StoredEvent(const StoredEvent& other) noexcept : block_(other.block_) {
    block_->refs.fetch_add(1, std::memory_order_relaxed);
  }
  StoredEvent(StoredEvent&& other) noexcept : block_(other.block_) { other.block_ = nullptr; }
  StoredEvent& operator=(StoredEvent other) noexcept {
    std::swap(block_, other.block_);
    return *this;
  }
  ~StoredEvent() { release(); }

  std::uint64_t seq() const { return block_->seq; }
  const Digest& hash() const { return block_->hash; }
  // The envelope; valid as long as any copy of this StoredEvent lives. Read from the bytes on
  // each call (a few instructions for a one-segment message), not kept: replay keeps ~700,000
  // of these per million events, and a kept reader was 48 of the ~630 bytes each one cost.
  Event::Reader event() const {
    if (block_->segmented) return block_->segmented->root;
    return capnp::readMessageUnchecked<Event>(block_->words() + 1);
  }
  // The encoded bytes the hash covers.
  std::string_view bytes() const {
    return {reinterpret_cast<const char*>(block_->words()),
            block_->word_count * sizeof(capnp::word)};
  }

 private:
  // One allocation per event — the bookkeeping and the bytes after it — because replay makes a
  // million of these in a row and the projections keep most of them (docs/performance.md
  // "Replay at start": 56 bytes kept beside each event's own bytes).
  //
  // A message of one segment (every event the store writes under 2 KiB) is checked once, whole,
  // when it is made: every pointer in bounds, nesting within Cap'n Proto's limit. Its bytes never
  // change after that, so its root is read unchecked, without the 256-byte MessageReader each
  // event carried before. A message of several segments keeps a checked reader and its root.
  struct Segmented {
    explicit Segmented(kj::ArrayPtr<const capnp::word> words) : reader(words) {
      root = reader.getRoot<Event>();
    }
    capnp::FlatArrayMessageReader reader;
    Event::Reader root;
  };
  struct Block {
    Block(std::uint64_t seq, const Digest& hash, std::size_t word_count);
    std::atomic<std::uint32_t> refs{1};
    std::uint32_t word_count;
    std::uint64_t seq;
    Digest hash;
    std::unique_ptr<Segmented> segmented;  // several segments only
    capnp::word* words() { return reinterpret_cast<capnp::word*>(this + 1); }
    const capnp::word* words() const { return reinterpret_cast<const capnp::word*>(this + 1); }
  };
  static_assert(sizeof(Block) % sizeof(capnp::word) == 0,
                "the bytes after a Block stay word-aligned");
  static_assert(sizeof(Block) == 56, "what replay keeps per event (docs/performance.md)");

  void release() noexcept;
  Block* block_;
};

}  // namespace tally::schema
