// Reading CSV (RFC 4180): fields separated by commas (or the separator given: spreadsheets in
// Czech and Italian write semicolons), quoted fields with "" for a quote and line
// breaks inside, CRLF or LF line ends, a UTF-8 byte-order mark at the start ignored.
#pragma once

#include "i18n/message.hpp"

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tally::text {

struct CsvRecord {
  int line = 0;  // the line the record starts on (1-based), for messages
  std::vector<std::string> fields;
};

// What is wrong with a CSV text, as a rules catalog message naming the line.
class CsvError : public std::invalid_argument {
 public:
  explicit CsvError(i18n::Message message)
      : std::invalid_argument(message.key), message_(std::move(message)) {}
  const i18n::Message& message() const { return message_; }

 private:
  i18n::Message message_;
};

// Parses `text`. Blank lines are skipped. Throws CsvError naming the line on an unterminated
// quote, text after a closing quote, or bytes that are not UTF-8.
std::vector<CsvRecord> parse_csv(const std::string& text, char separator = ',');

// Is `text` well-formed UTF-8?
bool valid_utf8(std::string_view text);

}  // namespace tally::text
