#include "schema/stored_event.hpp"

#include <cstring>

namespace tally::schema {

namespace {
// Events are small; the defaults (64 MiB, depth 64) guard against hostile bytes, not ours.
capnp::ReaderOptions reader_options() { return capnp::ReaderOptions{}; }
}  // namespace

StoredEvent::StoredEvent(std::uint64_t seq, const Digest& hash, std::string_view encoded) {
  auto impl = std::make_shared<Impl>();
  impl->seq = seq;
  impl->hash = hash;
  std::size_t words = (encoded.size() + sizeof(capnp::word) - 1) / sizeof(capnp::word);
  impl->words = kj::heapArray<capnp::word>(words);
  std::memset(impl->words.begin(), 0, words * sizeof(capnp::word));
  std::memcpy(impl->words.begin(), encoded.data(), encoded.size());
  impl->reader = std::make_unique<capnp::FlatArrayMessageReader>(impl->words, reader_options());
  impl->root = impl->reader->getRoot<Event>();
  impl_ = std::move(impl);
}

}  // namespace tally::schema
