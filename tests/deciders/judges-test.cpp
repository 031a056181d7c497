// The token holders' deciders without a process (AddTokenHolder, RevokeTokenHolder,
// RotateOrganizerToken): every refusal and every event they decide on the "judges" stream, on
// judges built directly (projections::Judges is a view of the list and the stream's version),
// each accepted event folded back into that list as the daemon's live state folds it.
#include "deciders/judges.hpp"

#include "schema/text.hpp"
#include "tests/deciders/support.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace tally::deciders {
namespace {

using projections::Judge;
using projections::Role;
using testing::kOrganizer;
using testing::refusal_of;
using Which = schema::Event::Payload::Which;

using schema::text;

schema::Digest digest(std::uint8_t fill) {
  schema::Digest d;
  d.fill(fill);
  return d;
}

// The "judges" stream as a list and a version; `fold` is the evolve half (the live state's
// rules: added, revoked, and an organizer token revoking every earlier one).
struct JudgesLog {
  std::vector<Judge> all;
  std::uint64_t version = 0;

  projections::Judges view() const { return {all, version}; }

  // A holder added by an earlier event of the stream.
  void add(std::string id, std::string name, Role role, std::uint8_t hash = 0) {
    push(std::move(id), std::move(name), role).token_hash = digest(hash);
    ++version;
  }

  // Folds the events of an accepted decision made on this log's version.
  void fold(const Decision<>& decision) {
    ASSERT_FALSE(decision.refused());
    const Append& append = decision.accepted().append;
    ASSERT_EQ(append.stream, "judges");
    ASSERT_TRUE(append.expected.accepts(version)) << "decided on another version";
    for (const auto& draft : append.events) {
      auto payload = draft.reader().getPayload();
      ++version;
      if (payload.isJudgeAdded()) {
        auto added = payload.getJudgeAdded();
        Judge& j = push(text(added.getId()), text(added.getName()),
                        added.getRole() == schema::Role::REPLICA ? Role::replica : Role::judge);
        j.standby = added.getStandby();
        std::copy(added.getTokenHash().begin(), added.getTokenHash().end(), j.token_hash.begin());
      } else if (payload.isJudgeRevoked()) {
        for (auto& j : all)
          if (j.id == text(payload.getJudgeRevoked().getId())) j.revoked = true;
      } else if (payload.isOrganizerToken()) {
        for (auto& j : all)
          if (j.role == Role::organizer) j.revoked = true;
        Judge& o = push("organizer", "Organizer", Role::organizer);
        auto hash = payload.getOrganizerToken().getTokenHash();
        std::copy(hash.begin(), hash.end(), o.token_hash.begin());
      }
    }
  }

