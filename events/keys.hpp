// The byte layout of the store's RocksDB keys and values (private to events/).
#pragma once

#include "events/sha256.hpp"

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

namespace tally::events::keys {

// Big-endian, so that RocksDB's byte order is numeric order.
inline std::string be64(std::uint64_t v) {
  std::string out(8, '\0');
  for (int i = 7; i >= 0; --i) {
    out[i] = static_cast<char>(v & 0xff);
    v >>= 8;
  }
  return out;
}

inline std::uint64_t read_be64(std::string_view bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | static_cast<std::uint8_t>(bytes[i]);
  return v;
}

// `streams` key: the stream name, a NUL, the version. Names never contain NUL (checked on append).
inline std::string stream_key(std::string_view stream, std::uint64_t version) {
  std::string out(stream);
  out += '\0';
  out += be64(version);
  return out;
}

inline std::string stream_prefix(std::string_view stream) {
  std::string out(stream);
  out += '\0';
  return out;
}

// `log` value: the event's hash, then its encoded bytes.
inline std::string log_value(const Digest& hash, std::string_view encoded) {
  std::string out;
  out.reserve(hash.size() + encoded.size());
  out.append(reinterpret_cast<const char*>(hash.data()), hash.size());
  out.append(encoded);
  return out;
}

inline Digest digest_at(std::string_view bytes) {
  Digest d{};
  std::memcpy(d.data(), bytes.data(), d.size());
  return d;
}

// `idempotency` value: first seq, event count, content digest.
struct IdempotencyValue {
  std::uint64_t first_seq;
  std::uint64_t count;
  Digest digest;
};

inline std::string encode(const IdempotencyValue& r) {
  std::string out = be64(r.first_seq) + be64(r.count);
  out.append(reinterpret_cast<const char*>(r.digest.data()), r.digest.size());
  return out;
}

inline std::optional<IdempotencyValue> decode_idempotency(std::string_view bytes) {
  if (bytes.size() != 16 + 32) return std::nullopt;
  return IdempotencyValue{read_be64(bytes), read_be64(bytes.substr(8)),
                          digest_at(bytes.substr(16))};
}

// `meta` "head": head seq then head hash.
inline constexpr std::string_view kHeadKey = "head";

inline std::string encode_head(std::uint64_t seq, const Digest& hash) {
  std::string out = be64(seq);
  out.append(reinterpret_cast<const char*>(hash.data()), hash.size());
  return out;
}

}  // namespace tally::events::keys
