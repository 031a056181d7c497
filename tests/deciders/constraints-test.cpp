// The seating constraints and penalties without a process (deciders/constraints.hpp, and S-9/
// S-10 in SeatRound, the voids of void_event.hpp): every refusal and every event, each accepted
// event folded back (decide → evolve).
#include "deciders/constraints.hpp"

#include "deciders/seat_round.hpp"
#include "deciders/void_event.hpp"
#include "projections/agot/agot_game.hpp"
#include "projections/carcassonne/carcassonne_game.hpp"
#include "projections/catan/catan_game.hpp"
#include "schema/text.hpp"
#include "tests/deciders/support.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace tally::deciders {
namespace {

using projections::SeatingRequest;
using schema::SeatingMethod;
using schema::text;
using tally::testing::TournamentBuilder;
using testing::apply;
using testing::kJudge;
using testing::kOrganizer;
using testing::refusal_of;
using Which = schema::Event::Payload::Which;

// "cup" with players p1 … pn named "Player 1" …
TournamentBuilder players(std::size_t n, const std::string& game = "catan") {
  TournamentBuilder b("cup", game);
  for (std::size_t i = 1; i <= n; ++i)
    b.player("p" + std::to_string(i), "Player " + std::to_string(i));
  return b;
}

schema::Event::Reader only_event(const Decision<>& decision) {
  const Append& append = decision.accepted().append;
  EXPECT_EQ(append.stream, projections::tournament_stream("cup"));
  EXPECT_EQ(append.events.size(), 1u);
  return append.events.at(0).reader();
}

// The rules, fields and players of a refusal's errors, for comparing at a glance.
std::vector<std::string> errors_of(const Refusal& r) {
  std::vector<std::string> out;
  for (const auto& e : r.errors) out.push_back(e.rule + " " + e.field + " " + e.player);
  return out;
}

// --- KeepApart (S-9) ---

TEST(KeepApartDecider, AppendsTheGroupWithItsReasonAndFoldsBackAsPairs) {
  auto b = players(4);
  auto t = b.tournament();
  auto decision = decide(&t, KeepApart{"cup", {"p1", "p2", "p3"}, "family"}, kOrganizer);
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  EXPECT_TRUE(decision.accepted().append.expected.accepts(t.version));
  auto e = only_event(decision);
  ASSERT_EQ(e.getPayload().which(), Which::KEPT_APART);
  EXPECT_EQ(e.getPayload().getKeptApart().getPlayers().size(), 3u);
  EXPECT_EQ(text(e.getReason()), "family");
  apply(b, decision);
  auto after = b.tournament();
  EXPECT_TRUE(after.kept_apart("p1", "p3"));
  EXPECT_TRUE(after.kept_apart("p3", "p2"));
  EXPECT_FALSE(after.kept_apart("p1", "p4"));
  EXPECT_FALSE(after.kept_apart("p1", "p1"));
  ASSERT_EQ(after.keep_apart.size(), 1u);
  EXPECT_EQ(after.keep_apart[0].reason, "family");
}

TEST(KeepApartDecider, RefusesEveryProblemAtOnceWithRuleS9) {
  auto b = players(3);
  auto t = b.tournament();
  const Refusal r = refusal_of(decide(&t, KeepApart{"cup", {"p1", "p1", "zz"}, ""}, kOrganizer));
  EXPECT_EQ(r.kind, RefusalKind::unprocessable);
  EXPECT_EQ(r.message.key, "api.keep_apart.invalid");
  EXPECT_EQ(errors_of(r),
            (std::vector<std::string>{"S-9 players p1", "S-9 players zz", "S-9 reason "}));
  EXPECT_EQ(r.errors[0].message.key, "api.keep_apart.named_twice");
  const Refusal one = refusal_of(decide(&t, KeepApart{"cup", {"p1"}, "club"}, kOrganizer));
  EXPECT_EQ(errors_of(one), (std::vector<std::string>{"S-9 players "}));
  EXPECT_EQ(one.errors[0].message.key, "api.keep_apart.too_few");
}

TEST(KeepApartDecider, IsTheOrganizersAndNeedsTheTournament) {
  auto t = players(2).tournament();
  EXPECT_EQ(refusal_of(decide(&t, KeepApart{"cup", {"p1", "p2"}, "club"}, kJudge)).kind,
            RefusalKind::forbidden);
  EXPECT_EQ(refusal_of(decide(nullptr, KeepApart{"gone", {"p1", "p2"}, "club"}, kOrganizer)).kind,
            RefusalKind::not_found);
}

// --- PatchPlayer (S-10) ---

TEST(PatchPlayerDecider, FixesATableAndTakesItBackWithNull) {
  auto b = players(2);
  auto t = b.tournament();
  auto fix = decide(&t, PatchPlayer{"cup", "p2", std::nullopt, std::optional<std::uint32_t>{3}},
                    kOrganizer);
  ASSERT_FALSE(fix.refused()) << fix.refusal().message;
  auto e = only_event(fix);
  ASSERT_EQ(e.getPayload().which(), Which::FIXED_TABLE);
  EXPECT_EQ(text(e.getPayload().getFixedTable().getPlayer()), "p2");
  EXPECT_EQ(e.getPayload().getFixedTable().getTable(), 3u);
  apply(b, fix);
  EXPECT_EQ(b.tournament().player("p2")->fixed_table, 3u);

  t = b.tournament();
  auto none = decide(&t, PatchPlayer{"cup", "p2", std::nullopt, std::optional<std::uint32_t>{}},
                     kOrganizer);
  ASSERT_FALSE(none.refused());
  EXPECT_EQ(only_event(none).getPayload().getFixedTable().getTable(), 0u);
  apply(b, none);
  EXPECT_EQ(b.tournament().player("p2")->fixed_table, 0u);
}

TEST(PatchPlayerDecider, ANameAndATableAreTwoEventsInOneAppend) {
  auto b = players(1);
  auto t = b.tournament();
  auto both =
      decide(&t, PatchPlayer{"cup", "p1", "Jana", std::optional<std::uint32_t>{1}}, kOrganizer);
  ASSERT_FALSE(both.refused());
  const auto& events = both.accepted().append.events;
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].reader().getPayload().which(), Which::PLAYER_RENAMED);
  EXPECT_EQ(events[1].reader().getPayload().which(), Which::FIXED_TABLE);
  apply(b, both);
  EXPECT_EQ(b.tournament().player("p1")->name, "Jana");
  EXPECT_EQ(b.tournament().player("p1")->fixed_table, 1u);
}

