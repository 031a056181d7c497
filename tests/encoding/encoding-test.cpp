// Hex and base64 (encoding/): RFC 4648's test vectors (§10), the URL-safe alphabet, every byte
// there and back, and texts that are not one.
#include "encoding/base64.hpp"
#include "encoding/hex.hpp"

#include <gtest/gtest.h>

#include <array>

namespace tally::encoding {
namespace {

struct Vector {
  std::string bytes, base16, base64, base64url;
};

// RFC 4648 §10 (BASE16 there is upper-case; we write lower-case and read both).
const Vector kRfc4648[] = {
    {"", "", "", ""},
    {"f", "66", "Zg==", "Zg"},
    {"fo", "666f", "Zm8=", "Zm8"},
    {"foo", "666f6f", "Zm9v", "Zm9v"},
    {"foob", "666f6f62", "Zm9vYg==", "Zm9vYg"},
    {"fooba", "666f6f6261", "Zm9vYmE=", "Zm9vYmE"},
    {"foobar", "666f6f626172", "Zm9vYmFy", "Zm9vYmFy"},
};

TEST(Hex, Rfc4648Vectors) {
  for (const Vector& v : kRfc4648) {
    EXPECT_EQ(hex_encode(v.bytes), v.base16) << v.bytes;
    EXPECT_EQ(hex_decode(v.base16), v.bytes) << v.base16;
  }
  EXPECT_EQ(hex_decode("666F6F626172"), "foobar");  // the RFC's own upper-case spelling
}

TEST(Hex, BytesAndTheirDigits) {
  const std::array<std::uint8_t, 4> bytes{0x00, 0x0f, 0xa0, 0xff};
  EXPECT_EQ(hex_encode(bytes), "000fa0ff");
  EXPECT_EQ(hex_encode(std::string_view("\x01\xfe", 2)), "01fe");
}

TEST(Hex, RefusesWhatIsNotHex) {
  EXPECT_EQ(hex_decode("abc"), std::nullopt);  // odd
  EXPECT_EQ(hex_decode("0g"), std::nullopt);
  EXPECT_EQ(hex_decode("0x12"), std::nullopt);
  EXPECT_EQ(hex_decode(" 12"), std::nullopt);
}

TEST(Base64, Rfc4648Vectors) {
  for (const Vector& v : kRfc4648) {
    EXPECT_EQ(base64_encode(v.bytes), v.base64) << v.bytes;
    EXPECT_EQ(base64_decode(v.base64), v.bytes) << v.base64;
    EXPECT_EQ(base64url_encode(v.bytes), v.base64url) << v.bytes;
    EXPECT_EQ(base64url_decode(v.base64url), v.bytes) << v.base64url;
  }
}

TEST(Base64, TheTwoAlphabetsDifferInTheirLastTwoLetters) {
  const std::string bytes("\xfb\xef\xbe\xff\xff", 5);
  EXPECT_EQ(base64_encode(bytes), "++++//8=");
  EXPECT_EQ(base64url_encode(bytes), "----__8");
  EXPECT_EQ(base64_decode("++++//8="), bytes);
  EXPECT_EQ(base64url_decode("----__8"), bytes);
  EXPECT_EQ(base64_decode("----__8="), std::nullopt);
  EXPECT_EQ(base64url_decode("++++//8"), std::nullopt);
}

TEST(Base64, EveryByteThereAndBack) {
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  for (std::size_t n = 0; n <= all.size(); n += 37) {
    std::string bytes = all.substr(0, n);
    EXPECT_EQ(base64_decode(base64_encode(bytes)), bytes) << n;
    EXPECT_EQ(base64url_decode(base64url_encode(bytes)), bytes) << n;
    EXPECT_EQ(hex_decode(hex_encode(bytes)), bytes) << n;
  }
}

TEST(Base64, RefusesWhatIsNotBase64) {
  for (const char* text :
       {"Zg", "Zg=", "Z===", "====", "Zm9v=", "Zm=v", "Zg==Zg==", "Zm9v\n", "Zm 9v", "Zm9-"}) {
    EXPECT_EQ(base64_decode(text), std::nullopt) << text;
  }
  for (const char* text : {"Zg==", "Zm8=", "Z", "Zm9vY", "Zm9+", "Zm9/", "Zm 9"}) {
    EXPECT_EQ(base64url_decode(text), std::nullopt) << text;
  }
}

}  // namespace
}  // namespace tally::encoding
