#include "projections/agot/seating_solver.hpp"

#include "projections/agot/matching.hpp"
#include "projections/agot/rules.hpp"
#include "tests/projections/agot/agot_fixtures.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <unordered_map>

namespace tally::projections::agot {
namespace {

using testing::conformance;
using testing::houses_of;
using testing::str;

// --- An independent reference: Hall's condition by subsets, seatings by enumeration -----------

// Six players can take six different houses iff every subset of them can (Hall).
bool table_ok(const std::vector<HouseSet>& available, const std::vector<std::size_t>& members) {
  const unsigned n = static_cast<unsigned>(members.size());
  for (unsigned subset = 1; subset < (1u << n); ++subset) {
    HouseSet reach;
    for (unsigned i = 0; i < n; ++i) {
      if (subset >> i & 1u) reach = reach | available[members[i]];
    }
    if (reach.size() < std::popcount(subset)) return false;
  }
  return true;
}

using Tables = std::vector<std::vector<std::size_t>>;

// The lexicographically first feasible league A (sorted rating places), then B from the rest, …
// by plain enumeration of 6-combinations in lexicographic order.
std::optional<Tables> brute_force(const std::vector<HouseSet>& available,
                                  const std::vector<std::size_t>& remaining,
                                  std::unordered_map<std::uint64_t, bool>& memo) {
  if (remaining.empty()) return Tables{};
  std::uint64_t key = 0;
  for (std::size_t i : remaining) key |= std::uint64_t{1} << i;
  if (auto it = memo.find(key); it != memo.end() && !it->second) return std::nullopt;
  const std::size_t n = remaining.size();
  std::vector<std::size_t> pick = {0, 1, 2, 3, 4, 5};
  while (true) {
    std::vector<std::size_t> table;
    for (std::size_t k : pick) table.push_back(remaining[k]);
    if (table_ok(available, table)) {
      std::vector<std::size_t> rest;
      for (std::size_t i = 0, k = 0; i < n; ++i) {
        if (k < 6 && pick[k] == i)
          ++k;
        else
          rest.push_back(remaining[i]);
      }
      if (auto sub = brute_force(available, rest, memo)) {
        sub->insert(sub->begin(), table);
        memo[key] = true;
        return sub;
      }
    }
    // Next combination in lexicographic order.
    int i = 5;
    while (i >= 0 && pick[i] == n - 6 + static_cast<std::size_t>(i)) --i;
    if (i < 0) break;
    ++pick[i];
    for (int j = i + 1; j < 6; ++j) pick[j] = pick[j - 1] + 1;
  }
  memo[key] = false;
  return std::nullopt;
}

std::optional<Tables> brute_force(const std::vector<HouseSet>& available) {
  std::vector<std::size_t> all(available.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  std::unordered_map<std::uint64_t, bool> memo;
  return brute_force(available, all, memo);
}

// A regular history: `leagues` groups of six each play `rounds` rounds of a random Latin square,
// then the players are shuffled into a random rating order.
std::vector<HouseSet> regular_history(std::mt19937_64& rng, int leagues, int rounds) {
  std::vector<HouseSet> out;
  for (int g = 0; g < leagues; ++g) {
    std::array<int, 6> row{0, 1, 2, 3, 4, 5}, col{0, 1, 2, 3, 4, 5}, sym{0, 1, 2, 3, 4, 5};
    std::shuffle(row.begin(), row.end(), rng);
    std::shuffle(col.begin(), col.end(), rng);
    std::shuffle(sym.begin(), sym.end(), rng);
    for (int i = 0; i < 6; ++i) {
      HouseSet played;
      for (int k = 0; k < rounds; ++k) played = played.with(kHouses[sym[(row[i] + col[k]) % 6]]);
      out.push_back(HouseSet::all() - played);
    }
  }
  std::shuffle(out.begin(), out.end(), rng);
  return out;
}

// Every table seats six different houses its players may play, and the tables partition everyone.
void expect_valid(const std::vector<HouseSet>& available, const LeagueSeating& s) {
  std::vector<int> seen(available.size(), 0);
  ASSERT_EQ(s.tables.size() * 6, available.size());
  for (const auto& t : s.tables) {
    ASSERT_EQ(t.size(), 6u);
    HouseSet houses;
    for (std::size_t p : t) {
      ++seen[p];
      EXPECT_TRUE(available[p].contains(s.houses[p])) << p;
      houses = houses.with(s.houses[p]);
    }
    EXPECT_EQ(houses, HouseSet::all());
  }
  for (int c : seen) EXPECT_EQ(c, 1);
}

// The witness: the short players can only play the short houses, which seat fewer of them.
void expect_sound_witness(const std::vector<HouseSet>& available, const HouseMatch& why,
                          int tables) {
  ASSERT_FALSE(why.short_players.empty());
  for (std::size_t p : why.short_players) {
    EXPECT_EQ(available[p] - why.short_houses, HouseSet()) << p;
  }
  EXPECT_GT(why.short_players.size(), static_cast<std::size_t>(tables * why.short_houses.size()));
}

TEST(AgotSeatingSolver, ConformanceRoundSixConflict) {
  const boost::json::value doc = conformance();
  const auto& cases = doc.at("seating").as_array();
  ASSERT_FALSE(cases.empty());
  for (const auto& c : cases) {
    SCOPED_TRACE(str(c.at("name")));
    std::vector<std::string> order;
    std::vector<HouseSet> available;
    for (const auto& id : c.at("rating_order").as_array()) {
      order.push_back(str(id));
      available.push_back(houses_of(c.at("available").at(str(id)).as_array()));
    }
    SolvedSeating solved = solve_league_seating(available);
    ASSERT_TRUE(solved.seating);
    const auto& expect = c.at("expect").as_object();
    for (std::size_t league = 0; league < solved.seating->tables.size(); ++league) {
      std::vector<std::string> got;
      for (std::size_t i : solved.seating->tables[league]) got.push_back(order[i]);
      std::vector<std::string> want;
      for (const auto& id : expect.at(league_name(league)).as_array()) want.push_back(str(id));
      EXPECT_EQ(got, want) << "league " << league_name(league);
      for (std::size_t i : solved.seating->tables[league]) {
        EXPECT_EQ(house_id(solved.seating->houses[i]), str(expect.at("houses").at(order[i])))
            << order[i];
      }
    }
    // Who keeps a higher league's bonus: the rating put them above the table they sit at.
    std::vector<std::string> keeps;
    for (std::size_t league = 0; league < solved.seating->tables.size(); ++league) {
      for (std::size_t i : solved.seating->tables[league]) {
        if (i / 6 < league) keeps.push_back(order[i]);
      }
    }
    std::vector<std::string> want_keeps;
    for (const auto& id : expect.at("keeps_league_bonus").as_array()) want_keeps.push_back(str(id));
    EXPECT_EQ(keeps, want_keeps);
  }
}

TEST(AgotSeatingSolver, KeepsTheRatingOrderWhenItFits) {
  std::vector<HouseSet> everyone(18, HouseSet::all());
  SolvedSeating s = solve_league_seating(everyone);
  ASSERT_TRUE(s.seating);
  EXPECT_EQ(s.seating->tables,
            (Tables{{0, 1, 2, 3, 4, 5}, {6, 7, 8, 9, 10, 11}, {12, 13, 14, 15, 16, 17}}));
}

TEST(AgotSeatingSolver, AVacancyGoesToTheBestRatedPlayerWhoFits) {
  // Places 1-6 all have only Stark or Lannister left except place 6; place 7 and 8 fit.
  const HouseSet sl = HouseSet::of(House::STARK).with(House::LANNISTER);
  std::vector<HouseSet> a(12, HouseSet::all());
  a[0] = HouseSet::of(House::STARK);
  a[1] = sl;
  a[2] = sl;  // place 3 cannot join 1 and 2: only two of Stark/Lannister at a table
  SolvedSeating s = solve_league_seating(a);
  ASSERT_TRUE(s.seating);
  EXPECT_EQ(s.seating->tables[0], (std::vector<std::size_t>{0, 1, 3, 4, 5, 6}));
  EXPECT_EQ(s.seating->tables[1], (std::vector<std::size_t>{2, 7, 8, 9, 10, 11}));
  expect_valid(a, *s.seating);
}

TEST(AgotSeatingSolver, LooksAheadSoTheRestCanStillBeSeated) {
  // A greedy walk would put places 1-6 at table A; then places 7-12 hold two players with only
  // Martell. The solver must see it and swap one of them with a place-1..6 player who fits B.
  std::vector<HouseSet> a(12, HouseSet::all());
  a[6] = HouseSet::of(House::MARTELL);
  a[7] = HouseSet::of(House::MARTELL);
  SolvedSeating s = solve_league_seating(a);
  ASSERT_TRUE(s.seating);
  EXPECT_EQ(s.seating->tables[0], (std::vector<std::size_t>{0, 1, 2, 3, 4, 6}));
  EXPECT_EQ(s.seating->tables[1], (std::vector<std::size_t>{5, 7, 8, 9, 10, 11}));
  expect_valid(a, *s.seating);
}

TEST(AgotSeatingSolver, ExplainsWhyNoSeatingExists) {
  std::vector<HouseSet> a(12, HouseSet::all());
  a[2] = a[5] = a[9] = HouseSet::of(House::STARK);  // three Stark-only players, two tables
  SolvedSeating s = solve_league_seating(a);
  ASSERT_FALSE(s.seating);
  EXPECT_EQ(s.why.short_players, (std::vector<std::size_t>{2, 5, 9}));
  EXPECT_EQ(s.why.short_houses, HouseSet::of(House::STARK));
  expect_sound_witness(a, s.why, 2);
}

TEST(AgotSeatingSolver, AgreesWithEnumerationOnRandomAvailability) {
  std::mt19937_64 rng(20260501);
  int feasible = 0, infeasible = 0;
  for (int iteration = 0; iteration < 3000; ++iteration) {
    std::vector<HouseSet> a;
    for (int p = 0; p < 12; ++p) {
      // 1..4 houses each: dense enough to be seatable often, sparse enough to conflict.
      HouseSet s;
      int want = 1 + static_cast<int>(rng() % 4);
      while (s.size() < want) s = s.with(kHouses[rng() % 6]);
      a.push_back(s);
    }
    SCOPED_TRACE(iteration);
    auto expected = brute_force(a);
    SolvedSeating got = solve_league_seating(a);
    ASSERT_EQ(got.seating.has_value(), expected.has_value());
    if (expected) {
      ++feasible;
      EXPECT_EQ(got.seating->tables, *expected);
      expect_valid(a, *got.seating);
    } else {
      ++infeasible;
      expect_sound_witness(a, got.why, 2);
    }
  }
  // The sample exercises both outcomes.
  EXPECT_GT(feasible, 300);
  EXPECT_GT(infeasible, 300);
}

TEST(AgotSeatingSolver, AgreesWithEnumerationForThreeLeagues) {
  std::mt19937_64 rng(7);
  for (int iteration = 0; iteration < 40; ++iteration) {
    SCOPED_TRACE(iteration);
    std::vector<HouseSet> a = regular_history(rng, 3, 3 + iteration % 3);
    auto expected = brute_force(a);
    ASSERT_TRUE(expected);
    SolvedSeating got = solve_league_seating(a);
    ASSERT_TRUE(got.seating);
    EXPECT_EQ(got.seating->tables, *expected);
  }
}

TEST(AgotSeatingSolver, RegularHistoriesAlwaysSeat) {
  std::mt19937_64 rng(11);
  for (int iteration = 0; iteration < 300; ++iteration) {
    int leagues = 1 + iteration % 10;
    int rounds = 1 + iteration % 5;
    SCOPED_TRACE(::testing::Message() << "leagues " << leagues << " rounds " << rounds);
    std::vector<HouseSet> a = regular_history(rng, leagues, rounds);
    SolvedSeating got = solve_league_seating(a);
    ASSERT_TRUE(got.seating);
    expect_valid(a, *got.seating);
  }
}

TEST(AgotMatching, TableOfFewerPlayersLeavesHousesFree) {
  HouseMatch m =
      match_houses({HouseSet::of(House::TYRELL), HouseSet::of(House::TYRELL).with(House::STARK)});
  ASSERT_TRUE(m.complete());
  EXPECT_EQ(m.houses, (std::vector<House>{House::TYRELL, House::STARK}));
  HouseMatch none = match_houses({HouseSet::of(House::TYRELL), HouseSet::of(House::TYRELL)});
  EXPECT_FALSE(none.complete());
  EXPECT_EQ(none.short_houses, HouseSet::of(House::TYRELL));
  EXPECT_EQ(none.short_players.size(), 2u);
}

TEST(AgotMatching, WarmStartKeepsWhatStillFits) {
  // Two slots of one seat; player 0 may take either, player 1 only slot 0.
  Assignment a = assign({{0, 1}, {0}}, {1, 1}, {0, -1});
  ASSERT_TRUE(a.complete());
  EXPECT_EQ(a.slot_of, (std::vector<int>{1, 0}));  // player 0 re-routed to make room
}

}  // namespace
}  // namespace tally::projections::agot