TEST(PatchPlayerDecider, RefusesTableZeroAndAnUnknownPlayer) {
  auto t = players(1).tournament();
  const Refusal zero = refusal_of(decide(
      &t, PatchPlayer{"cup", "p1", std::nullopt, std::optional<std::uint32_t>{0}}, kOrganizer));
  EXPECT_EQ(zero.kind, RefusalKind::unprocessable);
  EXPECT_EQ(errors_of(zero), (std::vector<std::string>{"S-10 fixed_table p1"}));
  EXPECT_EQ(
      refusal_of(decide(&t, PatchPlayer{"cup", "zz", std::nullopt, std::optional<std::uint32_t>{1}},
                        kOrganizer))
          .kind,
      RefusalKind::not_found);
}

TEST(FixedTables, TwoDifferentNumbersKeepTheirPlayersApart) {
  auto b = players(3);
  const std::vector<std::pair<std::string, std::uint32_t>> fixed = {
      {"p1", 1}, {"p2", 2}, {"p3", 2}};
  for (const auto& [p, n] : fixed) {
    auto t = b.tournament();
    apply(b, decide(&t, PatchPlayer{"cup", p, std::nullopt, std::optional<std::uint32_t>{n}},
                    kOrganizer));
  }
  auto t = b.tournament();
  EXPECT_TRUE(t.kept_apart("p1", "p2"));
  EXPECT_TRUE(t.kept_apart("p3", "p1"));
  EXPECT_FALSE(t.kept_apart("p2", "p3"));  // one number: one table is fine
}

// --- GivePenalty (S-11) ---

