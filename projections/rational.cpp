#include "projections/rational.hpp"

#include "text/json_writer.hpp"

#include <boost/json.hpp>

#include <numeric>
#include <stdexcept>

namespace tally {

namespace {

// Narrows a 128-bit intermediate back to 64 bits; points never come near the limit, so an
// overflow is a bug, not an input error.
std::int64_t narrow(__int128 v) {
  if (v > INT64_MAX || v < INT64_MIN) throw std::overflow_error("rational: value out of range");
  return static_cast<std::int64_t>(v);
}

Rational make(__int128 num, __int128 den) {
  if (den == 0) throw std::domain_error("rational: zero denominator");
  if (den < 0) {
    num = -num;
    den = -den;
  }
  __int128 a = num < 0 ? -num : num, b = den;
  while (b != 0) {
    __int128 t = a % b;
    a = b;
    b = t;
  }
  if (a > 1) {
    num /= a;
    den /= a;
  }
  return Rational(narrow(num), narrow(den));
}

}  // namespace

Rational::Rational(std::int64_t num, std::int64_t den) {
  if (den == 0) throw std::domain_error("rational: zero denominator");
  if (den < 0) {
    num = -num;
    den = -den;
  }
  std::int64_t g = std::gcd(num, den);
  num_ = g > 1 ? num / g : num;
  den_ = g > 1 ? den / g : den;
}

Rational Rational::operator+(const Rational& o) const {
  return make(__int128(num_) * o.den_ + __int128(o.num_) * den_, __int128(den_) * o.den_);
}

Rational Rational::operator-(const Rational& o) const {
  return make(__int128(num_) * o.den_ - __int128(o.num_) * den_, __int128(den_) * o.den_);
}

Rational Rational::operator*(const Rational& o) const {
  return make(__int128(num_) * o.num_, __int128(den_) * o.den_);
}

Rational Rational::operator/(const Rational& o) const {
  return make(__int128(num_) * o.den_, __int128(den_) * o.num_);
}

std::strong_ordering Rational::operator<=>(const Rational& o) const {
  return __int128(num_) * o.den_ <=> __int128(o.num_) * den_;
}

std::string Rational::str() const {
  if (den_ == 1) return std::to_string(num_);
  return std::to_string(num_) + "/" + std::to_string(den_);
}

Rational Rational::parse(const std::string& text) {
  std::size_t slash = text.find('/');
  try {
    std::size_t used = 0;
    if (slash == std::string::npos) {
      std::int64_t n = std::stoll(text, &used);
      if (used != text.size()) throw std::invalid_argument(text);
      return Rational(n);
    }
    std::string num = text.substr(0, slash), den = text.substr(slash + 1);
    std::int64_t n = std::stoll(num, &used);
    if (used != num.size()) throw std::invalid_argument(text);
    std::int64_t d = std::stoll(den, &used);
    if (used != den.size() || d == 0) throw std::invalid_argument(text);
    return Rational(n, d);
  } catch (const std::logic_error&) {
    throw std::invalid_argument("not a rational: \"" + text + "\"");
  }
}

boost::json::value Rational::to_json() const {
  // A whole number shows as one ("value":3), not as a double ("3E0").
  boost::json::value value = is_integer() ? boost::json::value(num_) : boost::json::value(approx());
  boost::json::object out;
  out.emplace("value", std::move(value));
  out.emplace("exact", str());
  return out;
}

text::JsonWriter& write_points(text::JsonWriter& out, const Rational& r) {
  out.begin_object().key("value");
  if (r.is_integer()) {
    out.number(r.num());
  } else {
    out.value(boost::json::value(r.approx()));  // Boost's own form of a double ("1.5E0")
  }
  return out.key("exact").fraction_string(r.num(), r.den()).end_object();
}

}  // namespace tally
