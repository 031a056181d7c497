#include "text/csv_encoding.hpp"

#include "text/csv.hpp"

#include <unicode/ucnv.h>
#include <unicode/ucsdet.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <memory>

namespace tally::text {

namespace {

// The Windows code page a detector's match stands for, or "" for one we do not read. ISO 8859-2
// and -1 are what the detector calls those code pages when no byte in 0x80–0x9F shows the
// difference; a file from Windows is the likelier of the two.
std::string_view code_page_of(std::string_view match) {
  if (match == "windows-1250" || match == "ISO-8859-2") return "windows-1250";
  if (match == "windows-1251") return "windows-1251";
  if (match == "windows-1252" || match == "ISO-8859-1") return "windows-1252";
  return "";
}

std::string_view detect(std::string_view bytes) {
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<UCharsetDetector, decltype(&ucsdet_close)> detector(ucsdet_open(&status),
                                                                      ucsdet_close);
  ucsdet_setText(detector.get(), bytes.data(), static_cast<int32_t>(bytes.size()), &status);
  int32_t count = 0;
  const UCharsetMatch** matches = ucsdet_detectAll(detector.get(), &count, &status);
  if (U_FAILURE(status)) return "";
  for (int32_t i = 0; i < count; ++i) {  // best first
    auto page = code_page_of(ucsdet_getName(matches[i], &status));
    if (U_SUCCESS(status) && !page.empty()) return page;
  }
  return "";
}

std::string line_of(std::string_view bytes, std::size_t offset) {
  offset = std::min(offset, bytes.size());
  return std::to_string(1 + std::count(bytes.begin(), bytes.begin() + offset, '\n'));
}

}  // namespace

std::variant<DecodedCsv, i18n::Message> decode_csv(std::string_view bytes,
                                                   std::string_view encoding) {
  DecodedCsv out;
  if (encoding == "auto") {
    if (valid_utf8(bytes)) {
      out.encoding = "utf-8";
    } else {
      out.encoding = detect(bytes);
      out.detected = true;
      if (out.encoding.empty()) return i18n::Message("rules.csv.encoding_unknown");
    }
  } else {
    out.encoding = encoding;
  }
  if (out.encoding == "utf-8" && bytes.starts_with("\xEF\xBB\xBF")) bytes.remove_prefix(3);

  // Byte by byte is enough for these encodings (one byte a character, or UTF-8, whose first bad
  // byte ICU reports): the offset of the first undefined byte gives its line.
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<UConverter, decltype(&ucnv_close)> converter(
      ucnv_open(out.encoding.c_str(), &status), ucnv_close);
  ucnv_setToUCallBack(converter.get(), UCNV_TO_U_CALLBACK_STOP, nullptr, nullptr, nullptr, &status);
  std::u16string buffer(bytes.size() + 1, u'\0');
  const char* source = bytes.data();
  UChar* target = reinterpret_cast<UChar*>(buffer.data());
  ucnv_toUnicode(converter.get(), &target, target + buffer.size(), &source,
                 bytes.data() + bytes.size(), nullptr, true, &status);
  if (U_FAILURE(status)) {
    // `source` stops after the bad byte(s).
    std::size_t at = static_cast<std::size_t>(source - bytes.data());
    return i18n::Message(
        "rules.csv.not_in_encoding",
        {{"line", line_of(bytes, at == 0 ? 0 : at - 1)}, {"encoding", out.encoding}});
  }
  buffer.resize(static_cast<std::size_t>(target - reinterpret_cast<UChar*>(buffer.data())));
  icu::UnicodeString(false, reinterpret_cast<const UChar*>(buffer.data()),
                     static_cast<int32_t>(buffer.size()))
      .toUTF8String(out.utf8);
  return out;
}

}  // namespace tally::text
