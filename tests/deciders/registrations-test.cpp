// Registration before the day without a process (deciders/registrations.hpp, and the
// check-in side in deciders/players.hpp): every refusal, and each accepted decision folded back
// (decide → evolve) to check what the registrations become.
#include "deciders/registrations.hpp"

#include "deciders/players.hpp"
#include "deciders/tournaments.hpp"
#include "projections/catan/catan_game.hpp"
#include "projections/registration.hpp"
#include "tests/deciders/support.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tally::deciders {
namespace {

using projections::Registration;
using Status = projections::Registration::Status;
using tally::testing::TournamentBuilder;
using testing::apply;
using testing::kOrganizer;
using testing::refusal_of;
using Which = schema::Event::Payload::Which;

// "cup", registration open, with this capacity (0: none).
TournamentBuilder open_cup(std::int64_t capacity) {
  boost::json::object rules{{"registration", "open"}};
  if (capacity != 0) rules["capacity"] = capacity;
  return TournamentBuilder("cup", "catan", "cs", rules);
}

std::string key_of(const std::string& name) {
  return std::string(32, name.empty() ? 'k' : name[0]);
}

Register registration(const std::string& name) {
  return Register{"cup", name, "", "", "", key_of(name)};
}

// Registers `name` (accepted) and folds it in; the facts the decider answered.
RegisterFacts register_one(TournamentBuilder& b, const std::string& name) {
  auto t = b.tournament();
  auto decision = decide(&t, registration(name), kRegistrant);
  apply(b, decision);
  return decision.refused() ? RegisterFacts{} : decision.accepted().facts;
}

std::string name_of(int i) { return "Player " + std::to_string(i); }

// Seventy registrations "Player 1" … "Player 70" (r1 … r70) for `capacity` places.
TournamentBuilder seventy(std::int64_t capacity) {
  auto b = open_cup(capacity);
  for (int i = 1; i <= 70; ++i) register_one(b, name_of(i));
  return b;
}

std::vector<std::string> waiting_ids(const projections::Tournament& t) {
  std::vector<std::string> out;
  for (const auto* r : t.registrations.waiting()) out.push_back(r->id);
  return out;
}

std::vector<std::string> ids(int from, int to) {
  std::vector<std::string> out;
  for (int i = from; i <= to; ++i) out.push_back("r" + std::to_string(i));
  return out;
}

TEST(RegisterDecider, SeventyForACapacityOfSixtyLeaveTenWaitingInOrder) {
  auto b = open_cup(60);
  for (int i = 1; i <= 70; ++i) {
    RegisterFacts facts = register_one(b, name_of(i));
    EXPECT_EQ(facts.id, "r" + std::to_string(i));
    if (i <= 60) {
      EXPECT_EQ(facts.status, Status::registered) << i;
      EXPECT_EQ(facts.position, 0u) << i;
    } else {
      EXPECT_EQ(facts.status, Status::waiting) << i;
      EXPECT_EQ(facts.position, static_cast<std::size_t>(i - 60)) << i;
    }
  }
  auto t = b.tournament();
  EXPECT_EQ(t.registrations.holding(), 60u);
  EXPECT_EQ(waiting_ids(t), ids(61, 70));
  for (int i = 61; i <= 70; ++i)
    EXPECT_EQ(t.registrations.position("r" + std::to_string(i)), static_cast<std::size_t>(i - 60));
  EXPECT_EQ(t.registrations.position("r60"), 0u);
  const Registration* first = t.registrations.find("r1");
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->name, "Player 1");
  EXPECT_EQ(first->key_hash, key_of("Player 1"));
}

TEST(RegisterDecider, TheEventHoldsTheSealedEMailAndTheKeysHashOnly) {
  auto b = open_cup(0);
  auto t = b.tournament();
  Register command{"cup", "Jana Nováková", "KSH Brno", "per-7", "sealed-bytes", key_of("J")};
  auto decision = decide(&t, command, kRegistrant);
  ASSERT_FALSE(decision.refused());
  auto e = decision.accepted().append.events.at(0).reader();
  EXPECT_EQ(std::string(e.getAuthor().cStr()), "registrant");
  auto received = e.getPayload().getRegistrationReceived();
  EXPECT_EQ(std::string(received.getName().cStr()), "Jana Nováková");
  EXPECT_EQ(std::string(received.getClub().cStr()), "KSH Brno");
  EXPECT_EQ(std::string(received.getPerson().cStr()), "per-7");
  auto sealed = received.getEmailSealed();
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(sealed.begin()), sealed.size()),
            "sealed-bytes");
  EXPECT_EQ(received.getKeyHash().size(), 32u);
}

