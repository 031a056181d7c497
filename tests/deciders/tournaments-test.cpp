// The tournament's own deciders without a process (CreateTournament, SetSelfReporting): every
// refusal and every event they decide, each accepted event folded back.
#include "deciders/tournaments.hpp"

#include "projections/catan/catan_game.hpp"
#include "schema/text.hpp"
#include "tests/deciders/support.hpp"

#include <gtest/gtest.h>

namespace tally::deciders {
namespace {

namespace json = boost::json;
using tally::testing::TournamentBuilder;
using testing::apply;
using testing::kOrganizer;
using testing::refusal_of;
using Which = schema::Event::Payload::Which;

using schema::text;

class TournamentsDecider : public ::testing::Test {
 protected:
  std::unique_ptr<projections::Game> catan = projections::catan::make_catan_game();
};

// --- CreateTournament ---

TEST_F(TournamentsDecider, CreatesANewStreamWithTheGamesDefaultsAndTheOverrides) {
  auto decision =
      decide(nullptr, *catan, CreateTournament{"spring", "Spring Cup", "de", {{"rounds", 4}}, true},
             kOrganizer);
  ASSERT_FALSE(decision.refused()) << decision.refusal().message;
  const Append& append = decision.accepted().append;
  EXPECT_EQ(append.stream, projections::tournament_stream("spring"));
  // Only while the stream does not exist.
  EXPECT_TRUE(append.expected.accepts(0));
  EXPECT_FALSE(append.expected.accepts(1));
  ASSERT_EQ(append.events.size(), 1u);
  auto e = append.events[0].reader();
  ASSERT_EQ(e.getPayload().which(), Which::TOURNAMENT_CREATED);
  auto created = e.getPayload().getTournamentCreated();
  EXPECT_EQ(text(created.getId()), "spring");
  EXPECT_EQ(text(created.getName()), "Spring Cup");
  EXPECT_EQ(text(created.getGame()), "catan");
  EXPECT_EQ(text(created.getLocale()), "de");
  EXPECT_TRUE(created.getSelfReporting());
  EXPECT_EQ(text(e.getAuthor()), "organizer");
  // The rules as the game normalizes them: its defaults with rounds 4.
  auto rules = json::parse(text(created.getRules())).as_object();
  EXPECT_EQ(rules, *catan->normalize_rules({{"rounds", 4}}).value);
  EXPECT_EQ(rules.at("rounds"), 4);
  EXPECT_TRUE(rules.contains("round_points_4"));
  // Folded: the tournament exists as created.
  capnp::MallocMessageBuilder copy;
  copy.setRoot(e);
  auto stored = projections::Tournament::fold([&] {
    std::vector<schema::StoredEvent> log;
    auto message = copy.getRoot<schema::Event>();
    message.setSeq(1);
    message.setStream(append.stream);
    message.setVersion(1);
    auto words = capnp::messageToFlatArray(copy);
    auto bytes = words.asBytes();
    log.emplace_back(1, schema::Digest{},
                     std::string_view(reinterpret_cast<const char*>(bytes.begin()), bytes.size()));
    return log;
  }());
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->id, "spring");
  EXPECT_EQ(stored->game, "catan");
  EXPECT_TRUE(stored->self_reporting);
  EXPECT_EQ(stored->version, 1u);
}

TEST_F(TournamentsDecider, BrokenRulesAreUnprocessableEachNamed) {
  EXPECT_EQ(
      refusal_of(decide(nullptr, *catan,
                        CreateTournament{"spring", "Spring", "", {{"rounds", 0}, {"speed", 2}}},
                        kOrganizer)),
      (Refusal{
          RefusalKind::unprocessable,
          i18n::Message("api.rules.invalid"),
          {{"rules", "", "rounds",
            i18n::Message("catan.rules.rounds", {{"key", "rounds"}, {"min", 1}, {"max", 100}})},
           {"rules", "", "speed", i18n::Message("catan.rules.unknown", {{"key", "speed"}})}}}));
}

TEST_F(TournamentsDecider, ATakenIdIsAConflict) {
  TournamentBuilder b("spring", "catan");
  auto t = b.tournament();
  EXPECT_EQ(
      refusal_of(decide(&t, *catan, CreateTournament{"spring", "Again"}, kOrganizer)),
      (Refusal{RefusalKind::conflict, i18n::Message("api.tournament.exists", {{"id", "spring"}})}));
}

// --- SetSelfReporting ---

TEST_F(TournamentsDecider, SelfReportingTurnsOnAndOffAtTheTournamentsVersion) {
  TournamentBuilder b("cup", "catan");
  b.player("a", "Ann");
  auto t = b.tournament();
  auto on = decide(&t, SetSelfReporting{"cup", true}, kOrganizer);
  ASSERT_FALSE(on.refused());
  const Append& append = on.accepted().append;
  EXPECT_EQ(append.stream, projections::tournament_stream("cup"));
  EXPECT_TRUE(append.expected.accepts(t.version));
  EXPECT_FALSE(append.expected.accepts(t.version + 1));
  ASSERT_EQ(append.events.size(), 1u);
  ASSERT_EQ(append.events[0].reader().getPayload().which(), Which::SELF_REPORTING);
  EXPECT_TRUE(append.events[0].reader().getPayload().getSelfReporting().getEnabled());
  EXPECT_EQ(text(append.events[0].reader().getAuthor()), "organizer");
  apply(b, on);
  EXPECT_TRUE(b.tournament().self_reporting);
  auto now = b.tournament();
  auto off = decide(&now, SetSelfReporting{"cup", false}, kOrganizer);
  EXPECT_FALSE(
      off.accepted().append.events.at(0).reader().getPayload().getSelfReporting().getEnabled());
  apply(b, off);
  EXPECT_FALSE(b.tournament().self_reporting);
}

TEST_F(TournamentsDecider, AlreadySoIsAcceptedAndAppendsNothing) {
  TournamentBuilder b("cup", "catan");
  auto t = b.tournament();
  auto decision = decide(&t, SetSelfReporting{"cup", false}, kOrganizer);
  ASSERT_FALSE(decision.refused());
  EXPECT_TRUE(decision.accepted().append.events.empty());
}

TEST_F(TournamentsDecider, SelfReportingOfNoTournamentIsNotFound) {
  EXPECT_EQ(refusal_of(decide(nullptr, SetSelfReporting{"gone", true}, kOrganizer)),
            (Refusal{RefusalKind::not_found,
                     i18n::Message("api.tournament.not_found", {{"id", "gone"}})}));
}

}  // namespace
}  // namespace tally::deciders
