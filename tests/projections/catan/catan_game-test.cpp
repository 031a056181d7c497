#include "projections/catan/catan_game.hpp"

#include "projections/rational.hpp"
#include "tests/projections/catan/fixtures.hpp"
#include "tests/support/messages.hpp"

#include <gtest/gtest.h>

namespace tally::projections::catan {
namespace {

using namespace testing;

class CatanGame : public ::testing::Test {
 protected:
  RuleErrors propose(Which kind, const json::value& body, std::uint64_t supersedes = 0) {
    return check(*game, b, 1, 1, kind, body, supersedes);
  }
  RuleErrors claim(const std::string& player) {
    return propose(Which::CLAIMED_WIN, json::object{{"player", player}});
  }
  std::uint64_t enter_claim(const std::string& player) {
    EXPECT_TRUE(claim(player).empty());
    return b.action(1, 1, Which::CLAIMED_WIN, json::object{{"player", player}});
  }
  std::uint64_t enter(const json::value& result, std::uint64_t supersedes = 0) {
    EXPECT_TRUE(propose(Which::CATAN_RESULT, result, supersedes).empty());
    return b.action(1, 1, Which::CATAN_RESULT, result, supersedes, supersedes ? "fix" : "");
  }
  std::optional<json::object> result() {
    auto t = b.tournament();
    const TableState* state = t.table(1, 1);
    if (state == nullptr) return std::nullopt;
    return game->table_result(t, *state);
  }
  // player → place, points (exact)
  std::map<std::string, std::pair<std::string, std::string>> places() {
    std::map<std::string, std::pair<std::string, std::string>> out;
    const auto r = result();
    for (const auto& p : r->at("players").as_array()) {
      out[std::string(p.at("player").as_string())] = {
          std::string(p.at("place").as_string()),
          std::string(p.at("points").at("exact").as_string())};
    }
    return out;
  }

  std::unique_ptr<Game> game = make_catan_game();
  TournamentBuilder b = seated({{"a", "b", "c", "d"}});
};

using Places = std::map<std::string, std::pair<std::string, std::string>>;

TEST_F(CatanGame, TakesResultsAndClaimsOnly) {
  EXPECT_EQ(game->id(), "catan");
  EXPECT_EQ(game->result_kind(), Which::CATAN_RESULT);
  EXPECT_TRUE(game->accepts(Which::CATAN_RESULT));
  EXPECT_TRUE(game->accepts(Which::CLAIMED_WIN));
  EXPECT_FALSE(game->accepts(Which::HOUSE_PICK));
  EXPECT_FALSE(game->accepts(Which::CARCASSONNE_SCORING));
  auto errors = propose(Which::HOUSE_PICK, json::parse(R"({"player":"a","house":"stark"})"));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rule, "game");
}

TEST_F(CatanGame, TheTableResultAsTheApiShowsIt) {
  EXPECT_EQ(result(), std::nullopt);  // open until a result is in effect
  auto table = clear_order();
  table[1]["longest_road"] = 4;  // "two tied for second"
  table[1]["longest_road_holder"] = false;
  table[1]["roads"] = 8;
  enter(body(table));
  auto r = result();
  ASSERT_TRUE(r);
  const auto& players = r->at("players").as_array();
  ASSERT_EQ(players.size(), 4u);
  // Best first; b and c share 2nd and split 3 + 2.
  EXPECT_EQ(players[0], json::parse(R"({"player":"a","score":10,"place":"1",
      "points":{"value":5,"exact":"5"},
      "lines":[{"rule":"place","points":{"value":5,"exact":"5"}}],
      "score_lines":[{"rule":"settlements","count":2,"vp":2},{"rule":"cities","count":3,"vp":6},
                     {"rule":"largest_army","count":1,"vp":2}],
      "claimed_win":false})"));
  EXPECT_EQ(players[1], json::parse(R"({"player":"b","score":6,"place":"2=",
      "points":{"value":2.5,"exact":"5/2"},
      "lines":[{"rule":"shared_place","points":{"value":2.5,"exact":"5/2"},"shared_by":2}],
      "score_lines":[{"rule":"settlements","count":3,"vp":3},{"rule":"cities","count":1,"vp":2},
                     {"rule":"vp_cards","count":1,"vp":1}],
      "claimed_win":false})"));
  EXPECT_EQ(players[2].at("player"), json::value("c"));
  EXPECT_EQ(players[2].at("place"), json::value("2="));
  EXPECT_EQ(players[3].at("place"), json::value("4"));
}

TEST_F(CatanGame, AnEarlyClaimIsCheckedAgainstTheSeatingAndOtherClaims) {
  EXPECT_TRUE(claim("a").empty());
  auto errors = claim("x");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rule, "C-0");
  EXPECT_EQ(errors[0].player, "x");
  EXPECT_EQ(errors[0].field, "player");
  enter_claim("a");
  errors = claim("b");  // a second claimant can never be valid
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rule, "C-11");
  EXPECT_EQ(errors[0].player, "b");
  errors = claim("a");  // already on record
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rule, "C-11");
  EXPECT_EQ(errors[0].player, "a");
}

