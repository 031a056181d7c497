// The encoding of an uploaded CSV (text/csv_encoding.hpp): what Czech, Russian and Italian
// spreadsheets save, detected; a byte the chosen encoding does not define refused by its line.
#include "text/csv_encoding.hpp"

#include <gtest/gtest.h>

namespace tally::text {
namespace {

// A file as Czech Excel saves it (Windows-1250): "Čeněk Šťastný", "Jiří Žďárský", …
const std::string kCzech1250 =
    "id;name\r\n"
    "p1;\xC8\x65n\xECk \x8A\x9D\x61stn\xFD\r\n"
    "p2;Ji\xF8\xED \x8E\xEF\xE1rsk\xFD\r\n"
    "p3;Ludm\xEDla \xC8\x65rm\xE1kov\xE1\r\n"
    "p4;P\xF8\x65mysl Kov\xE1\xF8\r\n";

DecodedCsv decoded(std::string_view bytes, std::string_view encoding) {
  auto out = decode_csv(bytes, encoding);
  EXPECT_TRUE(std::holds_alternative<DecodedCsv>(out));
  return std::holds_alternative<DecodedCsv>(out) ? std::get<DecodedCsv>(out) : DecodedCsv{};
}

TEST(CsvEncoding, CzechExcelsWindows1250IsDetectedAndDecoded) {
  auto file = decoded(kCzech1250, "auto");
  EXPECT_EQ(file.encoding, "windows-1250");
  EXPECT_TRUE(file.detected);
  EXPECT_NE(file.utf8.find("p1;Čeněk Šťastný\r\n"), std::string::npos) << file.utf8;
  EXPECT_NE(file.utf8.find("p2;Jiří Žďárský\r\n"), std::string::npos) << file.utf8;
}

TEST(CsvEncoding, RussianWindows1251IsDetected) {
  // "Пётр Лебедев", "Анна Смирнова", "Сергей Кузнецов" in Windows-1251.
  std::string bytes =
      "name\r\n\xCF\xB8\xF2\xF0 \xCB\xE5\xE1\xE5\xE4\xE5\xE2\r\n"
      "\xC0\xED\xED\xE0 \xD1\xEC\xE8\xF0\xED\xEE\xE2\xE0\r\n"
      "\xD1\xE5\xF0\xE3\xE5\xE9 \xCA\xF3\xE7\xED\xE5\xF6\xEE\xE2\r\n";
  auto file = decoded(bytes, "auto");
  EXPECT_EQ(file.encoding, "windows-1251");
  EXPECT_NE(file.utf8.find("Пётр Лебедев"), std::string::npos) << file.utf8;
}

TEST(CsvEncoding, Utf8WithOrWithoutABomIsReadAsItIs) {
  auto plain = decoded("name\nČeněk Šťastný\n", "auto");
  EXPECT_EQ(plain.encoding, "utf-8");
  EXPECT_FALSE(plain.detected);
  EXPECT_EQ(plain.utf8, "name\nČeněk Šťastný\n");
  auto bom = decoded("\xEF\xBB\xBFname\nEva\n", "auto");
  EXPECT_EQ(bom.utf8, "name\nEva\n");
}

TEST(CsvEncoding, TheChosenEncodingIsUsedAndAByteItLacksIsRefusedByItsLine) {
  auto chosen = decoded(kCzech1250, "windows-1252");  // the organizer's choice stands
  EXPECT_EQ(chosen.encoding, "windows-1252");
  EXPECT_FALSE(chosen.detected);
  // ICU reads the five bytes Windows-1250 leaves undefined (0x98 …) as C1 controls; no name may
  // hold one (rule text), so such a row is refused by the import, naming its line.
  EXPECT_EQ(decoded("name\nJa\x98n\n", "windows-1250").utf8, "name\nJa\u0098n\n");
  // Windows-1250 bytes read as UTF-8 are not UTF-8: refused at the first such line.
  auto as_utf8 = decode_csv(kCzech1250, "utf-8");
  ASSERT_TRUE(std::holds_alternative<i18n::Message>(as_utf8));
  EXPECT_EQ(std::get<i18n::Message>(as_utf8).args.at(0), (i18n::NamedArg{"line", "2"}));
}

}  // namespace
}  // namespace tally::text
