#include "schema/stored_event.hpp"

#include <cstring>
#include <new>

namespace tally::schema {

StoredEvent::Block::Block(std::uint64_t seq, const Digest& hash, std::size_t word_count)
    : seq(seq), hash(hash), word_count(word_count) {}

StoredEvent::StoredEvent(std::uint64_t seq, const Digest& hash, std::string_view encoded) {
  std::size_t words = (encoded.size() + sizeof(capnp::word) - 1) / sizeof(capnp::word);
  void* memory = ::operator new(sizeof(Block) + words * sizeof(capnp::word));
  block_ = new (memory) Block(seq, hash, words);
  if (words > 0)
    std::memset(block_->words() + words - 1, 0,
                sizeof(capnp::word));  // a ragged tail reads as zeros
  std::memcpy(block_->words(), encoded.data(), encoded.size());
  try {
    block_->reader.emplace(kj::arrayPtr(block_->words(), words));
    block_->root = block_->reader->getRoot<Event>();
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
