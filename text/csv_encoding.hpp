// The encoding of a CSV file an organizer uploads (issue 38, item 4): Czech Excel saves
// Windows-1250, Russian Windows-1251, Italian Windows-1252 — not UTF-8. The bytes are decoded to
// UTF-8 before the file is read: in the encoding the organizer chose, or, with "auto", UTF-8 when
// they are valid UTF-8 (a BOM is dropped), else the Windows code page ICU's charset detector finds
// likeliest. A byte that the chosen encoding does not define is refused, naming its line.
//
// Thread safety: pure functions.
#pragma once

#include "i18n/message.hpp"

#include <array>
#include <string>
#include <string_view>
#include <variant>

namespace tally::text {

// What `encoding` may name ("auto" besides).
inline constexpr std::array<std::string_view, 4> kCsvEncodings = {"utf-8", "windows-1250",
                                                                  "windows-1251", "windows-1252"};

struct DecodedCsv {
  std::string utf8;
  std::string encoding;   // one of kCsvEncodings: the one used
  bool detected = false;  // chosen by the detector ("auto" over bytes that are not UTF-8)
};

// REQUIRES: `encoding` is "auto" or one of kCsvEncodings (the API checks it first).
// The decoded file, or why it cannot be (rules.csv.not_in_encoding naming the line and the
// encoding; rules.csv.encoding_unknown when "auto" finds nothing).
std::variant<DecodedCsv, i18n::Message> decode_csv(std::string_view bytes,
                                                   std::string_view encoding);

}  // namespace tally::text
