// Events written by an older version of the schema must stay readable by the current one.
// tests/schema/fixtures/events-v<N>.bin were encoded from events-v<N>.txt with the schema as it
// was then (schema/history/tally-v<N>.capnp):
//   capnp encode schema/history/tally-v1.capnp Event < events-v1.txt > events-v1.bin
// They are never regenerated: they are the bytes an old store holds.
#include "schema/json_codec.hpp"
#include "schema/tally.capnp.h"

#include <capnp/serialize.h>
#include <gtest/gtest.h>
#include <kj/io.h>

#include <fstream>
#include <iterator>
#include <vector>

namespace tally::schema {
namespace {

std::vector<kj::Array<capnp::word>> read_messages(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_FALSE(bytes.empty()) << path;
  EXPECT_EQ(bytes.size() % sizeof(capnp::word), 0u);
  auto words = kj::heapArray<capnp::word>(bytes.size() / sizeof(capnp::word));
  std::memcpy(words.begin(), bytes.data(), bytes.size());
  std::vector<kj::Array<capnp::word>> out;
  kj::ArrayPtr<const capnp::word> rest = words;
  while (rest.size() > 0) {
    capnp::FlatArrayMessageReader reader(rest);
    auto end = reader.getEnd();
    auto one = kj::heapArray<capnp::word>(rest.begin(), end - rest.begin());
    out.push_back(std::move(one));
    rest = kj::arrayPtr(end, rest.end());
  }
  return out;
}

std::string text(capnp::Text::Reader t) { return std::string(t.cStr(), t.size()); }

TEST(SchemaEvolution, Version1EventsDecodeWithTheCurrentSchema) {
  auto messages = read_messages(TALLY_SOURCE_DIR "/tests/schema/fixtures/events-v1.bin");
  ASSERT_EQ(messages.size(), 13u);
  std::vector<Event::Payload::Which> kinds;
  for (std::size_t i = 0; i < messages.size(); ++i) {
    capnp::FlatArrayMessageReader reader(messages[i]);
    auto e = reader.getRoot<Event>();
    EXPECT_EQ(e.getSeq(), i + 1);
    kinds.push_back(e.getPayload().which());
    // Every stored event still renders as JSON (the audit trail of an old store).
    EXPECT_FALSE(encode_struct(e).empty());
  }
  using W = Event::Payload::Which;
  EXPECT_EQ(kinds, (std::vector<W>{W::JUDGE_ADDED, W::TOURNAMENT_CREATED, W::PLAYER_REGISTERED,
                                   W::ROUND_SEATED, W::CATAN_RESULT, W::CLAIMED_WIN, W::HOUSE_PICK,
                                   W::AGOT_RESULT, W::CARCASSONNE_SCORING, W::CARCASSONNE_RESULT,
                                   W::VOID, W::JUDGE_REVOKED, W::PLAYER_DROPPED}));

  capnp::FlatArrayMessageReader judge(messages[0]);
  auto added = judge.getRoot<Event>().getPayload().getJudgeAdded();
  EXPECT_EQ(added.getRole(), Role::ORGANIZER);
  EXPECT_EQ(added.getTokenHash().size(), 32u);

  capnp::FlatArrayMessageReader created(messages[1]);
  auto t = created.getRoot<Event>();
  EXPECT_EQ(text(t.getEventId()), "k-1");
  EXPECT_EQ(text(t.getPayload().getTournamentCreated().getLocale()), "cs");
  EXPECT_EQ(text(t.getPayload().getTournamentCreated().getRules()),
            R"({"round_points_4":[5,3,2,1]})");

  capnp::FlatArrayMessageReader player(messages[2]);
  EXPECT_EQ(text(player.getRoot<Event>().getPayload().getPlayerRegistered().getName()),
            "Jana Nováková");

  capnp::FlatArrayMessageReader seating(messages[3]);
  auto round = seating.getRoot<Event>().getPayload().getRoundSeated();
  EXPECT_EQ(round.getSeed(), 12345u);
  EXPECT_EQ(round.getMethod(), SeatingMethod::RANDOM);
  EXPECT_EQ(round.getTables()[0].getPlayers().size(), 4u);

  capnp::FlatArrayMessageReader catan(messages[4]);
  auto p1 = catan.getRoot<Event>().getPayload().getCatanResult().getPlayers()[0];
  EXPECT_EQ(p1.getCities(), 3);
  EXPECT_TRUE(p1.hasVp());
  EXPECT_EQ(p1.getVp().getValue(), 10);
  EXPECT_TRUE(p1.getClaimedWin());
  auto p2 = catan.getRoot<Event>().getPayload().getCatanResult().getPlayers()[1];
  EXPECT_FALSE(p2.hasVp());

  capnp::FlatArrayMessageReader correction(messages[5]);
  EXPECT_EQ(correction.getRoot<Event>().getSupersedes(), 5u);
  EXPECT_EQ(text(correction.getRoot<Event>().getReason()), "VP cards miscounted");

  capnp::FlatArrayMessageReader agot(messages[7]);
  auto r3 = agot.getRoot<Event>().getPayload().getAgotResult().getPlayers()[0];
  EXPECT_EQ(r3.getHouse(), House::GREYJOY);
  ASSERT_EQ(r3.getCapitalsCaptured().size(), 2u);
  EXPECT_EQ(r3.getCapitalsCaptured()[1], House::TYRELL);

  capnp::FlatArrayMessageReader scoring(messages[8]);
  EXPECT_EQ(encode_struct(scoring.getRoot<Event>().getPayload().getCarcassonneScoring())
                .at("event")
                .at("tiles"),
            4);
}

}  // namespace
}  // namespace tally::schema
