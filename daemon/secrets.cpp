#include "daemon/secrets.hpp"

#include "encoding/hex.hpp"

#include <fcntl.h>
#include <openssl/rand.h>
#include <sys/stat.h>
#include <unistd.h>

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

std::string random_token() { return "tly_" + encoding::hex_encode(random_bytes<32>()); }

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

void write_private_file(const std::filesystem::path& file, const std::string& line) {
  auto temporary = file;
  temporary += ".new";
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
  if (fd < 0) throw std::runtime_error("cannot create " + temporary.string());
  ::fchmod(fd, 0600);
  const std::string text = line + "\n";
  bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  written = ::fsync(fd) == 0 && written;
  ::close(fd);
  if (!written || ::rename(temporary.c_str(), file.c_str()) != 0) {
    ::unlink(temporary.c_str());
    throw std::runtime_error("cannot write " + file.string());
  }
}

}  // namespace tally::daemon
