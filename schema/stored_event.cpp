#include "schema/stored_event.hpp"

#include <kj/debug.h>

#include <cstring>
#include <new>

namespace tally::schema {

StoredEvent::Block::Block(std::uint64_t seq, const Digest& hash, std::size_t word_count)
    : word_count(static_cast<std::uint32_t>(word_count)), seq(seq), hash(hash) {}

namespace {

// The segment table of a one-segment message is one word: (segment count - 1) = 0, then the
// segment's size in words, which must be all that follows it.
bool one_segment(const capnp::word* words, std::size_t word_count) {
  if (word_count < 2) return false;
  std::uint32_t table[2];
  std::memcpy(table, words, sizeof table);
  return table[0] == 0 && table[1] == word_count - 1;
}

}  // namespace

StoredEvent::StoredEvent(std::uint64_t seq, const Digest& hash, std::string_view encoded) {
  std::size_t words = (encoded.size() + sizeof(capnp::word) - 1) / sizeof(capnp::word);
  if (words > UINT32_MAX) KJ_FAIL_REQUIRE("an event of more than 32 GiB", words);
  void* memory = ::operator new(sizeof(Block) + words * sizeof(capnp::word));
  block_ = new (memory) Block(seq, hash, words);
  if (words > 0)
    std::memset(block_->words() + words - 1, 0,
                sizeof(capnp::word));  // a ragged tail reads as zeros
  std::memcpy(block_->words(), encoded.data(), encoded.size());
  try {
    auto all = kj::arrayPtr(const_cast<const capnp::word*>(block_->words()), words);
    if (one_segment(block_->words(), words)) {
      // Walks every pointer with bounds checks; throws kj::Exception on the first bad one.
      capnp::FlatArrayMessageReader checked(all);
      checked.getRoot<capnp::AnyPointer>().targetSize();
    } else {
      block_->segmented = std::make_unique<Segmented>(all);
    }
  } catch (...) {
    release();
    throw;
  }
}

void StoredEvent::release() noexcept {
  if (block_ == nullptr || block_->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  block_->~Block();
  ::operator delete(block_);
}

}  // namespace tally::schema
