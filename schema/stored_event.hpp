// One event as it lies in the log: its seq, its hash and its encoded bytes, with a reader.
//
// Thread safety: immutable after construction; copies share the bytes and may be read from any
// number of threads at once.
#pragma once

#include "schema/tally.capnp.h"

#include <capnp/serialize.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>

namespace tally::schema {

// A SHA-256 digest: an event's hash, a token hash, a request digest.
using Digest = std::array<std::uint8_t, 32>;

class StoredEvent {
 public:
  // Copies `encoded` (a Cap'n Proto flat array, any alignment) into aligned storage.
  // Throws kj::Exception when the bytes are not a valid message.
  StoredEvent(std::uint64_t seq, const Digest& hash, std::string_view encoded);

  std::uint64_t seq() const { return impl_->seq; }
  const Digest& hash() const { return impl_->hash; }
  // The envelope; valid as long as any copy of this StoredEvent lives.
  Event::Reader event() const { return impl_->root; }
  // The encoded bytes the hash covers.
  std::string_view bytes() const {
    auto bytes = impl_->words.asBytes();
    return {reinterpret_cast<const char*>(bytes.begin()), bytes.size()};
  }

 private:
  struct Impl {
    std::uint64_t seq;
    Digest hash;
    kj::Array<capnp::word> words;
    std::unique_ptr<capnp::FlatArrayMessageReader> reader;
    Event::Reader root;
  };
  std::shared_ptr<const Impl> impl_;
};

}  // namespace tally::schema
