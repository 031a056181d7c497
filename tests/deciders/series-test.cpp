// The series' deciders (docs/series.md): each command decided on a series folded from the
// events the earlier decisions appended (decide → evolve), with its refusals' rule ids.
#include "deciders/series.hpp"
#include "projections/series_scoring.hpp"

#include "tests/deciders/support.hpp"

#include <gtest/gtest.h>

namespace tally::deciders {
namespace {

using namespace tally::deciders::testing;
using tally::testing::TournamentBuilder;
namespace json = boost::json;

// A series' log (its own stream in a builder) and two tournaments of this server.
class SeriesDecisions : public ::testing::Test {
 protected:
  SeriesDecisions() : log_("unused", "catan"), brno_("brno", "catan"), cwc_("cwc", "carcassonne") {
    brno_.player("p1", "Jana Nováková").player("p2", "Petr Svoboda").player("p3", "Eva Malá");
    auto created =
        decide(nullptr,
               CreateSeries{"ctt", "Czech Catan Tour", "catan", "cs",
                            json::object{{"kind", "qualification"}, {"min_players", 10}}},
               kOrganizer);
    apply(log_, created);
  }

  projections::Series series() const {
    projections::Series s;
    for (const auto& e : log_.events()) {
      if (std::string_view(e.event().getStream().cStr()) == "s/ctt") s.apply(e);
    }
    return s;
  }

  SeriesTournaments tournaments() {
    brno_state_ = brno_.tournament();
    return [this](std::string_view id) -> const projections::Tournament* {
      return id == "brno" ? &*brno_state_ : nullptr;
    };
  }

