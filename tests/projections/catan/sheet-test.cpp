#include "projections/catan/sheet.hpp"

#include <gtest/gtest.h>

namespace tally::projections::catan {
namespace {

TEST(CatanSheet, VpIsTheSumOfItsItems) {
  PlayerSheet s;
  s.settlements = 2;
  s.cities = 3;
  s.vp_cards = 1;
  s.largest_army = true;
  s.longest_road_holder = true;
  // 2 + 2·3 + 1 + 2 + 2
  EXPECT_EQ(vp_of(s), 13);
  auto lines = vp_lines(s);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0].rule, "settlements");
  EXPECT_EQ(lines[1].rule, "cities");
  EXPECT_EQ(lines[1].count, 3);
  EXPECT_EQ(lines[1].vp, 6);
  EXPECT_EQ(lines[2].rule, "vp_cards");
  EXPECT_EQ(lines[3].rule, "largest_army");
  EXPECT_EQ(lines[3].vp, 2);
  EXPECT_EQ(lines[4].rule, "longest_road_holder");
}

TEST(CatanSheet, ItemsWorthNothingAreLeftOut) {
  PlayerSheet s;
  s.settlements = 2;
  s.knights = 2;  // knights alone are worth nothing
  auto lines = vp_lines(s);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].rule, "settlements");
  EXPECT_EQ(vp_of(s), 2);
}

}  // namespace
}  // namespace tally::projections::catan
