// Exact rational numbers for points: halves, thirds and quarters of split places, VP shares.
// No floating point takes part in any comparison; `approx()` exists only to display a value.
//
// Thread safety: a value type.
#pragma once

#include <boost/json/value.hpp>

#include <compare>
#include <cstdint>
#include <string>

namespace tally {

namespace text {
class JsonWriter;
}  // namespace text

class Rational {
 public:
  constexpr Rational() = default;
  constexpr Rational(std::int64_t whole) : num_(whole) {}  // NOLINT: 3 is the rational 3
  // REQUIRES: den != 0. Normalised: lowest terms, positive denominator.
  Rational(std::int64_t num, std::int64_t den);

  std::int64_t num() const { return num_; }
  std::int64_t den() const { return den_; }
  bool is_integer() const { return den_ == 1; }

  Rational operator+(const Rational& o) const;
  Rational operator-(const Rational& o) const;
  Rational operator*(const Rational& o) const;
  Rational operator/(const Rational& o) const;  // REQUIRES: o != 0
  Rational operator-() const { return Rational(-num_, den_); }
  Rational& operator+=(const Rational& o) { return *this = *this + o; }
  Rational& operator-=(const Rational& o) { return *this = *this - o; }

  // Exact: compares a/b with c/d as a·d with c·b in 128 bits.
  std::strong_ordering operator<=>(const Rational& o) const;
  bool operator==(const Rational& o) const { return num_ == o.num_ && den_ == o.den_; }

  // "5/2", "-1/3", "4".
  std::string str() const;
  // Parses what str() writes (and plain integers). Throws std::invalid_argument otherwise.
  static Rational parse(const std::string& text);
  // The nearest double, for display only.
  double approx() const { return static_cast<double>(num_) / static_cast<double>(den_); }
  // The API's form of a value that can be fractional: {"value":2.5,"exact":"5/2"}.
  boost::json::value to_json() const;

 private:
  std::int64_t num_ = 0;
  std::int64_t den_ = 1;
};

// Points as the API shows them, written as text: {"value":3,"exact":"3"} or
// {"value":1.5E0,"exact":"3/2"} — the bytes Boost.JSON writes for Rational::to_json.
text::JsonWriter& write_points(text::JsonWriter& out, const Rational& r);

}  // namespace tally