  TournamentBuilder log_, brno_, cwc_;
  std::optional<projections::Tournament> brno_state_;
};

TEST_F(SeriesDecisions, ASeriesIsCreatedWithItsScoringWrittenOutOrRefusedNamingTheField) {
  auto s = series();
  EXPECT_EQ(s.name, "Czech Catan Tour");
  EXPECT_EQ(s.scoring.at("min_players"), 10);
  EXPECT_EQ(s.scoring.at("points_to_qualify"), 2);  // the default, written out

  auto again = decide(&s, CreateSeries{"ctt", "x", "catan", "", json::object{{"kind", "ladder"}}},
                      kOrganizer);
  EXPECT_EQ(refusal_of(again).kind, RefusalKind::conflict);
  EXPECT_EQ(refusal_of(again).message.key, "series.exists");

  auto bad = decide(
      nullptr, CreateSeries{"x", "x", "catan", "", json::object{{"kind", "ladder"}, {"best", 0}}},
      kOrganizer);
  ASSERT_EQ(refusal_of(bad).errors.size(), 1u);
  EXPECT_EQ(refusal_of(bad).errors[0].rule, "Q-4");
  EXPECT_EQ(refusal_of(bad).errors[0].field, "scoring.best");
}

TEST_F(SeriesDecisions, ATournamentOfAnotherGameOrOneInTheSeriesAlreadyIsRefused) {
  auto s = series();
  auto cwc = cwc_.tournament();
  auto other_game = decide(&s, &cwc, AddSeriesTournament{"ctt", "cwc"}, kOrganizer);
  EXPECT_EQ(refusal_of(other_game).errors.at(0).rule, "Q-1");
  EXPECT_EQ(refusal_of(other_game).message.key, "series.game_differs");

  auto brno = brno_.tournament();
  apply(log_, decide(&s, &brno, AddSeriesTournament{"ctt", "brno"}, kOrganizer));
  auto s2 = series();
  EXPECT_EQ(s2.tournaments, (std::vector<std::string>{"brno"}));
  auto twice = decide(&s2, &brno, AddSeriesTournament{"ctt", "brno"}, kOrganizer);
  EXPECT_EQ(refusal_of(twice).kind, RefusalKind::conflict);
  auto no_series = decide(nullptr, &brno, AddSeriesTournament{"nope", "brno"}, kOrganizer);
  EXPECT_EQ(refusal_of(no_series).kind, RefusalKind::not_found);
}

// An import of `events` of tournament "plzen" with a chain of `length` hashes (byte 0 = seq).
ImportSeriesTournament import_of(const TournamentBuilder& venue, std::size_t length) {
  ImportSeriesTournament i;
  i.series = "ctt";
  i.tournament = "plzen";
  i.server = "venue";
  for (std::size_t seq = 1; seq <= length; ++seq) {
    schema::Digest d{};
    d[0] = static_cast<std::uint8_t>(seq);
    i.chain.push_back(d);
  }
  i.log = i.chain.front();
  i.head = i.chain.back();
  i.events = length;
  i.tournament_events = venue.events();
  return i;
}

TEST_F(SeriesDecisions, Q1_AnImportIsReplacedOnlyByALongerChainThatExtendsIt) {
  TournamentBuilder venue("plzen", "catan");
  venue.player("v1", "Jana Nováková");
  auto s = series();
  auto first = decide(&s, import_of(venue, 5), kOrganizer);
  EXPECT_FALSE(first.accepted().facts.replaced);
  apply(log_, first);
  auto s2 = series();
  ASSERT_EQ(s2.imports.count("plzen"), 1u);
  EXPECT_EQ(s2.imports.at("plzen").tournament.players.size(), 1u);
  EXPECT_EQ(s2.imports.at("plzen").origin.events, 5u);
  EXPECT_EQ(s2.imports.at("plzen").origin.imported_by, "organizer");

  auto same = decide(&s2, import_of(venue, 5), kOrganizer);
  EXPECT_TRUE(same.accepted().facts.unchanged);
  EXPECT_TRUE(same.accepted().append.events.empty());

  // A correction made later at the venue: the chain goes on from the same head.
  venue.player("v2", "Petr Svoboda");
  auto longer = decide(&s2, import_of(venue, 8), kOrganizer);
  EXPECT_TRUE(longer.accepted().facts.replaced);
  apply(log_, longer);
  EXPECT_EQ(series().imports.at("plzen").tournament.players.size(), 2u);

  // Another chain (the hash at seq 8 differs): refused, Q-1.
  auto other = import_of(venue, 9);
  other.chain[7][1] = 0xff;
  auto s3 = series();
  auto forked = decide(&s3, other, kOrganizer);
  EXPECT_EQ(refusal_of(forked).kind, RefusalKind::conflict);
  EXPECT_EQ(refusal_of(forked).errors.at(0).rule, "Q-1");
  EXPECT_EQ(refusal_of(forked).message.key, "series.import.not_extending");
  // A shorter one does not extend it either.
  EXPECT_TRUE(decide(&s3, import_of(venue, 6), kOrganizer).refused());
}

TEST_F(SeriesDecisions, Q5_APersonIsOnePlayerOfATournamentAndAPlayerOnePerson) {
  auto s = series();
  auto brno = brno_.tournament();
  apply(log_, decide(&s, &brno, AddSeriesTournament{"ctt", "brno"}, kOrganizer));
  auto s1 = series();
  auto added =
      decide(&s1, tournaments(),
             AddPerson{"ctt", "", "Jana Nováková", "Catan Club Brno", "brno", "p1"}, kOrganizer);
  EXPECT_EQ(added.accepted().facts.id, "p1");
  EXPECT_EQ(added.accepted().append.events.size(), 2u);  // person_added and person_linked
  apply(log_, added);
  auto s2 = series();
  ASSERT_NE(s2.person_of("brno", "p1"), nullptr);
  EXPECT_EQ(s2.person_of("brno", "p1")->club, "Catan Club Brno");

  apply(log_, decide(&s2, tournaments(), AddPerson{"ctt", "petr", "Petr Svoboda", "", "", ""},
                     kOrganizer));
  auto s3 = series();
  auto taken = decide(&s3, tournaments(), DecideLink{"ctt", "brno", "p2", "p1", false}, kOrganizer);
  EXPECT_EQ(refusal_of(taken).errors.at(0).rule, "Q-5");
  EXPECT_EQ(refusal_of(taken).message.key, "series.link.person_taken");
  auto player_taken =
      decide(&s3, tournaments(), DecideLink{"ctt", "brno", "p1", "petr", false}, kOrganizer);
  EXPECT_EQ(refusal_of(player_taken).message.key, "series.link.player_taken");
  auto nobody =
      decide(&s3, tournaments(), DecideLink{"ctt", "brno", "p9", "petr", false}, kOrganizer);
  EXPECT_EQ(refusal_of(nobody).kind, RefusalKind::not_found);
  auto not_in =
      decide(&s3, tournaments(), DecideLink{"ctt", "zlin", "p1", "petr", false}, kOrganizer);
  EXPECT_EQ(refusal_of(not_in).message.key, "series.tournament.not_in_series");

  // Confirming the same link again appends nothing; a rejected one is not proposed again.
  auto again = decide(&s3, tournaments(), DecideLink{"ctt", "brno", "p1", "p1", false}, kOrganizer);
  EXPECT_TRUE(again.accepted().append.events.empty());
  auto local = [&](std::string_view id) -> const projections::Tournament* {
    return id == "brno" ? &brno : nullptr;
  };
  auto proposed = projections::proposed_links(s3, local);
  ASSERT_EQ(proposed.size(), 1u);  // Petr Svoboda (p2) ↔ petr, by name
  EXPECT_EQ(proposed[0].player, "p2");
  EXPECT_EQ(proposed[0].person, "petr");
  apply(log_,
        decide(&s3, tournaments(), DecideLink{"ctt", "brno", "p2", "petr", true}, kOrganizer));
  auto s4 = series();
  EXPECT_TRUE(projections::proposed_links(s4, local).empty());
  EXPECT_EQ(projections::unlinked_players(s4, local).size(), 2u);  // p2 (rejected) and p3
}

}  // namespace
}  // namespace tally::deciders
