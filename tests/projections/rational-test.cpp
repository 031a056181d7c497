#include "projections/rational.hpp"

#include "text/json_writer.hpp"

#include <gtest/gtest.h>
#include <boost/json.hpp>

namespace tally {
namespace {

TEST(Rational, NormalisesToLowestTermsWithAPositiveDenominator) {
  EXPECT_EQ(Rational(10, 4).str(), "5/2");
  EXPECT_EQ(Rational(3, -6).str(), "-1/2");
  EXPECT_EQ(Rational(8, 4).str(), "2");
  EXPECT_TRUE(Rational(8, 4).is_integer());
  EXPECT_THROW(Rational(1, 0), std::domain_error);
}

TEST(Rational, SplitPlacesAddUpExactly) {
  // Three players tied for first at a 4-player Catan table: (5+3+2)/3 each.
  Rational share = Rational(5 + 3 + 2) / 3;
  EXPECT_EQ(share.str(), "10/3");
  EXPECT_EQ(share + share + share, Rational(10));
  EXPECT_EQ((Rational(3) + 2) / 2, Rational(5, 2));
  EXPECT_EQ(Rational(11, 4) * 4, Rational(11));
}

TEST(Rational, ComparesWithoutFloatingPoint) {
  // 1/3 and 333333333333333333/1e18 differ only beyond double precision.
  Rational third(1, 3), close(333333333333333333LL, 1000000000000000000LL);
  EXPECT_GT(third, close);
  EXPECT_NE(third, close);
  EXPECT_LT(Rational(-1, 2), Rational(0));
  EXPECT_EQ(Rational(2, 4) <=> Rational(1, 2), std::strong_ordering::equal);
}

TEST(Rational, ParsesWhatItWrites) {
  for (auto text : {"5/2", "-10/3", "7", "0"}) EXPECT_EQ(Rational::parse(text).str(), text);
  EXPECT_EQ(Rational::parse("6/4").str(), "3/2");
  EXPECT_THROW(Rational::parse("1/0"), std::invalid_argument);
  EXPECT_THROW(Rational::parse("2.5"), std::invalid_argument);
  EXPECT_THROW(Rational::parse("x"), std::invalid_argument);
}

TEST(Rational, JsonHasADisplayValueAndTheExactValue) {
  EXPECT_EQ(Rational(5, 2).to_json(), boost::json::parse(R"({"value":2.5,"exact":"5/2"})"));
  EXPECT_EQ(Rational(3).to_json().at("exact"), "3");
}

TEST(Rational, WritePointsAsToJsonDoes) {
  for (Rational r : {Rational(0), Rational(3), Rational(-2), Rational(1, 2), Rational(5, 2),
                     Rational(-3, 2), Rational(1, 3), Rational(2, 7)}) {
    std::string out;
    text::JsonWriter w(out);
    write_points(w, r);
    EXPECT_EQ(out, boost::json::serialize(r.to_json())) << r.str();
    // … and among other members, before and after it.
    std::string among;
    text::JsonWriter w2(among);
    write_points(w2.begin_array().begin_object().key("points"), r)
        .key("next")
        .number(std::int64_t{1});
    write_points(write_points(w2.end_object(), r), r).end_array();
    boost::json::array expected{boost::json::object{{"points", r.to_json()}, {"next", 1}},
                                r.to_json(), r.to_json()};
    EXPECT_EQ(among, boost::json::serialize(expected)) << r.str();
  }
}

}  // namespace
}  // namespace tally