TEST(GivePenaltyDecider, AppendsExactPointsWithItsRoundAndReason) {
  auto b = players(4);
  b.seat({{"p1", "p2", "p3", "p4"}});
  auto t = b.tournament();
  auto decision = decide(&t, GivePenalty{"cup", "p3", "-2/4", 1u, "late result slip"}, kJudge);
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  auto e = only_event(decision);
  ASSERT_EQ(e.getPayload().which(), Which::PENALTY_GIVEN);
  EXPECT_EQ(text(e.getPayload().getPenaltyGiven().getPoints()), "-1/2");
  EXPECT_EQ(e.getPayload().getPenaltyGiven().getRound(), 1u);
  EXPECT_EQ(text(e.getReason()), "late result slip");
  EXPECT_EQ(text(e.getAuthor()), "j1");
  apply(b, decision);
  EXPECT_EQ(b.tournament().penalty_points("p3"), Rational(-1, 2));
  t = b.tournament();
  apply(b, decide(&t, GivePenalty{"cup", "p3", "2", std::nullopt, "fair play"}, kOrganizer));
  EXPECT_EQ(b.tournament().penalty_points("p3"), Rational(3, 2));
  EXPECT_TRUE(b.tournament().has_penalties());
}

TEST(GivePenaltyDecider, RefusesEveryProblemAtOnceWithRuleS11) {
  auto t = players(2).tournament();
  const Refusal r = refusal_of(decide(&t, GivePenalty{"cup", "p1", "half", 2u, ""}, kOrganizer));
  EXPECT_EQ(r.kind, RefusalKind::unprocessable);
  EXPECT_EQ(r.message.key, "api.penalty.invalid");
  EXPECT_EQ(errors_of(r),
            (std::vector<std::string>{"S-11 points p1", "S-11 round p1", "S-11 reason p1"}));
  EXPECT_EQ(r.errors[0].message.key, "api.penalty.points_exact");
  EXPECT_EQ(r.errors[1].message.key, "api.penalty.round_unknown");
  const std::vector<std::pair<std::string, std::string>> wrong = {
      {"0", "api.penalty.points_zero"},      {"0/5", "api.penalty.points_zero"},
      {"-1001", "api.penalty.points_range"}, {"1/1001", "api.penalty.points_range"},
      {"1/0", "api.penalty.points_exact"},   {"", "api.penalty.points_exact"}};
  for (const auto& [points, key] : wrong) {
    const Refusal one =
        refusal_of(decide(&t, GivePenalty{"cup", "p1", points, std::nullopt, "x"}, kOrganizer));
    ASSERT_EQ(one.errors.size(), 1u) << points;
    EXPECT_EQ(one.errors[0].message.key, key) << points;
  }
  EXPECT_EQ(
      refusal_of(decide(&t, GivePenalty{"cup", "zz", "-1", std::nullopt, "x"}, kOrganizer)).kind,
      RefusalKind::not_found);
}

// --- VoidEvent of a keep-apart or a penalty ---

class VoidConstraint : public ::testing::Test {
 protected:
  std::uint64_t given(const Decision<>& d) { return apply(b, d); }
  Decision<> void_it(std::uint64_t seq, const Actor& actor) {
    auto t = b.tournament();
    const auto& stored = b.events().at(seq - 1);
    return decide(&t, std::optional<schema::Event::Reader>(stored.event()),
                  VoidEvent{"cup", seq, "given by mistake"}, actor);
  }
  TournamentBuilder b = players(4);
};

TEST_F(VoidConstraint, AKeepApartIsWithdrawnByTheOrganizerOnly) {
  auto t = b.tournament();
  auto seq = given(decide(&t, KeepApart{"cup", {"p1", "p2"}, "club"}, kOrganizer));
  EXPECT_EQ(refusal_of(void_it(seq, kJudge)).kind, RefusalKind::forbidden);
  auto decision = void_it(seq, kOrganizer);
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  EXPECT_EQ(decision.accepted().append.stream, projections::tournament_stream("cup"));
  apply(b, decision);
  EXPECT_FALSE(b.tournament().kept_apart("p1", "p2"));
  EXPECT_TRUE(b.tournament().keep_apart.empty());
  const Refusal again = refusal_of(void_it(seq, kOrganizer));
  EXPECT_EQ(again.kind, RefusalKind::unprocessable);
  EXPECT_EQ(again.message.key, "api.void.no_longer_in_effect");
}

