#include "daemon/email_seal.hpp"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <memory>
#include <stdexcept>

namespace tally::daemon {

namespace {

constexpr int kNonceBytes = 12;
constexpr int kTagBytes = 16;

using Context = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

Context new_context() {
  Context ctx(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
  if (!ctx) throw std::runtime_error("OpenSSL: no cipher context");
  return ctx;
}

const unsigned char* bytes(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

}  // namespace

std::string EmailSeal::seal(std::string_view tournament, std::string_view address) const {
  std::string out(kNonceBytes + address.size() + kTagBytes, '\0');
  auto* nonce = reinterpret_cast<unsigned char*>(out.data());
  auto* cipher = nonce + kNonceBytes;
  if (RAND_bytes(nonce, kNonceBytes) != 1) throw std::runtime_error("OpenSSL: no random bytes");
  Context ctx = new_context();
  int n = 0;
  if (EVP_EncryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, key_.data(), nonce) != 1 ||
      EVP_EncryptUpdate(ctx.get(), nullptr, &n, bytes(tournament),
                        static_cast<int>(tournament.size())) != 1 ||
      EVP_EncryptUpdate(ctx.get(), cipher, &n, bytes(address), static_cast<int>(address.size())) !=
          1 ||
      EVP_EncryptFinal_ex(ctx.get(), cipher + n, &n) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTagBytes, cipher + address.size()) !=
          1) {
    throw std::runtime_error("OpenSSL: AES-256-GCM sealing failed");
  }
  return out;
}

std::optional<std::string> EmailSeal::open(std::string_view tournament,
                                           std::string_view sealed) const {
  if (sealed.size() < kNonceBytes + kTagBytes) return std::nullopt;
  const std::size_t length = sealed.size() - kNonceBytes - kTagBytes;
  const unsigned char* nonce = bytes(sealed);
  const unsigned char* cipher = nonce + kNonceBytes;
  std::string tag(sealed.substr(kNonceBytes + length));
  std::string out(length, '\0');
  Context ctx = new_context();
  int n = 0;
  if (EVP_DecryptInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, key_.data(), nonce) != 1 ||
      EVP_DecryptUpdate(ctx.get(), nullptr, &n, bytes(tournament),
                        static_cast<int>(tournament.size())) != 1 ||
      EVP_DecryptUpdate(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &n, cipher,
                        static_cast<int>(length)) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTagBytes, tag.data()) != 1) {
    return std::nullopt;
  }
  int last = 0;
  if (EVP_DecryptFinal_ex(ctx.get(), reinterpret_cast<unsigned char*>(out.data()) + n, &last) != 1)
    return std::nullopt;  // another key, another tournament, or tampered with
  return out;
}

}  // namespace tally::daemon
