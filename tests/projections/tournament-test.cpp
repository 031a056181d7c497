#include "projections/tournament.hpp"

#include "tests/support/tournament_builder.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace tally::projections {
namespace {

using testing::TournamentBuilder;
using Which = schema::Event::Payload::Which;

TEST(StreamNames, RoundTrip) {
  EXPECT_EQ(table_stream("brno-2026", 3, 12), "t/brno-2026/r/3/table/12");
  auto s = parse_stream("t/brno-2026/r/3/table/12");
  EXPECT_EQ(s.tournament, "brno-2026");
  EXPECT_EQ(s.round, 3u);
  EXPECT_EQ(s.table, 12u);
  auto t = parse_stream("t/brno-2026");
  EXPECT_EQ(t.tournament, "brno-2026");
  EXPECT_EQ(t.round, 0u);
  EXPECT_TRUE(parse_stream("judges").tournament.empty());
  EXPECT_TRUE(parse_stream("t/x/r/0/table/1").tournament.empty());
  EXPECT_TRUE(parse_stream("t/x/r/1/table/").tournament.empty());
}

// A table's answer asks only for the meetings among its own players (issue 26): the same pairs
// as the whole field's meetings, restricted to them, and nothing of the round asked about.
TEST(Tournament, MeetingsAmongSomePlayersAreTheFieldsMeetingsBetweenThem) {
  TournamentBuilder b("t1", "catan");
  for (int p = 1; p <= 12; ++p) b.player("p" + std::to_string(p), "P" + std::to_string(p));
  b.seat({{"p1", "p2", "p3", "p4"}, {"p5", "p6", "p7", "p8"}, {"p9", "p10", "p11", "p12"}});
  b.seat({{"p1", "p5", "p9", "p12"}, {"p2", "p6", "p10", "p3"}, {"p4", "p8", "p11", "p7"}});
  b.seat({{"p1", "p6", "p11", "p4"}, {"p2", "p5", "p12", "p8"}, {"p3", "p7", "p9", "p10"}});
  Tournament t = b.tournament();
  const std::vector<std::vector<std::string>> tables = {
      {"p1", "p6", "p11", "p4"}, {"p2", "p5", "p12", "p8"}, {"p3", "p7", "p9", "p10"}, {"p1"}, {}};
  for (std::uint32_t round : {1u, 2u, 3u, 4u}) {
    const Tournament::Meetings all = t.meetings_before(round);
    for (const auto& among : tables) {
      Tournament::Meetings want;
      for (const auto& [a, b] : all) {
        if (std::count(among.begin(), among.end(), a) && std::count(among.begin(), among.end(), b))
          want.emplace(a, b);
      }
      EXPECT_EQ(t.meetings_before(round, among), want) << "round " << round;
      EXPECT_EQ(Tournament::repeats_among(t.meetings_before(round, among), among),
                Tournament::repeats_among(all, among));
    }
  }
  // Round 3's table 1 met before: p1 and p4 in round 1, p4 and p11 in round 2.
  EXPECT_EQ(Tournament::repeats_among(t.meetings_before(3, tables[0]), tables[0]),
            (std::vector<std::pair<std::string, std::string>>{{"p1", "p4"}, {"p11", "p4"}}));
}

TEST(Tournament, FoldsSettingsPlayersRoundsAndDrops) {
  TournamentBuilder b("cup", "catan", "cs", {{"rounds", 5}});
  b.player("p1", "Jana").player("p2", "Petr").player("p3", "Eva");
  b.seat({{"p1", "p2", "p3"}});
  b.drop("p2");
  auto t = b.tournament();
  EXPECT_EQ(t.id, "cup");
  EXPECT_EQ(t.game, "catan");
  EXPECT_EQ(t.locale, "cs");
  EXPECT_EQ(t.rules.at("rounds"), 5);
  ASSERT_EQ(t.players.size(), 3u);
  EXPECT_TRUE(t.player("p2")->dropped);
  EXPECT_EQ(t.player("p2")->dropped_after_round, 1u);
  EXPECT_EQ(t.active_players().size(), 2u);
  ASSERT_EQ(t.rounds.size(), 1u);
  EXPECT_EQ(t.round(1)->table(1)->players, (std::vector<std::string>{"p1", "p2", "p3"}));
  EXPECT_EQ(t.round(2), nullptr);
  EXPECT_EQ(t.last_seq, b.last_seq());
}

TEST(Tournament, TheNewestCorrectionIsInEffectAndVoidsRemoveActions) {
  TournamentBuilder b("cup", "catan");
  b.player("a", "A").player("b", "B").player("c", "C");
  b.seat({{"a", "b", "c"}});
  auto claim = b.action(1, 1, Which::CLAIMED_WIN, boost::json::parse(R"({"player":"a"})"));
  auto other = b.action(1, 1, Which::CLAIMED_WIN, boost::json::parse(R"({"player":"b"})"));
  auto fixed = b.action(1, 1, Which::CLAIMED_WIN, boost::json::parse(R"({"player":"c"})"), claim,
                        "wrong player");
  auto t = b.tournament();
  const TableState* table = t.table(1, 1);
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->version, 3u);
  ASSERT_EQ(table->actions.size(), 2u);
  EXPECT_EQ(table->actions[0].seq(), other);
  EXPECT_EQ(table->actions[1].seq(), fixed);
  EXPECT_EQ(table->result(), nullptr);

  b.void_event(1, 1, other, "entered by mistake");
  t = b.tournament();
  ASSERT_EQ(t.table(1, 1)->actions.size(), 1u);
  EXPECT_EQ(std::string(t.table(1, 1)->actions[0].payload().getClaimedWin().getPlayer().cStr()),
            "c");
  EXPECT_EQ(t.table(1, 1)->version, 4u);
}

TEST(Tournament, FoldingAPrefixGivesTheStateAsItWas) {
  TournamentBuilder b("cup", "catan");
  b.player("a", "A");
  auto before = b.last_seq();
  b.player("b", "B");
  std::vector<schema::StoredEvent> prefix;
  for (const auto& e : b.events()) {
    if (e.seq() <= before) prefix.push_back(e);
  }
  auto t = Tournament::fold(prefix);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->players.size(), 1u);
  EXPECT_EQ(b.tournament().players.size(), 2u);
}

TEST(Tournament, EventsOfAnotherTournamentAreNotFolded) {
  TournamentBuilder a("a", "catan"), other("b", "catan");
  other.player("x", "X");
  auto t = a.tournament();
  EXPECT_FALSE(t.apply(other.events().back()));
  EXPECT_TRUE(t.players.empty());
}

}  // namespace
}  // namespace tally::projections