TEST_F(CatanGame, AnEarlyClaimIsJudgedWhenTheResultArrives) {
  enter_claim("b");  // b ends with 8 VP
  auto errors = propose(Which::CATAN_RESULT, body(clear_order()));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rule, "C-12");
  EXPECT_EQ(errors[0].player, "b");
  EXPECT_EQ(errors[0].field, "claimed_win");
}

TEST_F(CatanGame, AClaimByTheOnlyPlayerAtTenIsKeptButChangesNothing) {
  enter_claim("a");
  enter(body(clear_order()));
  EXPECT_EQ(places(),
            (Places{{"a", {"1", "5"}}, {"b", {"2", "3"}}, {"c", {"3", "2"}}, {"d", {"4", "1"}}}));
  EXPECT_EQ(result()->at("players").as_array()[0].at("claimed_win"), json::value(true));
  EXPECT_EQ(result()->at("players").as_array()[0].at("lines").at(0).at("rule"),
            json::value("place"));
}

TEST_F(CatanGame, TheClaimedWinExceptionEitherWay) {
  // As its own action before the result …
  enter_claim("a");
  enter(body(two_at_ten()));
  const Places expected = {
      {"a", {"1", "5"}}, {"b", {"2", "3"}}, {"c", {"3", "2"}}, {"d", {"4", "1"}}};
  EXPECT_EQ(places(), expected);
  auto first = result()->at("players").as_array()[0];
  EXPECT_EQ(first.at("lines").at(0).at("rule"), json::value("claimed_win"));
  // … or in the result itself.
  TournamentBuilder other = seated({{"a", "b", "c", "d"}});
  auto t = two_at_ten();
  t[0]["claimed_win"] = true;
  EXPECT_TRUE(check(*game, other, 1, 1, Which::CATAN_RESULT, body(t)).empty());
  other.action(1, 1, Which::CATAN_RESULT, body(t));
  auto tournament = other.tournament();
  EXPECT_EQ(game->table_result(tournament, *tournament.table(1, 1)), result());
}

TEST_F(CatanGame, AClaimAfterTheResultIsJudgedOnItsVp) {
  auto t = two_at_ten();
  t[0]["claimed_win"] = true;
  enter(body(t));
  auto errors = claim("b");  // b also has 10+: two claimants
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].rule, "C-11");
  EXPECT_EQ(errors[0].player, "a");
  EXPECT_EQ(errors[1].player, "b");
  EXPECT_EQ(errors[1].field, "player");
  errors = claim("a");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rule, "C-11");  // already recorded in the result
}