TEST_F(VoidConstraint, APenaltyIsWithdrawnByAJudgeToo) {
  auto t = b.tournament();
  auto seq = given(decide(&t, GivePenalty{"cup", "p1", "-1", std::nullopt, "slow"}, kJudge));
  auto decision = void_it(seq, kJudge);
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  apply(b, decision);
  EXPECT_EQ(b.tournament().penalty_points("p1"), Rational(0));
  EXPECT_FALSE(b.tournament().has_penalties());
}

// --- SeatRound: S-9 refused or forced, S-10 renumbered ---

class SeatWithConstraints : public ::testing::Test {
 protected:
  Decision<SeatingFacts> seat(const TournamentBuilder& b, const projections::Game& game,
                              SeatingMethod method, std::uint64_t seed, bool force = false) {
    SeatRound command{SeatingRequest{0, method, seed, {}, ""}};
    command.force = force;
    if (force) command.reason = "they asked to play together";
    return decide(b.tournament(), game, command, kOrganizer);
  }
  void keep_apart(TournamentBuilder& b, std::vector<std::string> group) {
    auto t = b.tournament();
    apply(b, decide(&t, KeepApart{"cup", std::move(group), "family"}, kOrganizer));
  }
  void fix(TournamentBuilder& b, const std::string& player, std::uint32_t table) {
    auto t = b.tournament();
    apply(b,
          decide(&t, PatchPlayer{"cup", player, std::nullopt, std::optional<std::uint32_t>{table}},
                 kOrganizer));
  }
  // The number of the table `player` sits at in the decided seating.
  static std::uint32_t table_of(const Decision<SeatingFacts>& d, const std::string& player) {
    for (const auto& t : d.accepted().facts.seating.tables) {
      if (std::find(t.players.begin(), t.players.end(), player) != t.players.end()) return t.number;
    }
    return 0;
  }

  std::unique_ptr<projections::Game> catan = projections::catan::make_catan_game();
  std::unique_ptr<projections::Game> agot = projections::agot::make_agot_game();
  std::unique_ptr<projections::Game> carcassonne =
      projections::carcassonne::make_carcassonne_game();
};

TEST_F(SeatWithConstraints, ImpossibleKeepApartIsRefusedNamingThePairInEveryGame) {
  struct Case {
    const projections::Game* game;
    std::size_t players;
    std::vector<std::string> group;  // more than the tables can part
  };
  for (const Case& c :
       {Case{catan.get(), 4, {"p1", "p2"}}, Case{agot.get(), 12, {"p1", "p2", "p3"}},
        Case{carcassonne.get(), 4, {"p1", "p2", "p3"}}}) {
    auto b = players(c.players, std::string(c.game->id()));
    keep_apart(b, c.group);
    const Refusal r = refusal_of(seat(b, *c.game, SeatingMethod::RANDOM, 5));
    EXPECT_EQ(r.kind, RefusalKind::unprocessable) << c.game->id();
    EXPECT_EQ(r.message.key, "api.seating.kept_apart_refused");
    ASSERT_FALSE(r.errors.empty()) << c.game->id();
    const RefusalError& e = r.errors[0];
    EXPECT_EQ(e.rule, "S-9");
    EXPECT_EQ(e.field, "tables");
    EXPECT_EQ(e.message.key, "api.seating.kept_apart_together");
    // Both players of the pair: in the machine fields and, by name, in the message.
    const auto& pair = e.extra.at("players").as_array();
    ASSERT_EQ(pair.size(), 2u);
    EXPECT_EQ(pair[0].as_string(), e.player);
    EXPECT_NE(std::find(c.group.begin(), c.group.end(), std::string(pair[1].as_string())),
              c.group.end());
    EXPECT_EQ(e.message.args.at(0).value, i18n::Arg(i18n::PlayerRef{e.player}));
    EXPECT_EQ(e.message.args.at(1).value,
              i18n::Arg(i18n::PlayerRef{std::string(pair[1].as_string())}));
  }
}

