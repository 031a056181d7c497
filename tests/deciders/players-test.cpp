// The players' deciders without a process (AddPlayer, RenamePlayer, ImportPlayers,
// ChangeDropped, CheckIn, DropAbsent): every refusal and every event they decide, on
// tournaments folded from events, each accepted event folded back (decide → evolve).
#include "deciders/players.hpp"

#include "deciders/seat_round.hpp"
#include "projections/catan/catan_game.hpp"

#include "schema/text.hpp"
#include "tests/deciders/support.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace tally::deciders {
namespace {

using tally::testing::TournamentBuilder;
using testing::apply;
using testing::kOrganizer;
using testing::refusal_of;
using Which = schema::Event::Payload::Which;

// "cup" (Catan) with players a "Ann", b "Bob", c "Cy".
TournamentBuilder three_players() {
  TournamentBuilder b("cup", "catan");
  b.player("a", "Ann").player("b", "Bob").player("c", "Cy");
  return b;
}

const Refusal kNoTournament{RefusalKind::not_found,
                            i18n::Message("api.tournament.not_found", {{"id", "gone"}})};

Refusal player_not_found(const std::string& id) {
  return Refusal{RefusalKind::not_found,
                 i18n::Message("api.player.not_found", {{"id", id}, {"tournament", "cup"}})};
}

// The one event of an accepted decision, checked to go to the tournament's stream at `version`.
schema::Event::Reader only_event(const Decision<>& decision, std::uint64_t version) {
  const Append& append = decision.accepted().append;
  EXPECT_EQ(append.stream, projections::tournament_stream("cup"));
  EXPECT_TRUE(append.expected.accepts(version));
  EXPECT_FALSE(append.expected.accepts(version + 1));
  EXPECT_EQ(append.events.size(), 1u);
  return append.events.at(0).reader();
}

using schema::text;

// --- AddPlayer ---

TEST(AddPlayerDecider, RegistersAFreeIdAtTheTournamentsVersion) {
  auto b = three_players();
  auto t = b.tournament();
  auto decision = decide(&t, AddPlayer{"cup", "d", "Dee"}, kOrganizer);
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  auto e = only_event(decision, t.version);
  ASSERT_EQ(e.getPayload().which(), Which::PLAYER_REGISTERED);
  EXPECT_EQ(text(e.getPayload().getPlayerRegistered().getId()), "d");
  EXPECT_EQ(text(e.getPayload().getPlayerRegistered().getName()), "Dee");
  EXPECT_EQ(text(e.getAuthor()), "organizer");
  apply(b, decision);
  ASSERT_NE(b.tournament().player("d"), nullptr);
  EXPECT_EQ(b.tournament().player("d")->name, "Dee");
  EXPECT_EQ(b.tournament().players.size(), 4u);
}

TEST(AddPlayerDecider, WithoutAnIdTakesTheNextFreePNumberCountingFromThePlayers) {
  TournamentBuilder b("cup", "catan");
  b.player("p1", "Ann").player("p3", "Bob");  // 2 players: p3 next, taken, so p4
  auto t = b.tournament();
  auto decision = decide(&t, AddPlayer{"cup", std::nullopt, "Cy"}, kOrganizer);
  ASSERT_FALSE(decision.refused());
  EXPECT_EQ(text(only_event(decision, t.version).getPayload().getPlayerRegistered().getId()), "p4");
  apply(b, decision);
  ASSERT_NE(b.tournament().player("p4"), nullptr);
  // Now 3 players: p4 taken, so p5.
  auto next = b.tournament();
  EXPECT_EQ(text(only_event(decide(&next, AddPlayer{"cup", std::nullopt, "Dee"}, kOrganizer),
                            next.version)
                     .getPayload()
                     .getPlayerRegistered()
                     .getId()),
            "p5");
}

TEST(AddPlayerDecider, ATakenIdIsAConflict) {
  auto b = three_players();
  auto t = b.tournament();
  EXPECT_EQ(refusal_of(decide(&t, AddPlayer{"cup", "b", "Bea"}, kOrganizer)),
            (Refusal{RefusalKind::conflict,
                     i18n::Message("api.player.id_taken",
                                   {{"id", "b"}, {"player", i18n::PlayerRef{"b"}}})}));
}

TEST(AddPlayerDecider, NoTournamentIsNotFound) {
  EXPECT_EQ(refusal_of(decide(nullptr, AddPlayer{"gone", "a", "Ann"}, kOrganizer)), kNoTournament);
}

// --- RenamePlayer ---

TEST(RenamePlayerDecider, RenamesARegisteredPlayer) {
  auto b = three_players();
  auto t = b.tournament();
  auto decision = decide(&t, RenamePlayer{"cup", "b", "Robert"}, kOrganizer);
  ASSERT_FALSE(decision.refused());
  auto e = only_event(decision, t.version);
  ASSERT_EQ(e.getPayload().which(), Which::PLAYER_RENAMED);
  EXPECT_EQ(text(e.getPayload().getPlayerRenamed().getId()), "b");
  EXPECT_EQ(text(e.getPayload().getPlayerRenamed().getName()), "Robert");
  EXPECT_EQ(text(e.getAuthor()), "organizer");
  apply(b, decision);
  EXPECT_EQ(b.tournament().player("b")->name, "Robert");
}

TEST(RenamePlayerDecider, AnUnknownPlayerOrTournamentIsNotFound) {
  auto b = three_players();
  auto t = b.tournament();
  EXPECT_EQ(refusal_of(decide(&t, RenamePlayer{"cup", "z", "Zed"}, kOrganizer)),
            player_not_found("z"));
  EXPECT_EQ(refusal_of(decide(nullptr, RenamePlayer{"gone", "a", "Ann"}, kOrganizer)),
            kNoTournament);
}

// --- ImportPlayers ---

TEST(ImportPlayersDecider, RegistersNewRowsAndRenamesChangedOnesInFileOrder) {
  auto b = three_players();
  auto t = b.tournament();
  auto decision =
      decide(&t, ImportPlayers{"cup", "id,name\na,Ann\nb,Bobby\nd,Dee\n", false}, kOrganizer);
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  const auto& accepted = decision.accepted();
  EXPECT_EQ(accepted.append.stream, projections::tournament_stream("cup"));
  EXPECT_TRUE(accepted.append.expected.accepts(t.version));
  EXPECT_FALSE(accepted.append.expected.accepts(t.version + 1));
  // The plan (the preview) and the seq it was made on.
  EXPECT_EQ(accepted.facts.seq, t.last_seq);
  ASSERT_EQ(accepted.facts.plan.rows.size(), 3u);
  EXPECT_EQ(accepted.facts.plan.rows[0].status, projections::ImportRow::Status::unchanged);
  EXPECT_EQ(accepted.facts.plan.rows[1].status, projections::ImportRow::Status::changed);
  EXPECT_EQ(accepted.facts.plan.rows[2].status, projections::ImportRow::Status::added);
  // Unchanged a writes nothing; b renamed, d registered.
  ASSERT_EQ(accepted.append.events.size(), 2u);
  auto renamed = accepted.append.events[0].reader();
  ASSERT_EQ(renamed.getPayload().which(), Which::PLAYER_RENAMED);
  EXPECT_EQ(text(renamed.getPayload().getPlayerRenamed().getId()), "b");
  EXPECT_EQ(text(renamed.getPayload().getPlayerRenamed().getName()), "Bobby");
  EXPECT_EQ(text(renamed.getAuthor()), "organizer");
  auto registered = accepted.append.events[1].reader();
  ASSERT_EQ(registered.getPayload().which(), Which::PLAYER_REGISTERED);
  EXPECT_EQ(text(registered.getPayload().getPlayerRegistered().getId()), "d");
  EXPECT_EQ(text(registered.getPayload().getPlayerRegistered().getName()), "Dee");
  apply(b, decision);
  EXPECT_EQ(b.tournament().player("b")->name, "Bobby");
  ASSERT_NE(b.tournament().player("d"), nullptr);
  EXPECT_EQ(b.tournament().players.size(), 4u);
  // The same file again changes nothing: accepted, nothing appended.
  auto again = b.tournament();
  auto reimport =
      decide(&again, ImportPlayers{"cup", "id,name\na,Ann\nb,Bobby\nd,Dee\n", false}, kOrganizer);
  ASSERT_FALSE(reimport.refused());
  EXPECT_TRUE(reimport.accepted().append.events.empty());
  EXPECT_EQ(reimport.accepted().facts.plan.count(projections::ImportRow::Status::unchanged), 3);
}

TEST(ImportPlayersDecider, AFileWithProblemsIsRefusedWholeWithEveryProblem) {
  auto b = three_players();
  auto t = b.tournament();
  // Rule `csv`: every problem of the file, each naming its line; nothing is planned.
  EXPECT_EQ(refusal_of(decide(&t, ImportPlayers{"cup", "id,name\nd,\nd,Dee\n", false}, kOrganizer)),
            (Refusal{RefusalKind::unprocessable,
                     i18n::Message("api.import.refused"),
                     {{"csv", "", "csv", i18n::Message("rules.import.empty_name", {{"line", "2"}})},
                      {"csv", "", "csv",
                       i18n::Message("rules.import.id_twice",
                                     {{"id", "d"}, {"other", "2"}, {"line", "3"}})}}}));
  // An empty file: rule `csv`, `rules.import.empty`.
  EXPECT_EQ(refusal_of(decide(&t, ImportPlayers{"cup", "", false}, kOrganizer)),
            (Refusal{RefusalKind::unprocessable,
                     i18n::Message("api.import.refused"),
                     {{"csv", "", "csv", i18n::Message("rules.import.empty")}}}));
}

TEST(ImportPlayersDecider, NoTournamentIsNotFound) {
  EXPECT_EQ(refusal_of(decide(nullptr, ImportPlayers{"gone", "name\nAnn\n", false}, kOrganizer)),
            kNoTournament);
}

// --- ChangeDropped ---

TEST(ChangeDroppedDecider, DropsAPlayerWhoIsInWithTheReason) {
  auto b = three_players();
  auto t = b.tournament();
  auto decision = decide(&t, ChangeDropped{"cup", "b", true, "went home"}, kOrganizer);
  ASSERT_FALSE(decision.refused());
  auto e = only_event(decision, t.version);
  ASSERT_EQ(e.getPayload().which(), Which::PLAYER_DROPPED);
  EXPECT_EQ(text(e.getPayload().getPlayerDropped().getId()), "b");
  EXPECT_EQ(text(e.getReason()), "went home");
  EXPECT_EQ(text(e.getAuthor()), "organizer");
  apply(b, decision);
  EXPECT_TRUE(b.tournament().player("b")->dropped);
}

TEST(ChangeDroppedDecider, AReinstatedPlayerIsNotDroppedAndIsSeatedFromTheNextRound) {
  auto b = three_players();
  b.player("d", "Dee");
  b.seat({{"a", "b", "c", "d"}});
  b.drop("b");
  auto t = b.tournament();
  auto decision = decide(&t, ChangeDropped{"cup", "b", false, "came back"}, kOrganizer);
  ASSERT_FALSE(decision.refused());
  auto e = only_event(decision, t.version);
  ASSERT_EQ(e.getPayload().which(), Which::PLAYER_REINSTATED);
  EXPECT_EQ(text(e.getPayload().getPlayerReinstated().getId()), "b");
  EXPECT_EQ(text(e.getReason()), "came back");
  apply(b, decision);
  EXPECT_FALSE(b.tournament().player("b")->dropped);
  // Seated again from the next round (contract, third edition): round 2 seats all four.
  auto now = b.tournament();
  auto catan = projections::catan::make_catan_game();
  SeatRound seat{{0, schema::SeatingMethod::RANDOM, 3, {}, ""}, true, "round 1 not entered"};
  auto seating = decide(now, *catan, seat, kOrganizer);
  ASSERT_FALSE(seating.refused()) << seating.refusal().message;
  apply(b, seating);
  auto after = b.tournament();
  ASSERT_EQ(after.round(2)->tables.size(), 1u);
  const auto& seated = after.round(2)->tables[0].players;
  EXPECT_NE(std::find(seated.begin(), seated.end(), "b"), seated.end());
  EXPECT_EQ(seated.size(), 4u);
}

TEST(ChangeDroppedDecider, DroppingTheDroppedOrReinstatingThePresentIsAConflict) {
  auto b = three_players();
  b.drop("a");
  auto t = b.tournament();
  EXPECT_EQ(refusal_of(decide(&t, ChangeDropped{"cup", "a", true, "again"}, kOrganizer)),
            (Refusal{RefusalKind::conflict, i18n::Message("api.player.already_dropped",
                                                          {{"player", i18n::PlayerRef{"a"}}})}));
  EXPECT_EQ(refusal_of(decide(&t, ChangeDropped{"cup", "b", false, "back"}, kOrganizer)),
            (Refusal{RefusalKind::conflict,
                     i18n::Message("api.player.not_dropped", {{"player", i18n::PlayerRef{"b"}}})}));
}

TEST(ChangeDroppedDecider, AnUnknownPlayerOrTournamentIsNotFound) {
  auto b = three_players();
  auto t = b.tournament();
  EXPECT_EQ(refusal_of(decide(&t, ChangeDropped{"cup", "z", true, "x"}, kOrganizer)),
            player_not_found("z"));
  EXPECT_EQ(refusal_of(decide(nullptr, ChangeDropped{"gone", "a", true, "x"}, kOrganizer)),
            kNoTournament);
}

// --- CheckIn ---

TEST(CheckInDecider, MarksPlayersPresentForTheNextRound) {
  auto b = three_players();
  b.seat({{"a", "b", "c"}});
  auto t = b.tournament();
  auto decision = decide(&t, CheckIn{"cup", {"a", "c"}, true}, kOrganizer);
  ASSERT_FALSE(decision.refused());
  auto e = only_event(decision, t.version);
  ASSERT_EQ(e.getPayload().which(), Which::CHECK_IN);
  auto check_in = e.getPayload().getCheckIn();
  EXPECT_EQ(check_in.getRound(), 2u);
  EXPECT_TRUE(check_in.getPresent());
  ASSERT_EQ(check_in.getPlayers().size(), 2u);
  EXPECT_EQ(text(check_in.getPlayers()[0]), "a");
  EXPECT_EQ(text(check_in.getPlayers()[1]), "c");
  EXPECT_EQ(text(e.getAuthor()), "organizer");
  apply(b, decision);
  auto after = b.tournament();
  EXPECT_TRUE(after.checkin_open());
  EXPECT_TRUE(after.present("a"));
  EXPECT_FALSE(after.present("b"));
  // Absent again: c is no longer present.
  auto absent = decide(&after, CheckIn{"cup", {"c"}, false}, kOrganizer);
  EXPECT_FALSE(only_event(absent, after.version).getPayload().getCheckIn().getPresent());
  apply(b, absent);
  EXPECT_FALSE(b.tournament().present("c"));
}

TEST(CheckInDecider, UnknownAndDroppedPlayersAreEachAnErrorAtPlayers) {
  auto b = three_players();
  b.drop("b");
  auto t = b.tournament();
  EXPECT_EQ(
      refusal_of(decide(&t, CheckIn{"cup", {"a", "z", "b"}, true}, kOrganizer)),
      (Refusal{RefusalKind::unprocessable,
               i18n::Message("api.checkin.invalid"),
               {{"checkin", "z", "players",
                 i18n::Message("api.player.not_found", {{"id", "z"}, {"tournament", "cup"}})},
                {"checkin", "b", "players",
                 i18n::Message("api.checkin.dropped", {{"player", i18n::PlayerRef{"b"}}})}}}));
}

TEST(CheckInDecider, NoTournamentIsNotFound) {
  EXPECT_EQ(refusal_of(decide(nullptr, CheckIn{"gone", {"a"}, true}, kOrganizer)), kNoTournament);
}

// --- DropAbsent ---

TEST(DropAbsentDecider, DropsEveryPlayerNotCheckedInInRegistrationOrder) {
  auto b = three_players();
  b.player("d", "Dee").player("e", "Eve");
  b.seat({{"a", "b", "c", "d"}});
  b.drop("e");  // dropped already: not dropped again
  auto t0 = b.tournament();
  apply(b, decide(&t0, CheckIn{"cup", {"b"}, true}, kOrganizer));
  auto t = b.tournament();
  auto decision = decide(&t, DropAbsent{"cup", "no show"}, kOrganizer);
  ASSERT_FALSE(decision.refused());
  const Append& append = decision.accepted().append;
  EXPECT_EQ(append.stream, projections::tournament_stream("cup"));
  EXPECT_TRUE(append.expected.accepts(t.version));
  EXPECT_FALSE(append.expected.accepts(t.version + 1));
  ASSERT_EQ(append.events.size(), 3u);
  const char* expected[] = {"a", "c", "d"};
  for (std::size_t i = 0; i < 3; ++i) {
    auto e = append.events[i].reader();
    ASSERT_EQ(e.getPayload().which(), Which::PLAYER_DROPPED);
    EXPECT_EQ(text(e.getPayload().getPlayerDropped().getId()), expected[i]);
    EXPECT_EQ(text(e.getReason()), "no show");
    EXPECT_EQ(text(e.getAuthor()), "organizer");
  }
  apply(b, decision);
  auto after = b.tournament();
  EXPECT_TRUE(after.player("a")->dropped);
  EXPECT_FALSE(after.player("b")->dropped);
  EXPECT_TRUE(after.player("c")->dropped);
  EXPECT_TRUE(after.player("d")->dropped);
}

TEST(DropAbsentDecider, NobodyAbsentIsAcceptedAndAppendsNothing) {
  auto b = three_players();
  auto t0 = b.tournament();
  apply(b, decide(&t0, CheckIn{"cup", {"a", "b", "c"}, true}, kOrganizer));
  auto t = b.tournament();
  auto decision = decide(&t, DropAbsent{"cup", "no show"}, kOrganizer);
  ASSERT_FALSE(decision.refused());
  EXPECT_TRUE(decision.accepted().append.events.empty());
}

TEST(DropAbsentDecider, OnlyWhileCheckInIsOpen) {
  auto b = three_players();
  b.seat({{"a", "b", "c"}});
  auto t = b.tournament();
  EXPECT_EQ(
      refusal_of(decide(&t, DropAbsent{"cup", "no show"}, kOrganizer)),
      (Refusal{RefusalKind::conflict, i18n::Message("api.checkin.not_open", {{"round", 2}})}));
  EXPECT_EQ(refusal_of(decide(nullptr, DropAbsent{"gone", "x"}, kOrganizer)), kNoTournament);
}

}  // namespace
}  // namespace tally::deciders