TEST(CancelRegistrationDecider, TwoCancellationsMoveTheFirstTwoWaitingUpAndTheRestAlong) {
  auto b = seventy(60);
  {
    auto t = b.tournament();
    // The registrant's own key cancels r5 …
    auto decision =
        decide(&t, CancelRegistration{"cup", "r5", key_of(name_of(5)), ""}, kRegistrant);
    ASSERT_FALSE(decision.refused());
    EXPECT_EQ(decision.accepted().facts.moved_up, "r61");
    apply(b, decision);
  }
  {
    auto t = b.tournament();
    // … the organizer r10, without a key.
    auto decision = decide(&t, CancelRegistration{"cup", "r10", std::nullopt, "ill"}, kOrganizer);
    ASSERT_FALSE(decision.refused());
    EXPECT_EQ(decision.accepted().facts.moved_up, "r62");
    apply(b, decision);
  }
  auto t = b.tournament();
  EXPECT_EQ(t.registrations.find("r5")->status, Status::cancelled);
  EXPECT_EQ(t.registrations.find("r10")->status, Status::cancelled);
  EXPECT_EQ(t.registrations.find("r61")->status, Status::registered);
  EXPECT_EQ(t.registrations.find("r62")->status, Status::registered);
  EXPECT_EQ(t.registrations.holding(), 60u);
  EXPECT_EQ(waiting_ids(t), ids(63, 70));
  EXPECT_EQ(t.registrations.position("r63"), 1u);
  EXPECT_EQ(t.registrations.position("r70"), 8u);
}

TEST(CancelRegistrationDecider, AWaitingOneCancelledMovesNobodyUp) {
  auto b = seventy(60);
  auto t = b.tournament();
  auto decision = decide(&t, CancelRegistration{"cup", "r61", std::nullopt, ""}, kOrganizer);
  ASSERT_FALSE(decision.refused());
  EXPECT_EQ(decision.accepted().facts.moved_up, "");
  apply(b, decision);
  t = b.tournament();
  EXPECT_EQ(waiting_ids(t), ids(62, 70));
  EXPECT_EQ(t.registrations.position("r62"), 1u);
}

TEST(CancelRegistrationDecider, AnotherKeyIsAnsweredAsIfTheRegistrationDidNotExist) {
  auto b = seventy(60);
  auto t = b.tournament();
  const Refusal wrong_key =
      refusal_of(decide(&t, CancelRegistration{"cup", "r5", key_of("X"), ""}, kRegistrant));
  EXPECT_EQ(wrong_key.kind, RefusalKind::not_found);
  EXPECT_EQ(wrong_key.message.key, "api.registration.not_found");
  const Refusal none =
      refusal_of(decide(&t, CancelRegistration{"cup", "r99", std::nullopt, ""}, kOrganizer));
  EXPECT_EQ(none.kind, RefusalKind::not_found);
  EXPECT_EQ(
      refusal_of(decide(nullptr, CancelRegistration{"gone", "r1", std::nullopt, ""}, kOrganizer))
          .message.key,
      "api.tournament.not_found");
}

TEST(CancelRegistrationDecider, CancelledOnceOrAlreadyAPlayerIsAConflict) {
  auto b = seventy(60);
  auto t = b.tournament();
  apply(b, decide(&t, CancelRegistration{"cup", "r5", std::nullopt, ""}, kOrganizer));
  b.player("r6", "Player 6");  // turned into a player
  t = b.tournament();
  const Refusal again =
      refusal_of(decide(&t, CancelRegistration{"cup", "r5", std::nullopt, ""}, kOrganizer));
  EXPECT_EQ(again.kind, RefusalKind::conflict);
  EXPECT_EQ(again.message.key, "api.registration.cancelled");
  const Refusal player =
      refusal_of(decide(&t, CancelRegistration{"cup", "r6", key_of("P"), ""}, kRegistrant));
  EXPECT_EQ(player.kind, RefusalKind::conflict);
  EXPECT_EQ(player.message.key, "api.registration.already_player");
}

TEST(RegisterDecider, TheSameCollatedNameTwiceIsRefusedWithTheFirstsStatus) {
  auto b = open_cup(1);
  register_one(b, "Jana Nováková");
  register_one(b, "Petr Novák");  // waits: position 1
  auto t = b.tournament();
  const Refusal refusal = refusal_of(decide(&t, registration("jana novakova"), kRegistrant));
  EXPECT_EQ(refusal.kind, RefusalKind::conflict);
  EXPECT_EQ(refusal.message.key, "api.registration.same_name");
  ASSERT_EQ(refusal.errors.size(), 1u);
  EXPECT_EQ(refusal.errors[0].rule, "Q-7");
  EXPECT_EQ(refusal.errors[0].field, "name");
  EXPECT_EQ(refusal.errors[0].extra.at("status"), "registered");
  EXPECT_FALSE(refusal.errors[0].extra.contains("position"));

  const Refusal waiting = refusal_of(decide(&t, registration("PETR  NOVAK"), kRegistrant));
  EXPECT_EQ(waiting.errors.at(0).extra.at("status"), "waiting");
  EXPECT_EQ(waiting.errors.at(0).extra.at("position"), 1);

  // A cancelled registration leaves its name free.
  apply(b, decide(&t, CancelRegistration{"cup", "r1", std::nullopt, ""}, kOrganizer));
  t = b.tournament();
  EXPECT_FALSE(decide(&t, registration("jana novakova"), kRegistrant).refused());
}

