#include "events/sha256.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <stdexcept>

namespace tally::events {

namespace {

// SHA-256 fetched from OpenSSL's provider once: with EVP_sha256(), OpenSSL 3 looks the algorithm
// up again on every init (an implicit fetch, under locks), a tenth of the instructions of a
// token check.
const EVP_MD* sha256_md() {
  static EVP_MD* md = [] {
    EVP_MD* fetched = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    if (fetched == nullptr) throw std::runtime_error("sha256: OpenSSL has no SHA-256");
    return fetched;
  }();
  return md;
}

}  // namespace

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
  if (ctx_ == nullptr || EVP_DigestInit_ex(ctx_, sha256_md(), nullptr) != 1) {
    throw std::runtime_error("sha256: OpenSSL could not initialise a digest");
  }
}

Sha256::~Sha256() { EVP_MD_CTX_free(ctx_); }

Sha256& Sha256::update(const void* data, std::size_t size) {
  EVP_DigestUpdate(ctx_, data, size);
  return *this;
}

Digest Sha256::finish() {
  Digest out{};
  unsigned int size = 0;
  EVP_DigestFinal_ex(ctx_, out.data(), &size);
  EVP_DigestInit_ex(ctx_, sha256_md(), nullptr);
  return out;
}

Digest sha256(std::string_view bytes) {
  // One context per thread, kept: EVP_Digest allocates, initialises and frees one on every call.
  thread_local Sha256 hasher;
  return hasher.update(bytes).finish();
}

std::string hex(const Digest& digest) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(64);
  for (std::uint8_t b : digest) {
    out += kDigits[b >> 4];
    out += kDigits[b & 0xf];
  }
  return out;
}

std::optional<Digest> digest_from_hex(std::string_view text) {
  if (text.size() != 64) return std::nullopt;
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  Digest d{};
  for (std::size_t i = 0; i < d.size(); ++i) {
    int hi = nibble(text[2 * i]), lo = nibble(text[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    d[i] = static_cast<std::uint8_t>(hi * 16 + lo);
  }
  return d;
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace tally::events
