#include "text/json_writer.hpp"

#include <boost/json/serialize.hpp>

#include <array>
#include <charconv>

namespace tally::text {

namespace {

// The bytes a JSON string cannot hold as they are: control characters, '"' and '\\'.
constexpr std::array<bool, 256> kEscaped = [] {
  std::array<bool, 256> table{};
  for (int c = 0; c < 0x20; ++c) table[c] = true;
  table['"'] = table['\\'] = true;
  return table;
}();

bool needs_escape(std::string_view text) {
  for (char c : text) {
    if (kEscaped[static_cast<unsigned char>(c)]) return true;
  }
  return false;
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  // Most strings (names, places, rule ids) need no escape: one scan, then one copy, which
  // callgrind counts at ~3/4 of the instructions of copying them run by run below.
  if (!needs_escape(text)) {
    out += '"';
    out.append(text.data(), text.size());
    out += '"';
    return;
  }
  // Boost.JSON 1.81 (serializer's write_string): the two-character escapes for \b \t \n \f \r,
  // \" and \\, and \u00XX with lower-case hex digits for the other control characters; every
  // other byte (UTF-8 included) as it is.
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  std::size_t plain = 0;  // start of the run of bytes copied as they are
  for (std::size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (!kEscaped[c]) continue;
    out.append(text.data() + plain, i - plain);
    plain = i + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 0xf];
    }
  }
  out.append(text.data() + plain, text.size() - plain);
  out += '"';
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_ += ',';
    first_.back() = false;
  }
}

JsonWriter& JsonWriter::open(char bracket) {
  before_value();
  out_ += bracket;
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::close(char bracket) {
  out_ += bracket;
  first_.pop_back();
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  before_value();
  append_json_string(out_, name);
  out_ += ':';
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::string(std::string_view text) {
  before_value();
  append_json_string(out_, text);
  return *this;
}

namespace {
template <typename Int>
void append_integer(std::string& out, Int n) {
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof digits, n);
  out.append(digits, end);
}
}  // namespace

JsonWriter& JsonWriter::number(std::int64_t n) {
  before_value();
  append_integer(out_, n);
  return *this;
}

JsonWriter& JsonWriter::number(std::uint64_t n) {
  before_value();
  append_integer(out_, n);
  return *this;
}

JsonWriter& JsonWriter::boolean(bool b) {
  before_value();
  out_ += b ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::value(const boost::json::value& v) {
  // Member by member, so that strings and integers (nearly every value: log members, a game's
  // extras) are written without a serializer each; only a double is left to Boost's own form.
  switch (v.kind()) {
    case boost::json::kind::string:
      return string(v.get_string());
    case boost::json::kind::int64:
      return number(v.get_int64());
    case boost::json::kind::uint64:
      return number(v.get_uint64());
    case boost::json::kind::bool_:
      return boolean(v.get_bool());
    case boost::json::kind::null:
      return null();
    case boost::json::kind::array:
      begin_array();
      for (const auto& element : v.get_array()) value(element);
      return end_array();
    case boost::json::kind::object:
      begin_object();
      for (const auto& member : v.get_object()) key(member.key()).value(member.value());
      return end_object();
    case boost::json::kind::double_:
      break;
  }
  before_value();
  out_ += boost::json::serialize(v);
  return *this;
}

JsonWriter& JsonWriter::raw(std::string_view json) {
  before_value();
  out_ += json;
  return *this;
}

JsonWriter& JsonWriter::fraction_string(std::int64_t num, std::int64_t den) {
  before_value();
  out_ += '"';
  append_integer(out_, num);
  if (den != 1) {
    out_ += '/';
    append_integer(out_, den);
  }
  out_ += '"';
  return *this;
}

}  // namespace tally::text