TEST(RegisterDecider, ClosedRegistrationIsRefusedNamingTheRule) {
  TournamentBuilder closed("cup", "catan");
  auto t = closed.tournament();
  const Refusal refusal = refusal_of(decide(&t, registration("Jana"), kRegistrant));
  EXPECT_EQ(refusal.kind, RefusalKind::conflict);
  EXPECT_EQ(refusal.message.key, "api.registration.closed");
  ASSERT_EQ(refusal.errors.size(), 1u);
  EXPECT_EQ(refusal.errors[0].rule, "Q-7");
  EXPECT_EQ(refusal.errors[0].field, "registration");
  EXPECT_EQ(refusal_of(decide(nullptr, registration("Jana"), kRegistrant)).message.key,
            "api.tournament.not_found");
}

TEST(RegisterDecider, ABadNameOrClubIsRefusedByTheTextRule) {
  auto b = open_cup(0);
  auto t = b.tournament();
  const Refusal blank = refusal_of(decide(&t, registration("   "), kRegistrant));
  EXPECT_EQ(blank.kind, RefusalKind::unprocessable);
  ASSERT_EQ(blank.errors.size(), 1u);
  EXPECT_EQ(blank.errors[0].rule, "text");
  EXPECT_EQ(blank.errors[0].field, "name");

  Register control = registration("Jana\u202eNovak");  // a bidirectional override
  control.club = std::string(201, 'x');                // longer than a name may be
  const Refusal both = refusal_of(decide(&t, control, kRegistrant));
  ASSERT_EQ(both.errors.size(), 2u);
  EXPECT_EQ(both.errors[0].field, "name");
  EXPECT_EQ(both.errors[1].field, "club");
  EXPECT_EQ(both.errors[1].rule, "text");
}

TEST(SetRegistrationDecider, ARaisedCapacityMovesUpAsManyAsItAddsAndClosingStopsRegistration) {
  auto b = seventy(60);
  auto t = b.tournament();
  apply(b, decide(&t, SetRegistration{"cup", false, 63}, kOrganizer));
  t = b.tournament();
  EXPECT_FALSE(t.registrations.open());
  EXPECT_EQ(t.rules.at("registration"), "closed");
  EXPECT_EQ(t.rules.at("capacity"), 63);
  EXPECT_EQ(waiting_ids(t), ids(64, 70));
  EXPECT_EQ(refusal_of(decide(&t, registration("Late"), kRegistrant)).message.key,
            "api.registration.closed");
  // The same settings append nothing.
  auto same = decide(&t, SetRegistration{"cup", false, std::nullopt}, kOrganizer);
  ASSERT_FALSE(same.refused());
  EXPECT_TRUE(same.accepted().append.events.empty());
}

TEST(CreateTournamentDecider, RegistrationAndCapacityAreValidatedWithTheRulesNamingQ7) {
  auto catan = projections::catan::make_catan_game();
  CreateTournament bad{"cup", "Cup", "cs", {{"registration", "maybe"}, {"capacity", 0}}};
  const Refusal refusal = refusal_of(decide(nullptr, *catan, bad, kOrganizer));
  EXPECT_EQ(refusal.kind, RefusalKind::unprocessable);
  ASSERT_EQ(refusal.errors.size(), 2u);
  EXPECT_EQ(refusal.errors[0].rule, "Q-7");
  EXPECT_EQ(refusal.errors[0].field, "registration");
  EXPECT_EQ(refusal.errors[1].field, "capacity");
  CreateTournament good{"cup", "Cup", "cs", {{"registration", "open"}, {"capacity", 60}}};
  auto decision = decide(nullptr, *catan, good, kOrganizer);
  ASSERT_FALSE(decision.refused());
  auto rules = boost::json::parse(decision.accepted()
                                      .append.events.at(0)
                                      .reader()
                                      .getPayload()
                                      .getTournamentCreated()
                                      .getRules()
                                      .cStr());
  EXPECT_EQ(rules.at("registration"), "open");
  EXPECT_EQ(rules.at("capacity"), 60);
}

