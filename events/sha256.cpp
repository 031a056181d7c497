#include "events/sha256.hpp"

#include "encoding/hex.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <algorithm>
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

std::string hex(const Digest& digest) { return encoding::hex_encode(digest); }

std::optional<Digest> digest_from_hex(std::string_view text) {
  // Lower case only, as hex() writes it: a digest has one spelling.
  if (std::any_of(text.begin(), text.end(), [](char c) { return c >= 'A' && c <= 'F'; })) {
    return std::nullopt;
  }
  auto bytes = encoding::hex_decode(text);
  Digest d{};
  if (!bytes || bytes->size() != d.size()) return std::nullopt;
  std::copy(bytes->begin(), bytes->end(), d.begin());
  return d;
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace tally::events
