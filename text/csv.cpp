#include "text/csv.hpp"

#include <stdexcept>

namespace tally::text {

bool valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    auto c = static_cast<unsigned char>(text[i]);
    int length = c < 0x80           ? 1
                 : (c >> 5) == 0x6  ? 2
                 : (c >> 4) == 0xE  ? 3
                 : (c >> 3) == 0x1E ? 4
                                    : 0;
    if (length == 0 || i + length > text.size()) return false;
    char32_t cp = length == 1   ? c
                  : length == 2 ? (c & 0x1F)
                  : length == 3 ? (c & 0x0F)
                                : (c & 0x07);
    for (int k = 1; k < length; ++k) {
      auto b = static_cast<unsigned char>(text[i + k]);
      if ((b & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (b & 0x3F);
    }
    // Overlong forms, surrogates and values beyond Unicode are not UTF-8.
    static constexpr char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[length] || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return false;
    i += length;
  }
  return true;
}

std::vector<CsvRecord> parse_csv(const std::string& input, char separator) {
  std::string text = input;
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
  if (!valid_utf8(text)) throw CsvError("rules.csv.not_utf8");

  std::vector<CsvRecord> records;
  CsvRecord record;
  std::string field;
  int line = 1;
  record.line = 1;
  bool in_quotes = false;
  bool after_quote = false;    // a quoted field just closed: only , or a line end may follow
  bool field_started = false;  // the record has content (so a blank line is not a record)

  auto end_field = [&] {
    record.fields.push_back(std::move(field));
    field.clear();
    after_quote = false;
  };
  auto end_record = [&] {
    if (field_started || !record.fields.empty()) {
      end_field();
      records.push_back(std::move(record));
    }
    record = CsvRecord{};
    field.clear();
    field_started = false;
    after_quote = false;
  };

  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_quotes) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          in_quotes = false;
          after_quote = true;
        }
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;  // CRLF: at the \n
    if (c == '\n' || c == '\r') {
      end_record();
      ++line;
      record.line = line;
      continue;
    }
    if (c == separator) {
      field_started = true;
      end_field();
      continue;
    }
    if (after_quote) {
      throw CsvError(i18n::Message("rules.csv.text_after_quote", {{"line", std::to_string(line)}}));
    }
    if (c == '"' && field.empty()) {
      in_quotes = true;
      field_started = true;
      continue;
    }
    field += c;
    field_started = true;
  }
  if (in_quotes) {
    throw CsvError(
        i18n::Message("rules.csv.unclosed_quote", {{"line", std::to_string(record.line)}}));
  }
  end_record();
  return records;
}

}  // namespace tally::text