TEST(AdmitRegistrations, TheRegisteredOnesAreAnImportOfTheirIdsAndNames) {
  auto b = open_cup(2);
  register_one(b, "Jana \"Jája\" Nováková");
  register_one(b, "Petr Novák");
  register_one(b, "Eva Malá");  // waits
  auto t = b.tournament();
  const std::string csv = projections::admission_csv(t);
  EXPECT_EQ(csv, "id,name\nr1,\"Jana \"\"Jája\"\" Nováková\"\nr2,\"Petr Novák\"\n");
  auto decision = decide(&t, ImportPlayers{"cup", csv, false}, kOrganizer);
  ASSERT_FALSE(decision.refused());
  EXPECT_EQ(decision.accepted().facts.plan.count(projections::ImportRow::Status::added), 2);
  apply(b, decision);
  t = b.tournament();
  ASSERT_NE(t.player("r1"), nullptr);
  EXPECT_EQ(t.player("r1")->name, "Jana \"Jája\" Nováková");
  EXPECT_TRUE(t.registrations.find("r1")->player);
  EXPECT_TRUE(t.registrations.find("r2")->player);
  EXPECT_FALSE(t.registrations.find("r3")->player);
  EXPECT_EQ(projections::admission_csv(t), "");  // nothing left to turn into players
}

// "Drop the absent" at check-in: three no-shows among the registered players, four waiting
// registrants present (not the first in line): exactly the first three present ones move up.
TEST(DropAbsentDecider, MovesUpAsManyPresentWaitingRegistrantsAsItDropsInTheirOrder) {
  auto b = seventy(60);
  {
    auto t = b.tournament();
    apply(b, decide(&t, ImportPlayers{"cup", projections::admission_csv(t), false}, kOrganizer));
  }
  std::vector<std::string> present;
  for (int i = 1; i <= 60; ++i) {
    if (i != 3 && i != 7 && i != 9) present.push_back("r" + std::to_string(i));
  }
  for (const char* w : {"r62", "r63", "r65", "r67"}) present.push_back(w);  // not r61
  {
    auto t = b.tournament();
    apply(b, decide(&t, CheckIn{"cup", present, true}, kOrganizer));
  }
  auto t = b.tournament();
  auto decision = decide(&t, DropAbsent{"cup", "no show"}, kOrganizer);
  ASSERT_FALSE(decision.refused());
  const auto& facts = decision.accepted().facts;
  EXPECT_EQ(facts.dropped, (std::vector<std::string>{"r3", "r7", "r9"}));
  EXPECT_EQ(facts.moved_up, (std::vector<std::string>{"r62", "r63", "r65"}));
  const auto& events = decision.accepted().append.events;
  ASSERT_EQ(events.size(), 6u);
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_EQ(events[i].reader().getPayload().which(), Which::PLAYER_DROPPED);
  auto moved = events[3].reader().getPayload().getPlayerRegistered();
  EXPECT_EQ(std::string(moved.getId().cStr()), "r62");
  EXPECT_EQ(std::string(moved.getName().cStr()), "Player 62");

  apply(b, decision);
  t = b.tournament();
  EXPECT_EQ(waiting_ids(t),
            (std::vector<std::string>{"r61", "r64", "r66", "r67", "r68", "r69", "r70"}));
  EXPECT_TRUE(t.registrations.find("r65")->player);
  EXPECT_EQ(t.registrations.find("r65")->status, Status::registered);
  EXPECT_EQ(t.seatable_players().size(), 60u);  // 57 present players and the three moved up
  EXPECT_TRUE(t.present("r63"));
}

TEST(CheckInDecider, AWaitingRegistrantMayBeCheckedInButNotOneHoldingAPlaceUnadmitted) {
  auto b = seventy(60);
  b.player("r1", "Player 1");  // turned into a player
  auto t = b.tournament();
  // Alone, before any player is checked in, it would open check-in with everyone absent.
  const Refusal first = refusal_of(decide(&t, CheckIn{"cup", {"r61"}, true}, kOrganizer));
  EXPECT_EQ(first.kind, RefusalKind::unprocessable);
  EXPECT_EQ(first.errors.at(0).rule, "Q-7");
  EXPECT_EQ(first.errors.at(0).message.key, "api.checkin.waiting_first");
  EXPECT_FALSE(decide(&t, CheckIn{"cup", {"r1", "r61"}, true}, kOrganizer).refused());
  apply(b, decide(&t, CheckIn{"cup", {"r1"}, true}, kOrganizer));
  t = b.tournament();
  EXPECT_FALSE(decide(&t, CheckIn{"cup", {"r61"}, true}, kOrganizer).refused());
  const Refusal refusal = refusal_of(decide(&t, CheckIn{"cup", {"r2"}, true}, kOrganizer));
  EXPECT_EQ(refusal.kind, RefusalKind::unprocessable);
  EXPECT_EQ(refusal.errors.at(0).player, "r2");
}

}  // namespace
}  // namespace tally::deciders
