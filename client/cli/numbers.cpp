#include "client/cli/numbers.hpp"
#include "client/cli/text.hpp"

#include "client/cli/say.hpp"

#include <boost/json.hpp>

#include <cstdio>
#include <optional>

namespace tally::cli {

namespace json = boost::json;

namespace {

using Int = __int128;

// Parses a decimal integer of at most 33 digits (so that ×10⁴ cannot overflow 128 bits).
std::optional<Int> parse_int(const std::string& text) {
  std::size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  if (i == text.size() || text.size() - i > 33) return std::nullopt;
  Int n = 0;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    n = n * 10 + (text[i] - '0');
  }
  return negative ? -n : n;
}

struct Fraction {
  Int num = 0;
  Int den = 1;
};

std::optional<Fraction> fraction_of(const json::value& v) {
  if (v.is_int64()) return Fraction{v.as_int64(), 1};
  if (v.is_uint64()) return Fraction{static_cast<Int>(v.as_uint64()), 1};
  if (!is_rational(v)) return std::nullopt;
  std::string exact(v.at("exact").as_string());
  auto slash = exact.find('/');
  auto num = parse_int(exact.substr(0, slash));
  auto den =
      slash == std::string::npos ? std::optional<Int>(1) : parse_int(exact.substr(slash + 1));
  if (!num || !den || *den <= 0) return std::nullopt;
  return Fraction{*num, *den};
}

// num/den × scale rounded half away from zero to a whole number: the hundredths of the value
// (scale 100) or of its percentage (scale 10000).
Int scaled_rounded(const Fraction& f, Int scale) {
  Int scaled = f.num * scale;
  bool negative = scaled < 0;
  Int magnitude = negative ? -scaled : scaled;
  Int q = magnitude / f.den;
  Int r = magnitude % f.den;
  if (2 * r >= f.den) ++q;
  return negative ? -q : q;
}

// Hundredths written with two decimals: 250 → "2.50".
std::string hundredths_text(Int hundredths) {
  bool negative = hundredths < 0;
  Int q = negative ? -hundredths : hundredths;
  auto digits = [](Int n) {
    std::string s;
    do {
      s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(n % 10)));
      n /= 10;
    } while (n > 0);
    return s;
  };
  std::string whole = digits(q / 100);
  std::string cents = digits(q % 100);
  if (cents.size() < 2) cents.insert(cents.begin(), '0');
  return (negative && q != 0 ? "-" : "") + whole + "." + cents;
}

std::string from_double(double d, double scale) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.2f", d * scale);
  return buffer;
}

double double_of(const json::value& v) {
  if (is_rational(v)) return double_of(v.at("value"));
  if (v.is_double()) return v.as_double();
  if (v.is_int64()) return static_cast<double>(v.as_int64());
  if (v.is_uint64()) return static_cast<double>(v.as_uint64());
  return 0;
}

}  // namespace

bool is_rational(const json::value& v) {
  return v.is_object() && v.as_object().contains("exact") && v.at("exact").is_string();
}

namespace {

// The value × scale / 100 for ICU to show with two decimals: rounded exactly from the fraction
// when there is one (a whole number of hundredths, whose nearest double ICU shows as exactly those
// two decimals), else from the floating-point value.
double display_value(const json::value& v, Int scale) {
  if (auto f = fraction_of(v)) return static_cast<double>(scaled_rounded(*f, scale)) / 100.0;
  return double_of(v) * static_cast<double>(scale) / 100.0;
}

}  // namespace

std::string two_decimals(const json::value& v) {
  if (auto f = fraction_of(v)) return hundredths_text(scaled_rounded(*f, 100));
  return from_double(double_of(v), 1);
}

std::string percent(const json::value& v) {
  if (auto f = fraction_of(v)) return hundredths_text(scaled_rounded(*f, 10000));
  return from_double(double_of(v), 100);
}

std::string shown_two_decimals(i18n::Lang lang, const json::value& v) {
  return say(lang, i18n::Message("cli.value.decimal",
                                 {{"value", i18n::Decimal{display_value(v, 100), 2}}}));
}

std::string shown_percent(i18n::Lang lang, const json::value& v) {
  return say(lang, i18n::Message("cli.value.percent",
                                 {{"value", i18n::Decimal{display_value(v, 10000), 2}}}));
}

std::string cell_text(const json::value& v, const std::string& null_text) {
  switch (v.kind()) {
    case json::kind::null:
      return null_text;
    case json::kind::string:
      return printable(v.as_string());
    case json::kind::bool_:
      return v.as_bool() ? "true" : "false";
    case json::kind::int64:
      return std::to_string(v.as_int64());
    case json::kind::uint64:
      return std::to_string(v.as_uint64());
    case json::kind::double_:
      return from_double(v.as_double(), 1);
    case json::kind::array: {
      std::string out;
      for (const auto& x : v.as_array()) out += (out.empty() ? "" : ", ") + cell_text(x, null_text);
      return out;
    }
    case json::kind::object:
      return is_rational(v) ? two_decimals(v) : json::serialize(v);
  }
  return "";
}

std::string shown(i18n::Lang lang, const json::value& v, const std::string& null_text) {
  switch (v.kind()) {
    case json::kind::bool_:
      return say(lang, i18n::Message(v.as_bool() ? "cli.value.yes" : "cli.value.no"));
    case json::kind::double_:
      return shown_two_decimals(lang, v);
    case json::kind::array: {
      std::string out;
      for (const auto& x : v.as_array())
        out += (out.empty() ? "" : ", ") + shown(lang, x, null_text);
      return out;
    }
    case json::kind::object:
      return is_rational(v) ? shown_two_decimals(lang, v) : json::serialize(v);
    default:
      return cell_text(v, null_text);
  }
}

}  // namespace tally::cli
