// SHA-256 over byte strings, for the hash chain, token hashes and idempotency digests.
//
// Thread safety: a Sha256 object is used by one thread at a time; the free functions are safe
// from any thread.
#pragma once

#include "schema/stored_event.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

struct evp_md_ctx_st;

namespace tally::events {

using schema::Digest;

// An incremental SHA-256 (OpenSSL's EVP interface, kept between uses to avoid reallocations).
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  Sha256& update(const void* data, std::size_t size);
  Sha256& update(std::string_view bytes) { return update(bytes.data(), bytes.size()); }
  // Returns the digest of everything given since construction or the last finish().
  Digest finish();

 private:
  evp_md_ctx_st* ctx_;
};

Digest sha256(std::string_view bytes);
std::string hex(const Digest& digest);
// The inverse of hex(): 64 lowercase hex digits, or nullopt.
std::optional<Digest> digest_from_hex(std::string_view text);

// Compares two byte strings in time that depends only on their lengths (for token hashes).
bool constant_time_equal(std::string_view a, std::string_view b);

}  // namespace tally::events
