#include "projections/catan/placing.hpp"

#include "projections/catan/validation.hpp"
#include "tests/projections/catan/fixtures.hpp"

#include <gtest/gtest.h>

#include <map>

namespace tally::projections::catan {
namespace {

using namespace testing;

const std::vector<std::int64_t> kFour = {5, 3, 2, 1};
const std::vector<std::int64_t> kThree = {5, 3, 2};

// A sheet worth exactly `vp` (settlements and cities only).
PlayerSheet worth(const std::string& player, int vp) {
  PlayerSheet s;
  s.player = player;
  s.cities = std::min(4, (vp - 2) / 2);
  s.settlements = vp - 2 * s.cities;
  return s;
}

std::map<std::string, std::pair<std::string, std::string>> by_player(
    const std::vector<Placing>& ps) {
  std::map<std::string, std::pair<std::string, std::string>> out;
  for (const auto& p : ps) out[p.player] = {p.place_label(), p.points.str()};
  return out;
}

TEST(CatanPlacing, SharedPlacesSplitThePointsOfThePlacesTheyOccupy) {
  auto ps = place_table({worth("a", 9), worth("b", 7), worth("c", 7), worth("d", 4)}, {}, kFour);
  EXPECT_EQ(by_player(ps),
            (std::map<std::string, std::pair<std::string, std::string>>{
                {"a", {"1", "5"}}, {"b", {"2=", "5/2"}}, {"c", {"2=", "5/2"}}, {"d", {"4", "1"}}}));
  ps = place_table({worth("a", 8), worth("b", 8), worth("c", 8), worth("d", 4)}, {}, kFour);
  EXPECT_EQ(ps[0].points, Rational(10, 3));
  EXPECT_EQ(ps[0].place_label(), "1=");
  EXPECT_EQ(ps[3].place_label(), "4");
  ps = place_table({worth("a", 6), worth("b", 6), worth("c", 6), worth("d", 6)}, {}, kFour);
  for (const auto& p : ps) EXPECT_EQ(p.points, Rational(11, 4));
  ps = place_table({worth("a", 9), worth("b", 5), worth("c", 5), worth("d", 5)}, {}, kFour);
  EXPECT_EQ(ps[1].points, Rational(2));  // (3+2+1)/3
  EXPECT_EQ(ps[1].place_label(), "2=");
}

TEST(CatanPlacing, OrderIsByVpAndTiesKeepTheSheetOrder) {
  auto ps = place_table({worth("a", 4), worth("b", 9), worth("c", 4)}, {}, kThree);
  ASSERT_EQ(ps.size(), 3u);
  EXPECT_EQ(ps[0].player, "b");
  EXPECT_EQ(ps[1].player, "a");
  EXPECT_EQ(ps[2].player, "c");
  EXPECT_EQ(ps[1].points, Rational(5, 2));
}

TEST(CatanPlacing, TheClaimantIsFirstAloneWhenTwoHaveTenOrMore) {
  auto sheets =
      std::vector<PlayerSheet>{worth("a", 10), worth("b", 12), worth("c", 10), worth("d", 3)};
  auto ps = place_table(sheets, {"c"}, kFour);
  EXPECT_EQ(by_player(ps),
            (std::map<std::string, std::pair<std::string, std::string>>{
                {"c", {"1", "5"}}, {"b", {"2", "3"}}, {"a", {"3", "2"}}, {"d", {"4", "1"}}}));
  EXPECT_TRUE(ps[0].by_claim);
  EXPECT_FALSE(ps[1].by_claim);
  // Tied with the claimant at 10: the claimant still takes 1st alone.
  sheets = {worth("a", 10), worth("b", 10), worth("c", 5)};
  ps = place_table(sheets, {"b"}, kThree);
  EXPECT_EQ(ps[0].player, "b");
  EXPECT_EQ(ps[0].place_label(), "1");
  EXPECT_EQ(ps[1].place_label(), "2");
}

TEST(CatanPlacing, WithOneAtTenTheClaimChangesNothing) {
  auto sheets = std::vector<PlayerSheet>{worth("a", 8), worth("b", 10), worth("c", 8)};
  auto with = place_table(sheets, {"b"}, kThree);
  auto without = place_table(sheets, {}, kThree);
  EXPECT_EQ(by_player(with), by_player(without));
  EXPECT_FALSE(with[0].by_claim);
  EXPECT_EQ(claim_exception_winner(sheets, {"b"}), std::nullopt);
}

TEST(CatanPlacing, NoExceptionUnlessExactlyOneEligibleClaimant) {
  auto sheets = std::vector<PlayerSheet>{worth("a", 10), worth("b", 12), worth("c", 4)};
  EXPECT_EQ(claim_exception_winner(sheets, {}), std::nullopt);
  EXPECT_EQ(claim_exception_winner(sheets, {"a", "b"}), std::nullopt);
  EXPECT_EQ(claim_exception_winner(sheets, {"c", "a"}), "a");
  // A table left without a claim (a void) is placed by VP.
  EXPECT_EQ(place_table(sheets, {}, kThree)[0].player, "b");
}

// Properties over thousands of random valid tables (with the claims they need).
TEST(CatanPlacingProperty, PointsSumToTheTableAndPlacesFollowVp) {
  std::mt19937_64 rng(4242);
  int shared = 0, by_claim = 0;
  for (int i = 0; i < 5000; ++i) {
    const std::size_t n = 3 + rng() % 2;
    auto t = random_table(rng, n);
    const auto& points = n == 4 ? kFour : kThree;
    auto ps = place_table(t.sheets, t.claimants, points);
    ASSERT_EQ(ps.size(), n);

    Rational sum;
    for (const auto& p : ps) sum += p.points;
    EXPECT_EQ(sum, Rational(n == 4 ? 11 : 10)) << "table " << i;

    for (std::size_t k = 0; k < n; ++k) {
      const auto& p = ps[k];
      if (k > 0) {
        EXPECT_LE(p.points, ps[k - 1].points);
      }
      EXPECT_EQ(p.shared_by > 1, p.place_label().ends_with("="));
      if (p.shared_by > 1) ++shared;
      if (p.by_claim) {
        ++by_claim;
        EXPECT_EQ(k, 0u);
        EXPECT_EQ(p.place, 1u);
        EXPECT_EQ(p.shared_by, 1u);
        EXPECT_GE(p.vp, kClaimVp);
        continue;
      }
      for (std::size_t j = 0; j < n; ++j) {
        const auto& q = ps[j];
        if (q.by_claim || j == k) continue;
        if (p.vp > q.vp) {
          EXPECT_LT(p.place, q.place);
        }
        if (p.vp == q.vp) {
          EXPECT_EQ(p.place, q.place);
          EXPECT_EQ(p.points, q.points);
        }
      }
    }
    // The places are 1 + the number of players ahead.
    for (std::size_t k = 0; k < n; ++k) {
      std::size_t ahead = 0;
      for (const auto& q : ps) {
        if (q.by_claim && !ps[k].by_claim)
          ++ahead;
        else if (!q.by_claim && !ps[k].by_claim && q.vp > ps[k].vp)
          ++ahead;
      }
      EXPECT_EQ(ps[k].place, ahead + 1);
    }
  }
  // The generator reaches the interesting cases often.
  EXPECT_GT(shared, 500);
  EXPECT_GT(by_claim, 50);
}

}  // namespace
}  // namespace tally::projections::catan