TEST_F(SeatWithConstraints, ForcedWithAReasonTheSeatingSaysThePairInItsNotes) {
  auto b = players(4);
  keep_apart(b, {"p1", "p2"});
  auto decision = seat(b, *catan, SeatingMethod::RANDOM, 5, true);
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  const auto& notes = decision.accepted().facts.seating.notes;
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].key, "api.seating.kept_apart_forced");
  auto e = decision.accepted().append.events.at(0).reader();
  EXPECT_EQ(text(e.getReason()), "they asked to play together");
  EXPECT_TRUE(e.getPayload().getRoundSeated().getForced());
}

TEST_F(SeatWithConstraints, AManualSeatingWithAPairTogetherIsRefusedToo) {
  auto b = players(8);
  keep_apart(b, {"p1", "p5"});
  SeatRound manual{SeatingRequest{
      0, SeatingMethod::MANUAL, 0, {{"p1", "p2", "p3", "p5"}, {"p4", "p6", "p7", "p8"}}, ""}};
  const Refusal r = refusal_of(decide(b.tournament(), *catan, manual, kOrganizer));
  EXPECT_EQ(errors_of(r), (std::vector<std::string>{"S-9 tables p1"}));
}

// Done-when: a fixed table keeps its number in every round (Catan by standings after a draw,
// Carcassonne Swiss), whoever the player sits with.
TEST_F(SeatWithConstraints, AFixedTableKeepsItsNumberInEveryRound) {
  for (const projections::Game* game : {catan.get(), carcassonne.get()}) {
    auto b = players(16, std::string(game->id()));
    fix(b, "p9", 3);
    fix(b, "p2", 1);
    for (std::uint32_t round = 1; round <= 4; ++round) {
      auto decision = seat(b, *game, round == 1 ? SeatingMethod::RANDOM : SeatingMethod::STANDINGS,
                           round * 11, true);  // forced: the rounds stay unreported
      ASSERT_FALSE(decision.refused()) << decision.refusal().message;
      EXPECT_EQ(table_of(decision, "p9"), 3u) << game->id() << " round " << round;
      EXPECT_EQ(table_of(decision, "p2"), 1u) << game->id() << " round " << round;
      EXPECT_TRUE(decision.accepted().facts.seating.notes.empty());
      // The numbers are 1…N, each once, in order.
      const auto& tables = decision.accepted().facts.seating.tables;
      for (std::size_t i = 0; i < tables.size(); ++i) EXPECT_EQ(tables[i].number, i + 1);
      apply(b, decision);
      EXPECT_NE(b.tournament().rounds.back().table(3), nullptr);
    }
  }
}

TEST_F(SeatWithConstraints, AFixedNumberBeyondTheTablesIsSaidInTheNotes) {
  auto b = players(8);
  fix(b, "p3", 5);  // 8 players: 2 tables
  auto decision = seat(b, *catan, SeatingMethod::RANDOM, 1);
  ASSERT_FALSE(decision.refused());
  const auto& notes = decision.accepted().facts.seating.notes;
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].key, "api.seating.fixed_table_beyond");
}

TEST_F(SeatWithConstraints, TwoFixedNumbersAtOneTableLeaveTheLowerPlayersNumber) {
  auto b = players(8);
  fix(b, "p1", 2);
  fix(b, "p4", 1);  // apart by S-10: seated together only by force
  SeatRound manual{SeatingRequest{
      0, SeatingMethod::MANUAL, 0, {{"p5", "p6", "p7", "p8"}, {"p1", "p2", "p3", "p4"}}, ""}};
  manual.force = true;
  manual.reason = "one accessible table";
  auto decision = decide(b.tournament(), *catan, manual, kOrganizer);
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  const auto& seating = decision.accepted().facts.seating;
  // p1, registered first, keeps 2; the other table takes the number left.
  EXPECT_EQ(seating.tables.at(1).number, 2u);
  EXPECT_EQ(seating.tables.at(1).players.front(), "p1");
  EXPECT_EQ(seating.tables.at(0).number, 1u);
  std::vector<std::string> keys;
  for (const auto& n : seating.notes) keys.push_back(n.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"api.seating.kept_apart_forced",
                                            "api.seating.fixed_table_shared"}));
}

}  // namespace
}  // namespace tally::deciders