TEST_F(CatanGame, AVoidedClaimLeavesANoticeAndTheVpOrder) {
  auto claim_seq = enter_claim("a");
  enter(body(two_at_ten()));
  EXPECT_TRUE(game->notices(b.tournament()).empty());
  b.void_event(1, 1, claim_seq, "the claim was b's");
  EXPECT_EQ(places(),
            (Places{{"b", {"1", "5"}}, {"a", {"2", "3"}}, {"c", {"3", "2"}}, {"d", {"4", "1"}}}));
  auto notices = game->notices(b.tournament());
  ASSERT_EQ(notices.size(), 1u);
  const std::string notice = tally::testing::english(notices[0]);
  EXPECT_TRUE(notice.starts_with("round 1, table 1: a and b have 10 VP or more")) << notice;
  EXPECT_TRUE(notice.ends_with("(C-11)")) << notice;
  EXPECT_EQ(notice,
            "round 1, table 1: a and b have 10 VP or more (a 10 and b 12): record which of them "
            "claimed the win (C-11)");
  // The notice carries the rule's own message, as the refusal of the same result would say it.
  TournamentBuilder fresh = seated({{"a", "b", "c", "d"}});
  auto refused = check(*game, fresh, 1, 1, Which::CATAN_RESULT, body(two_at_ten()));
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(notices[0],
            i18n::Message("catan.notice.table", {{"round", 1},
                                                 {"table", 1},
                                                 {"message", i18n::nested(refused[0].message)},
                                                 {"rule", "C-11"}}));
  // One message in each language, the players by name (Czech keeps "a" with the next word).
  const std::map<std::string, std::string> names = {{"a", "Jana Nováková"}, {"b", "Petr Dvořák"}};
  EXPECT_EQ(tally::testing::rendered(notices[0], i18n::Lang::cs, names),
            "kolo 1, stůl 1: Jana Nováková a\u00a0Petr Dvořák mají 10 VB nebo více (Jana Nováková "
            "10 a\u00a0Petr Dvořák 12): zapište, kdo z nich ohlásil vítězství (C-11)");
  EXPECT_EQ(tally::testing::rendered(notices[0], i18n::Lang::it, names),
            "turno 1, tavolo 1: Jana Nováková e Petr Dvořák hanno 10 PV o più (Jana Nováková 10 e "
            "Petr Dvořák 12): registra chi di loro ha dichiarato la vittoria (C-11)");
  EXPECT_EQ(tally::testing::rendered(notices[0], i18n::Lang::ru, names),
            "тур 1, стол 1: у игроков Jana Nováková и Petr Dvořák 10 ПО или больше (Jana Nováková "
            "10 и Petr Dvořák 12): запишите, кто из них заявил победу (C-11)");
  enter_claim("b");  // the fix
  EXPECT_TRUE(game->notices(b.tournament()).empty());
  EXPECT_EQ(places()["b"], (std::pair<std::string, std::string>{"1", "5"}));
}

TEST_F(CatanGame, ACorrectionIsCheckedAsTheTableWouldStandAndRecomputes) {
  enter_claim("a");
  auto first = enter(body(two_at_ten()));
  // A correction taking a below 10 would leave a's claim invalid.
  auto fixed = two_at_ten();
  fixed[0]["cities"] = 2;  // a: 8 VP
  auto errors = propose(Which::CATAN_RESULT, body(fixed), first);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rule, "C-12");
  // A correction of c's counts goes through and replaces the result.
  fixed = two_at_ten();
  fixed[2]["settlements"] = 5;  // c: 7 VP
  enter(body(fixed), first);
  EXPECT_EQ(result()->at("players").as_array()[2].at("score"), json::value(7));
  auto standings = game->standings(b.tournament());
  EXPECT_EQ(standings.at("rows").as_array()[2].at("vp"), json::value(7));
}