 private:
  Judge& push(std::string id, std::string name, Role role) {
    Judge j;
    j.id = std::move(id);
    j.name = std::move(name);
    j.role = role;
    all.push_back(std::move(j));
    return all.back();
  }
};

// The organizer's token (version 1), then judge j1 "Eva" and replica r2 "backup".
JudgesLog staffed() {
  JudgesLog log;
  log.add("organizer", "Organizer", Role::organizer, 1);
  log.add("j1", "Eva", Role::judge, 2);
  log.add("r2", "backup", Role::replica, 3);
  return log;
}

schema::Event::Reader only_event(const Decision<>& decision, std::uint64_t version) {
  const Append& append = decision.accepted().append;
  EXPECT_EQ(append.stream, "judges");
  EXPECT_TRUE(append.expected.accepts(version));
  EXPECT_FALSE(append.expected.accepts(version + 1));
  EXPECT_EQ(append.events.size(), 1u);
  return append.events.at(0).reader();
}

// --- AddTokenHolder ---

TEST(AddTokenHolderDecider, AddsAJudgeNumberedFromTheNumberEverAddedWithTheHashOnly) {
  JudgesLog log;
  log.add("organizer", "Organizer", Role::organizer, 1);
  auto decision =
      decide(log.view(), AddTokenHolder{Role::judge, "Eva", false, digest(7)}, kOrganizer);
  ASSERT_FALSE(decision.refused());
  auto e = only_event(decision, log.version);
  ASSERT_EQ(e.getPayload().which(), Which::JUDGE_ADDED);
  auto added = e.getPayload().getJudgeAdded();
  EXPECT_EQ(text(added.getId()), "j1");
  EXPECT_EQ(text(added.getName()), "Eva");
  EXPECT_EQ(added.getRole(), schema::Role::JUDGE);
  EXPECT_FALSE(added.getStandby());
  ASSERT_EQ(added.getTokenHash().size(), 32u);
  EXPECT_TRUE(std::all_of(added.getTokenHash().begin(), added.getTokenHash().end(),
                          [](auto byte) { return byte == 7; }));
  EXPECT_EQ(text(e.getAuthor()), "organizer");
  log.fold(decision);
  ASSERT_NE(log.view().find("j1"), nullptr);
  EXPECT_EQ(log.view().find("j1")->name, "Eva");
  EXPECT_EQ(log.version, 2u);
}

TEST(AddTokenHolderDecider, NumbersSkipIdsAlreadyTaken) {
  // Two ever added (the organizer and j2): j2 is next and taken, so j3.
  JudgesLog log;
  log.add("organizer", "Organizer", Role::organizer);
  log.add("j2", "Eva", Role::judge);
  auto decision = decide(log.view(), AddTokenHolder{Role::judge, "Ole"}, kOrganizer);
  EXPECT_EQ(text(only_event(decision, log.version).getPayload().getJudgeAdded().getId()), "j3");
  log.fold(decision);
  // Revoked holders still count: three ever added, the next is j3 → taken → j4.
  log.fold(decide(log.view(), RevokeTokenHolder{Role::judge, "j3"}, kOrganizer));
  EXPECT_EQ(text(only_event(decide(log.view(), AddTokenHolder{Role::judge, "Ida"}, kOrganizer),
                            log.version)
                     .getPayload()
                     .getJudgeAdded()
                     .getId()),
            "j4");
}

TEST(AddTokenHolderDecider, AReplicaIsAnRNumberAndMayBeAStandby) {
  auto log = staffed();  // three ever added: r3
  auto decision =
      decide(log.view(), AddTokenHolder{Role::replica, "mirror", true, digest(9)}, kOrganizer);
  auto added = only_event(decision, log.version).getPayload().getJudgeAdded();
  EXPECT_EQ(text(added.getId()), "r3");
  EXPECT_EQ(added.getRole(), schema::Role::REPLICA);
  EXPECT_TRUE(added.getStandby());
  log.fold(decision);
  ASSERT_NE(log.view().find("r3"), nullptr);
  EXPECT_EQ(log.view().find("r3")->role, Role::replica);
  EXPECT_TRUE(log.view().find("r3")->standby);
}

// --- RevokeTokenHolder ---

TEST(RevokeTokenHolderDecider, RevokesAJudgeAtTheJudgesVersion) {
  auto log = staffed();
  auto decision = decide(log.view(), RevokeTokenHolder{Role::judge, "j1"}, kOrganizer);
  ASSERT_FALSE(decision.refused());
  auto e = only_event(decision, log.version);
  ASSERT_EQ(e.getPayload().which(), Which::JUDGE_REVOKED);
  EXPECT_EQ(text(e.getPayload().getJudgeRevoked().getId()), "j1");
  EXPECT_EQ(text(e.getAuthor()), "organizer");
  log.fold(decision);
  EXPECT_TRUE(log.view().find("j1")->revoked);
  EXPECT_FALSE(log.view().find("r2")->revoked);
}

TEST(RevokeTokenHolderDecider, AnIdOfNoneOfThatRoleIsNotFound) {
  auto log = staffed();
  const auto not_found = [](const char* id) {
    return Refusal{RefusalKind::not_found, i18n::Message("api.judge.not_found", {{"id", id}})};
  };
  EXPECT_EQ(refusal_of(decide(log.view(), RevokeTokenHolder{Role::judge, "j9"}, kOrganizer)),
            not_found("j9"));
  // r2 is a replica, not a judge; j1 a judge, not a replica.
  EXPECT_EQ(refusal_of(decide(log.view(), RevokeTokenHolder{Role::judge, "r2"}, kOrganizer)),
            not_found("r2"));
  EXPECT_EQ(refusal_of(decide(log.view(), RevokeTokenHolder{Role::replica, "j1"}, kOrganizer)),
            not_found("j1"));
}

TEST(RevokeTokenHolderDecider, RevokedAlreadyIsAConflictNamingTheHolder) {
  auto log = staffed();
  log.fold(decide(log.view(), RevokeTokenHolder{Role::replica, "r2"}, kOrganizer));
  EXPECT_EQ(refusal_of(decide(log.view(), RevokeTokenHolder{Role::replica, "r2"}, kOrganizer)),
            (Refusal{RefusalKind::conflict, i18n::Message("api.judge.already_revoked",
                                                          {{"name", "backup"}, {"id", "r2"}})}));
}

// --- RotateOrganizerToken ---

TEST(RotateOrganizerTokenDecider, AppendsTheNewHashToJudgesAtTheJudgesVersion) {
  auto log = staffed();
  auto decision = decide(log.view(), RotateOrganizerToken{digest(5)}, kOrganizer);
  ASSERT_FALSE(decision.refused());
  auto e = only_event(decision, log.version);
  ASSERT_EQ(e.getPayload().which(), Which::ORGANIZER_TOKEN);
  auto hash = e.getPayload().getOrganizerToken().getTokenHash();
  ASSERT_EQ(hash.size(), 32u);
  EXPECT_TRUE(std::all_of(hash.begin(), hash.end(), [](auto byte) { return byte == 5; }));
  EXPECT_EQ(text(e.getAuthor()), "organizer");
  log.fold(decision);
  // Every earlier organizer token stops working; the new one is the organizer's.
  EXPECT_TRUE(log.all[0].revoked);
  EXPECT_EQ(log.all.back().role, Role::organizer);
  EXPECT_FALSE(log.all.back().revoked);
  EXPECT_EQ(log.all.back().token_hash, digest(5));
  EXPECT_EQ(log.version, 4u);
}

}  // namespace
}  // namespace tally::deciders
