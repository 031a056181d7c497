#include "daemon/http/table_token.hpp"

#include "daemon/log.hpp"
#include "daemon/secrets.hpp"
#include "encoding/base64.hpp"
#include "encoding/hex.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <stdexcept>

namespace tally::daemon {

namespace {

constexpr std::string_view kPrefix = "tt.";
constexpr std::size_t kMacBytes = 16;  // 128 bits: the URL stays short enough for a small QR code

std::optional<std::uint32_t> number(std::string_view text) {
  std::uint32_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty() || n == 0) {
    return std::nullopt;
  }
  return n;
}

std::string first_line(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string text;
  std::getline(in, text);
  return text;
}

TableKeys::Secret hex_secret(const std::string& text) {
  TableKeys::Secret out{};
  auto bytes = encoding::hex_decode(text);
  if (!bytes || bytes->size() != out.size()) {
    throw std::runtime_error("table-keys.secret is not 64 hex digits");
  }
  std::copy(bytes->begin(), bytes->end(), out.begin());
  return out;
}

}  // namespace

TableKeys TableKeys::load_or_create(const std::filesystem::path& data_dir) {
  auto file = data_dir / "table-keys.secret";
  if (std::filesystem::exists(file)) return TableKeys(hex_secret(first_line(file)));
  Secret secret{};
  if (RAND_bytes(secret.data(), static_cast<int>(secret.size())) != 1) {
    throw std::runtime_error("OpenSSL could not produce random bytes");
  }
  TableKeys keys(secret);
  write_private_file(file, keys.secret_hex());  // 0600 before anything is written to it
  log::info("made the table tokens' secret", {{"path", file.string()}});
  return keys;
}

bool TableKeys::keep_primary_secret(const std::filesystem::path& data_dir,
                                    const std::string& secret_hex) {
  hex_secret(secret_hex);  // throws when it is not one
  auto file = data_dir / "table-keys.secret";
  if (std::filesystem::exists(file) && first_line(file) == secret_hex) return false;
  write_private_file(file, secret_hex);
  return true;
}

TableKeys::Secret TableKeys::derive_key(std::string_view label) const {
  Secret key{};
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), secret_.data(), static_cast<int>(secret_.size()),
           reinterpret_cast<const unsigned char*>(label.data()), label.size(), key.data(),
           &length) == nullptr ||
      length != key.size()) {
    throw std::runtime_error("OpenSSL HMAC failed");
  }
  return key;
}

std::string TableKeys::secret_hex() const { return encoding::hex_encode(secret_); }

std::string TableKeys::mac(const TableScope& scope, std::uint64_t seating_seq) const {
  std::string message = scope.tournament;
  message += '\0';
  message += std::to_string(scope.round);
  message += '\0';
  message += std::to_string(scope.table);
  message += '\0';
  message += std::to_string(seating_seq);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), secret_.data(), static_cast<int>(secret_.size()),
           reinterpret_cast<const unsigned char*>(message.data()), message.size(), digest,
           &length) == nullptr) {
    throw std::runtime_error("OpenSSL HMAC failed");
  }
  return encoding::base64url_encode(
      std::string_view(reinterpret_cast<const char*>(digest), kMacBytes));
}

std::string TableKeys::token(const TableScope& scope, std::uint64_t seating_seq) const {
  return std::string(kPrefix) + scope.tournament + "." + std::to_string(scope.round) + "." +
         std::to_string(scope.table) + "." + mac(scope, seating_seq);
}

bool TableKeys::valid(std::string_view token, const TableScope& scope,
                      std::uint64_t seating_seq) const {
  std::string expected = this->token(scope, seating_seq);
  return token.size() == expected.size() &&
         CRYPTO_memcmp(token.data(), expected.data(), expected.size()) == 0;
}

std::optional<TableScope> TableKeys::claimed_scope(std::string_view token) {
  if (!token.starts_with(kPrefix)) return std::nullopt;
  token.remove_prefix(kPrefix.size());
  // {t}.{r}.{n}.{mac}: a tournament id has no dots.
  std::string_view parts[4];
  for (int i = 0; i < 3; ++i) {
    std::size_t dot = token.find('.');
    if (dot == std::string_view::npos) return std::nullopt;
    parts[i] = token.substr(0, dot);
    token.remove_prefix(dot + 1);
  }
  parts[3] = token;
  auto round = number(parts[1]);
  auto table = number(parts[2]);
  if (parts[0].empty() || !round || !table || parts[3].empty()) return std::nullopt;
  return TableScope{std::string(parts[0]), *round, *table};
}

std::string TableKeys::report_url(const TableScope& scope, std::string_view token) {
  return "/t/" + scope.tournament + "/report?round=" + std::to_string(scope.round) +
         "&table=" + std::to_string(scope.table) + "#token=" + std::string(token);
}

}  // namespace tally::daemon