TEST_F(CatanGame, ACorrectionReplacesAnActionOfItsOwnKind) {
  auto result_seq = enter(body(clear_order()));
  auto errors = propose(Which::CLAIMED_WIN, json::parse(R"({"player":"a"})"), result_seq);
  ASSERT_GE(errors.size(), 1u);
  EXPECT_EQ(errors[0].rule, "supersedes");
  EXPECT_EQ(errors[0].field, "supersedes");
  const std::string event = std::to_string(result_seq);
  EXPECT_EQ(tally::testing::english(errors[0].message),
            "event " + event + " is a Catan result; a claim of the win cannot replace it");
  EXPECT_EQ(tally::testing::rendered(errors[0].message, i18n::Lang::cs),
            "událost " + event +
                " je výsledek Osadníků z Katanu; ohlášené vítězství ji nemůže "
                "nahradit");
  errors = propose(Which::CLAIMED_WIN, json::parse(R"({"player":"a"})"), result_seq + 100);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(
      tally::testing::english(errors[0].message),
      "event " + std::to_string(result_seq + 100) + " is not an action in effect at this table");
}

TEST_F(CatanGame, RoundPointsFromTheTournamentsRules) {
  TournamentBuilder custom =
      seated({{"a", "b", "c", "d"}}, json::parse(R"({"round_points_4":[6,4,2,0]})").as_object());
  auto t = clear_order();
  t[2]["settlements"] = 3;  // c 5 VP, tied with d for 3rd: (2 + 0) / 2
  custom.action(1, 1, Which::CATAN_RESULT, body(t));
  auto tournament = custom.tournament();
  auto r = game->table_result(tournament, *tournament.table(1, 1));
  const auto& players = r->at("players").as_array();
  EXPECT_EQ(players[0].at("points").at("exact"), json::value("6"));
  EXPECT_EQ(players[1].at("points").at("exact"), json::value("4"));
  EXPECT_EQ(players[2].at("points").at("exact"), json::value("1"));
  EXPECT_EQ(players[3].at("points").at("exact"), json::value("1"));
}

TEST_F(CatanGame, SeatsRoundsThroughTheGame) {
  SeatingRequest r;
  r.round = 2;
  auto seating = game->seat_round(b.tournament(), r);
  ASSERT_TRUE(seating);
  EXPECT_EQ(seating.value->method, schema::SeatingMethod::STANDINGS);
  ASSERT_EQ(seating.value->tables.size(), 1u);  // four players: one table, repeats unavoidable
  // No results yet: everyone ties, so the names decide the seat order.
  EXPECT_EQ(seating.value->tables[0].players, (std::vector<std::string>{"a", "b", "c", "d"}));
  // The tournament's planned rounds come from its rules.
  auto limited = seated({{"a", "b", "c", "d"}}, json::parse(R"({"rounds":1})").as_object());
  auto refused = game->seat_round(limited.tournament(), r);
  ASSERT_FALSE(refused);
  EXPECT_EQ(tally::testing::english(refused.errors[0].message),
            "round 2 is beyond the tournament's planned rounds (1)");
}

// Property: random valid tables through the codec and the Game give what the pure placing
// gives, and are accepted.
TEST(CatanGameProperty, RandomValidTablesAreAcceptedAndPlaced) {
  auto game = make_catan_game();
  std::mt19937_64 rng(2026);
  for (int i = 0; i < 300; ++i) {
    const std::size_t n = 3 + rng() % 2;
    auto table = random_table(rng, n);
    std::vector<std::string> ids;
    std::vector<json::object> players;
    for (const auto& s : table.sheets) {
      ids.push_back(s.player);
      players.push_back(to_json(s));
      if (!table.claimants.empty() && s.player == table.claimants[0]) {
        players.back()["claimed_win"] = true;
      }
      players.back()["vp"] = vp_of(s);
    }
    auto b = seated({ids});
    ASSERT_TRUE(check(*game, b, 1, 1, Which::CATAN_RESULT, body(players)).empty()) << i;
    b.action(1, 1, Which::CATAN_RESULT, body(players));
    auto t = b.tournament();
    auto r = game->table_result(t, *t.table(1, 1));
    ASSERT_TRUE(r);
    Rational sum;
    for (const auto& p : r->at("players").as_array()) {
      sum += Rational::parse(std::string(p.at("points").at("exact").as_string()));
    }
    EXPECT_EQ(sum, Rational(n == 4 ? 11 : 10));
  }
}

}  // namespace
}  // namespace tally::projections::catan
