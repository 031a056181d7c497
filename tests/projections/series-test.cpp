// The series' scoring (docs/series.md): Q-2's size, Q-3's walk with players passed over, the
// qualification points, the ladder's shared places and Q-4's ties — on tournaments made by hand
// here, so that every expected status below is worked out from the rules, not from the code.
#include "projections/series_scoring.hpp"

#include <gtest/gtest.h>
#include <boost/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace tally::projections {
namespace {

namespace json = boost::json;

// A tournament of 4 rounds: `full` played all four, then each of `partial` (name, rounds) —
// every entrant's key is their name (a person of the series), places in the order given.
SeriesTournament qualifier(std::string id, std::int64_t ended_at, std::vector<std::string> full,
                           std::vector<std::pair<std::string, std::uint32_t>> partial = {}) {
  SeriesTournament t;
  t.id = id;
  t.name = id;
  t.final = true;
  t.ended_at = ended_at;
  t.rounds = 4;
  auto add = [&](const std::string& name, std::uint32_t rounds) {
    SeriesEntrant e;
    e.key = e.person = e.player = e.name = name;
    e.place = static_cast<std::uint32_t>(t.entrants.size() + 1);
    e.rounds_played = rounds;
    t.entrants.push_back(e);
  };
  for (const auto& name : full) add(name, 4);
  for (const auto& [name, rounds] : partial) add(name, rounds);
  return t;
}

std::vector<std::string> fillers(const std::string& prefix, int n) {
  std::vector<std::string> out;
  for (int i = 1; i <= n; ++i) out.push_back(prefix + std::to_string(i));
  return out;
}

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

const QualificationScoring& czech() {
  static const QualificationScoring q = std::get<QualificationScoring>(scoring_of(
      std::get<json::object>(normalise_scoring(json::object{{"kind", "qualification"}}))));
  return q;
}

struct Expected {
  std::string status;
  std::string at;
  std::int64_t points;
};

TEST(SeriesScoring, TheCzechCatanTourDefaultsAreWrittenOut) {
  auto normalised =
      std::get<json::object>(normalise_scoring(json::object{{"kind", "qualification"}}));
  EXPECT_EQ(json::serialize(normalised),
            R"({"kind":"qualification","min_players":12,"counted":"half_rounds","brackets":)"
            R"([{"from":12,"direct":2,"point":2},{"from":21,"direct":4,"point":4},)"
            R"({"from":31,"direct":6,"point":6},{"from":41,"direct":8,"point":8}],)"
            R"("points_to_qualify":2})");
}

TEST(SeriesScoring, ASeasonOfFiveQualifiersGivesEveryStatusWorkedOutByHand) {
  // Q-3's order is the order they ended (T4 before T2), not the order they joined.
  std::vector<SeriesTournament> season{
      // 12 by Q-2 (x1, x2 played 1 of 4 rounds): places 1–2 direct, 3–4 a point.
      qualifier("T1", 100, concat({"A", "B", "C", "D", "E"}, fillers("f", 7)),
                {{"x1", 1}, {"x2", 1}}),
      // 20 who played all 4, y exactly half (counts), z one round (does not): 21 → 4 + 4.
      qualifier("T2", 200,
                concat({"B", "C", "F", "D", "H", "A", "I", "J", "K", "L"}, fillers("h", 10)),
                {{"y", 2}, {"z", 1}}),
      // 11 by Q-2 (14 took part): below min_players, it qualifies nobody.
      qualifier("T3", 300, concat({"G", "J", "K"}, fillers("k", 8)),
                {{"q1", 1}, {"q2", 1}, {"q3", 1}}),
      // 12: A already qualified (passed over), so C and E take the two direct places.
      qualifier("T4", 150, concat({"A", "C", "E", "G", "g1"}, fillers("e", 7))),
      // 12: g1 and h1 (a point each before) qualify directly; G and J earn their second point.
      qualifier("T5", 400, concat({"g1", "h1", "G", "J", "K"}, fillers("m", 7))),
  };
  SeriesStandings s = series_standings(czech(), season, "cs");

  std::map<std::string, const SeriesRow*> by_key;
  for (const auto& row : s.rows) by_key[row.key] = &row;
  const std::map<std::string, Expected> expected{
      {"A", {"direct", "T1", 0}},  {"B", {"direct", "T1", 0}}, {"C", {"direct", "T4", 1}},
      {"E", {"direct", "T4", 0}},  {"F", {"direct", "T2", 0}}, {"D", {"direct", "T2", 1}},
      {"H", {"direct", "T2", 0}},  {"I", {"direct", "T2", 0}}, {"g1", {"direct", "T5", 1}},
      {"h1", {"direct", "T5", 1}}, {"G", {"points", "T5", 2}}, {"J", {"points", "T5", 2}},
      {"K", {"", "", 1}},          {"L", {"", "", 1}},
  };
  for (const auto& [key, row] : by_key) {
    auto it = expected.find(key);
    Expected e = it == expected.end() ? Expected{"", "", 0} : it->second;
    EXPECT_EQ(row->status, e.status) << key;
    EXPECT_EQ(row->qualified_at, e.at) << key;
    EXPECT_EQ(row->points, Rational(e.points)) << key;
    EXPECT_EQ(row->points_missing, e.status.empty() ? 2 - e.points : 0) << key;
  }

  // The tournaments in Q-3's order, with their Q-2 sizes and who qualified where.
  ASSERT_EQ(s.tournaments.size(), 5u);
  std::vector<std::string> order;
  for (const auto& t : s.tournaments) order.push_back(t.id);
  EXPECT_EQ(order, (std::vector<std::string>{"T1", "T4", "T2", "T3", "T5"}));
  EXPECT_EQ(s.tournaments[0].size, 12u);
  EXPECT_EQ(s.tournaments[2].size, 21u);  // y counts (2 of 4 is half), z does not
  EXPECT_EQ(s.tournaments[3].size, 11u);
  EXPECT_FALSE(s.tournaments[3].counted);
  EXPECT_EQ(s.tournaments[1].direct, (std::vector<std::string>{"C", "E"}));
  EXPECT_EQ(s.tournaments[1].points, (std::vector<std::string>{"G", "g1"}));
  EXPECT_EQ(s.tournaments[2].direct, (std::vector<std::string>{"F", "D", "H", "I"}));
  EXPECT_EQ(s.tournaments[2].points, (std::vector<std::string>{"J", "K", "L", "h1"}));
  EXPECT_EQ(s.tournaments[4].direct, (std::vector<std::string>{"g1", "h1"}));
  EXPECT_EQ(s.tournaments[4].points, (std::vector<std::string>{"G", "J"}));

  // Passed over (Q-3): A in T4; B, C and A in T2 — and only where a place was still to give.
  auto passed = [&](const std::string& key) {
    std::vector<std::string> out;
    for (const auto& r : by_key.at(key)->results) {
      if (r.passed_over) out.push_back(r.tournament);
    }
    return out;
  };
  EXPECT_EQ(passed("A"), (std::vector<std::string>{"T4", "T2"}));
  EXPECT_EQ(passed("B"), (std::vector<std::string>{"T2"}));
  EXPECT_EQ(passed("C"), (std::vector<std::string>{"T2"}));
  EXPECT_EQ(passed("K"), std::vector<std::string>{});  // T5: 5th, after the four places

  // The order: the qualified by where they qualified (T1, T4, T2, T5, then the place there),
  // then the others by points, then by name.
  std::vector<std::string> top;
  for (std::size_t i = 0; i < 14; ++i) top.push_back(s.rows[i].key);
  EXPECT_EQ(top, (std::vector<std::string>{"A", "B", "C", "E", "F", "D", "H", "I", "g1", "h1", "G",
                                           "J", "K", "L"}));
  EXPECT_EQ(s.rows[12].rank, 13u);
  EXPECT_EQ(s.rows[13].rank, 13u);  // K and L: one point each, a tie the name only orders
}

TEST(SeriesScoring, AQualifierNotFinalYetIsListedAndCountsNothing) {
  auto t = qualifier("T1", 100, concat({"A", "B"}, fillers("f", 10)));
  t.final = false;
  SeriesStandings s = series_standings(czech(), {t}, "");
  EXPECT_FALSE(s.tournaments[0].counted);
  for (const auto& row : s.rows) EXPECT_EQ(row.status, "") << row.key;
}

TEST(SeriesScoring, ALadderSharesTiedPlacesExactlyAndCountsTheBestThree) {
  auto scoring = scoring_of(std::get<json::object>(normalise_scoring(
      json::object{{"kind", "ladder"}, {"points", json::array{10, 6, 4, 3}}, {"best", 2}})));
  auto tournament = [](std::string id, std::int64_t ended,
                       std::vector<std::pair<std::string, std::uint32_t>> places) {
    SeriesTournament t;
    t.id = t.name = id;
    t.final = true;
    t.ended_at = ended;
    t.rounds = 4;
    for (auto& [name, place] : places) {
      SeriesEntrant e;
      e.key = e.person = e.player = e.name = name;
      e.place = place;
      e.rounds_played = 4;
      t.entrants.push_back(e);
    }
    return t;
  };
  // L1: Bob and Cyril share 2nd: (6 + 4) / 2 = 5 each. L2: three share 1st: (10+6+4)/3 = 20/3.
  SeriesStandings s = series_standings(
      scoring,
      {tournament("L1", 1, {{"Ada", 1}, {"Bob", 2}, {"Cyril", 2}, {"Dana", 4}}),
       tournament("L2", 2, {{"Bob", 1}, {"Dana", 1}, {"Eva", 1}, {"Ada", 4}, {"Cyril", 5}}),
       tournament("L3", 3, {{"Cyril", 1}, {"Eva", 2}, {"Dana", 3}})},
      "");
  std::map<std::string, const SeriesRow*> by_key;
  for (const auto& row : s.rows) by_key[row.key] = &row;
  // Ada 10 + 3 → best two 13; Bob 5 + 20/3 = 35/3; Cyril 5, 0, 10 → 15; Dana 3, 20/3, 4 →
  // 20/3 + 4 = 32/3; Eva 20/3 + 6 = 38/3.
  EXPECT_EQ(by_key.at("Ada")->points, Rational(13));
  EXPECT_EQ(by_key.at("Bob")->points, Rational(35, 3));
  EXPECT_EQ(by_key.at("Cyril")->points, Rational(15));
  EXPECT_EQ(by_key.at("Dana")->points, Rational(32, 3));
  EXPECT_EQ(by_key.at("Eva")->points, Rational(38, 3));
  std::vector<std::string> order;
  for (const auto& row : s.rows) order.push_back(row.key);
  EXPECT_EQ(order, (std::vector<std::string>{"Cyril", "Ada", "Eva", "Bob", "Dana"}));
  // Dana's L1 result (3) is not among her best two.
  for (const auto& r : by_key.at("Dana")->results) EXPECT_EQ(r.counted, r.tournament != "L1");
}

TEST(SeriesScoring, Q4TiesGoToTheBetterBestResultThenTheName) {
  auto scoring = scoring_of(std::get<json::object>(normalise_scoring(
      json::object{{"kind", "ladder"}, {"points", json::array{10, 8, 6, 4, 2}}, {"best", 2}})));
  auto one = [](std::string id, std::int64_t ended, std::vector<std::string> order) {
    SeriesTournament t;
    t.id = t.name = id;
    t.final = true;
    t.ended_at = ended;
    t.rounds = 1;
    for (auto& name : order) {
      SeriesEntrant e;
      e.key = e.person = e.player = e.name = name;
      e.place = static_cast<std::uint32_t>(t.entrants.size() + 1);
      e.rounds_played = 1;
      t.entrants.push_back(e);
    }
    return t;
  };
  // Zora 10 + 2 = 12, Cecil 8 + 4 = 12, Adam 6 + 6 = 12, Bara 6 + 6 = 12: four tied on points.
  SeriesStandings s =
      series_standings(scoring,
                       {one("A", 1, {"Zora", "Cecil", "Adam", "Xena"}),
                        one("B", 2, {"Yuri", "Xavi", "Bara", "Cecil", "Zora"}),
                        one("C", 3, {"Wim", "Vlad", "Adam"}), one("D", 4, {"Ulf", "Tom", "Bara"})},
                       "cs");
  std::vector<std::string> order;
  for (std::size_t i = 0; i < 7; ++i) order.push_back(s.rows[i].key);
  // Zora's best result is 10, Cecil's 8; Adam and Bara (6, 6) are level: the name orders them.
  // Then Ulf, Wim and Yuri (10 each), by name.
  EXPECT_EQ(order,
            (std::vector<std::string>{"Zora", "Cecil", "Adam", "Bara", "Ulf", "Wim", "Yuri"}));
  EXPECT_EQ(s.rows[0].points, Rational(12));
  EXPECT_EQ(s.rows[3].points, Rational(12));
  EXPECT_EQ(s.rows[2].rank, s.rows[3].rank);  // Adam and Bara share a rank
  EXPECT_EQ(s.rows[1].rank, 2u);
  EXPECT_EQ(s.rows[2].rank, 3u);
  EXPECT_EQ(s.rows[4].rank, 5u);
  EXPECT_EQ(s.rows[6].rank, 5u);
}

TEST(SeriesScoring, ABadScoringIsRefusedNamingEachField) {
  auto problems = std::get<std::vector<ScoringProblem>>(normalise_scoring(json::object{
      {"kind", "qualification"},
      {"min_players", 0},
      {"brackets", json::array{json::object{{"from", 20}, {"direct", 2}, {"point", 2}},
                               json::object{{"from", 12}, {"direct", 2}, {"point", -1}}}},
      {"extra", 1}}));
  std::vector<std::string> fields;
  for (const auto& p : problems) fields.push_back(p.field);
  EXPECT_EQ(fields,
            (std::vector<std::string>{"scoring.extra", "scoring.min_players",
                                      "scoring.brackets[1].point", "scoring.brackets[1].from"}));
  auto ladder = std::get<std::vector<ScoringProblem>>(normalise_scoring(
      json::object{{"kind", "ladder"}, {"points", json::array{10, 12}}, {"best", 0}}));
  ASSERT_EQ(ladder.size(), 2u);
  EXPECT_EQ(ladder[0].field, "scoring.best");
  EXPECT_EQ(ladder[1].field, "scoring.points[1]");
  auto kind =
      std::get<std::vector<ScoringProblem>>(normalise_scoring(json::object{{"kind", "elo"}}));
  EXPECT_EQ(kind.at(0).field, "scoring.kind");
}

}  // namespace
}  // namespace tally::projections
