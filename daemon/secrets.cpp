#include "daemon/secrets.hpp"

#include <openssl/rand.h>

#include <array>
#include <stdexcept>

namespace tally::daemon {

namespace {
template <std::size_t N>
std::array<unsigned char, N> random_bytes() {
  std::array<unsigned char, N> out{};
  if (RAND_bytes(out.data(), static_cast<int>(N)) != 1) {
    throw std::runtime_error("OpenSSL could not produce random bytes");
  }
  return out;
}
}  // namespace

std::string random_token() {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out = "tly_";
  for (unsigned char b : random_bytes<32>()) {
    out += kDigits[b >> 4];
    out += kDigits[b & 0xf];
  }
  return out;
}

std::uint64_t random_seed() {
  for (;;) {
    std::uint64_t seed = 0;
    for (unsigned char b : random_bytes<8>()) seed = (seed << 8) | b;
    // 53 bits: a JSON number a browser reads exactly, so that a page can send a previewed draw's
    // seed back and get the same draw.
    seed &= (std::uint64_t{1} << 53) - 1;
    if (seed != 0) return seed;
  }
}

}  // namespace tally::daemon
