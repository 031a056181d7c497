#include "schema/json_codec.hpp"

#include "schema/tally.capnp.h"
#include "tests/support/messages.hpp"

#include <capnp/message.h>
#include <gtest/gtest.h>
#include <boost/json.hpp>

namespace tally::schema {
namespace {

namespace json = boost::json;
using tally::testing::english;

json::value catan_player(std::string id) {
  return json::parse(R"({"player":")" + id + R"(","settlements":2,"cities":3,"vp_cards":0,
      "knights":3,"roads":6,"longest_road":4,"largest_army":true,"longest_road_holder":false})");
}

std::vector<FieldError> decode_catan(const json::value& body, capnp::MallocMessageBuilder& m) {
  return decode<CatanResult>(body, m.initRoot<CatanResult>());
}

TEST(JsonName, CamelCaseBecomesSnakeCase) {
  EXPECT_EQ(json_name("vpCards"), "vp_cards");
  EXPECT_EQ(json_name("longestRoadHolder"), "longest_road_holder");
  EXPECT_EQ(json_name("players"), "players");
}

TEST(JsonCodec, DecodesAWellFormedResult) {
  capnp::MallocMessageBuilder m;
  json::value body = {{"players", json::array{catan_player("a"), catan_player("b")}}};
  auto errors = decode_catan(body, m);
  ASSERT_TRUE(errors.empty()) << errors[0].path << " " << errors[0].message;
  auto r = m.getRoot<CatanResult>().asReader();
  ASSERT_EQ(r.getPlayers().size(), 2u);
  EXPECT_EQ(std::string(r.getPlayers()[1].getPlayer().cStr()), "b");
  EXPECT_EQ(r.getPlayers()[0].getCities(), 3);
  EXPECT_TRUE(r.getPlayers()[0].getLargestArmy());
  EXPECT_FALSE(r.getPlayers()[0].hasVp());          // optional and absent
  EXPECT_FALSE(r.getPlayers()[0].getClaimedWin());  // optional primitive: its default
}

TEST(JsonCodec, ReportsEveryProblemAtOnceWithPathFieldAndPlayer) {
  capnp::MallocMessageBuilder m;
  json::value p1 = catan_player("p1");
  p1.as_object().erase("roads");     // missing
  p1.as_object()["colour"] = "red";  // unknown
  json::value p2 = catan_player("p2");
  p2.as_object()["knights"] = "three";      // wrong type
  p2.as_object()["cities"] = 5000000000LL;  // beyond Int32
  json::value body = {{"players", json::array{p1, p2}}};
  auto errors = decode_catan(body, m);
  ASSERT_EQ(errors.size(), 4u);
  EXPECT_EQ(errors[0].path, "players[0].colour");
  EXPECT_EQ(errors[0].field, "colour");
  EXPECT_EQ(errors[0].player, "p1");
  EXPECT_EQ(english(errors[0].message), "is not a field of this object");
  EXPECT_EQ(errors[1].path, "players[0].roads");
  EXPECT_EQ(english(errors[1].message), "is required");
  EXPECT_EQ(errors[2].path, "players[1].cities");
  EXPECT_EQ(errors[2].player, "p2");
  EXPECT_EQ(english(errors[2].message), "must be an integer between -2147483648 and 2147483647");
  EXPECT_EQ(errors[3].path, "players[1].knights");
  EXPECT_EQ(english(errors[3].message), "must be an integer, not a string");
}

TEST(JsonCodec, ErrorsReadInTheReadersLanguage) {
  capnp::MallocMessageBuilder m;
  json::value p = catan_player("p1");
  p.as_object().erase("roads");
  p.as_object()["knights"] = "three";
  p.as_object()["cities"] = 2.5;
  p.as_object()["colour"] = "red";
  json::value body = {{"players", json::array{p}}};
  auto errors = decode_catan(body, m);
  ASSERT_EQ(errors.size(), 4u);
  std::vector<std::string> cs;
  for (const auto& e : errors) cs.push_back(tally::testing::rendered(e.message, i18n::Lang::cs));
  EXPECT_EQ(cs, (std::vector<std::string>{
                    "není položkou tohoto objektu",
                    "musí být celé číslo od -2147483648 do 2147483647, ne číslo s desetinnou "
                    "částí nebo exponentem",
                    "musí být celé číslo, ne řetězec",
                    "je povinná položka",
                }));
  EXPECT_EQ(tally::testing::rendered(errors[2].message, i18n::Lang::ru),
            "ожидается целое число, а не строка");
  EXPECT_EQ(tally::testing::rendered(errors[2].message, i18n::Lang::it),
            "deve essere un numero intero, non una stringa");
  // The machine fields stay as they are.
  EXPECT_EQ(errors[2].field, "knights");
  EXPECT_EQ(errors[2].path, "players[0].knights");
}

TEST(JsonCodec, NegativeCountsPassTheSchemaSoTheRulesCanNameThem) {
  capnp::MallocMessageBuilder m;
  json::value p = catan_player("p");
  p.as_object()["settlements"] = -1;
  json::value body = {{"players", json::array{p}}};
  EXPECT_TRUE(decode_catan(body, m).empty());
  EXPECT_EQ(m.getRoot<CatanResult>().asReader().getPlayers()[0].getSettlements(), -1);
}

TEST(JsonCodec, FractionsAndBooleansAreNotIntegers) {
  capnp::MallocMessageBuilder m;
  json::value p = catan_player("p");
  p.as_object()["settlements"] = 2.5;
  p.as_object()["largest_army"] = 1;
  json::value body = {{"players", json::array{p}}};
  auto errors = decode_catan(body, m);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].field, "settlements");
  EXPECT_EQ(errors[1].field, "largest_army");
  EXPECT_EQ(english(errors[1].message), "must be true or false, not an integer");
}

TEST(JsonCodec, BoxedOptionalKeepsZeroApartFromAbsent) {
  capnp::MallocMessageBuilder m;
  json::value p = catan_player("p");
  p.as_object()["vp"] = 0;
  json::value body = {{"players", json::array{p}}};
  ASSERT_TRUE(decode_catan(body, m).empty());
  auto r = m.getRoot<CatanResult>().asReader().getPlayers()[0];
  ASSERT_TRUE(r.hasVp());
  EXPECT_EQ(r.getVp().getValue(), 0);
  EXPECT_EQ(encode_struct(r).at("vp"), json::value(0));
}

TEST(JsonCodec, NullCountsAsAbsent) {
  capnp::MallocMessageBuilder m;
  json::value p = catan_player("p");
  p.as_object()["vp"] = nullptr;
  p.as_object()["cities"] = nullptr;
  json::value body = {{"players", json::array{p}}};
  auto errors = decode_catan(body, m);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].field, "cities");
  EXPECT_EQ(english(errors[0].message), "is required");
}

TEST(JsonCodec, EnumsByNameWithTheChoicesInTheError) {
  capnp::MallocMessageBuilder m;
  auto errors = decode<HousePick>(json::parse(R"({"player":"p","house":"targaryen"})"),
                                  m.initRoot<HousePick>());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].field, "house");
  EXPECT_EQ(
      english(errors[0].message),
      "must be one of stark, lannister, baratheon, greyjoy, tyrell, martell, not \"targaryen\"");

  capnp::MallocMessageBuilder ok;
  ASSERT_TRUE(decode<HousePick>(json::parse(R"({"player":"p","house":"greyjoy"})"),
                                ok.initRoot<HousePick>())
                  .empty());
  EXPECT_EQ(ok.getRoot<HousePick>().getHouse(), House::GREYJOY);
}

TEST(JsonCodec, ListsOfEnumsAndTheirErrorsCarryTheIndex) {
  capnp::MallocMessageBuilder m;
  auto body = json::parse(R"({"players":[{"player":"p1","house":"stark","place":1,"castles":7,
      "capitals_captured":["lannister","wolves"],"capitals_held":2,"lands_captured":3,
      "winner":true}]})");
  auto errors = decode<AgotResult>(body, m.initRoot<AgotResult>());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].path, "players[0].capitals_captured[1]");
  EXPECT_EQ(errors[0].player, "p1");
}

TEST(JsonCodec, JsonTextHoldsTheDocumentItself) {
  capnp::MallocMessageBuilder m;
  auto body = json::parse(R"({"event":{"feature":"road","tiles":4}})");
  ASSERT_TRUE(decode<CarcassonneScoring>(body, m.initRoot<CarcassonneScoring>()).empty());
  auto r = m.getRoot<CarcassonneScoring>().asReader();
  EXPECT_EQ(json::parse(r.getEvent().cStr()), json::parse(R"({"feature":"road","tiles":4})"));
  EXPECT_EQ(json::value(encode_struct(r)), body);

  capnp::MallocMessageBuilder bad;
  auto errors = decode<CarcassonneScoring>(json::parse(R"({"event":"road"})"),
                                           bad.initRoot<CarcassonneScoring>());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(english(errors[0].message), "must be an object, not a string");
}

TEST(JsonCodec, JsonTextRefusesANumberItCannotStoreExactly) {
  // 70 digits: Boost.JSON reads them as 2.9999999999999998e69 and its own "3E69" back as
  // 3.0000000000000002e69 — stored, the event would hold a number nobody sent.
  std::string digits = "2" + std::string(69, '9');
  capnp::MallocMessageBuilder m;
  auto errors = decode<CarcassonneScoring>(
      json::parse(R"({"event":{"feature":"road","players":[{"tiles":)" + digits + "}]}}"),
      m.initRoot<CarcassonneScoring>());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].path, "event.players[0].tiles");
  EXPECT_EQ(errors[0].field, "tiles");
  EXPECT_EQ(english(errors[0].message), "is a number with more digits than can be stored exactly");
  EXPECT_FALSE(m.getRoot<CarcassonneScoring>().asReader().hasEvent());

  // Beyond a double's range: read as infinity, which Boost.JSON would write as `Infinity`.
  capnp::MallocMessageBuilder huge;
  errors = decode<CarcassonneScoring>(
      json::parse(R"({"event":{"feature":"road","tiles":[1,-4e99999]}})"),
      huge.initRoot<CarcassonneScoring>());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].path, "event.tiles[1]");
  EXPECT_EQ(english(errors[0].message), "is a number too large to be stored");
  EXPECT_FALSE(huge.getRoot<CarcassonneScoring>().asReader().hasEvent());

  // A number with a fraction that reads back as itself is kept.
  capnp::MallocMessageBuilder fine;
  auto body = json::parse(R"({"event":{"feature":"road","weight":0.1,"big":1e300}})");
  ASSERT_TRUE(decode<CarcassonneScoring>(body, fine.initRoot<CarcassonneScoring>()).empty());
  EXPECT_EQ(json::value(encode_struct(fine.getRoot<CarcassonneScoring>().asReader())), body);
}

TEST(JsonCodec, TheBodyMustBeAnObject) {
  capnp::MallocMessageBuilder m;
  auto errors = decode<ClaimedWin>(json::parse("[1,2]"), m.initRoot<ClaimedWin>());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].path, "");
  EXPECT_EQ(english(errors[0].message), "must be an object, not an array");
}

TEST(JsonCodec, TextMayNotHoldNul) {
  capnp::MallocMessageBuilder m;
  auto errors =
      decode<ClaimedWin>(json::parse(R"({"player":"a\u0000b"})"), m.initRoot<ClaimedWin>());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].field, "player");
}

TEST(JsonCodec, AUnionNeedsExactlyOneMember) {
  capnp::MallocMessageBuilder m;
  auto payload = m.initRoot<Event>().getPayload();
  auto none = decode(json::parse("{}"), capnp::toDynamic(payload));
  ASSERT_EQ(none.size(), 1u);
  EXPECT_EQ(
      english(none[0].message).rfind("needs exactly one of: tournament_created, judge_added", 0),
      0u);
  capnp::MallocMessageBuilder m2;
  auto payload2 = m2.initRoot<Event>().getPayload();
  auto ok = decode(json::parse(R"({"claimed_win":{"player":"p3"}})"), capnp::toDynamic(payload2));
  EXPECT_TRUE(ok.empty());
  EXPECT_EQ(std::string(payload2.getClaimedWin().getPlayer().cStr()), "p3");
}

TEST(JsonCodec, EncodesAnEnvelopeWithHexDataAndTheActiveUnionMember) {
  capnp::MallocMessageBuilder m;
  auto e = m.initRoot<Event>();
  e.setSeq(7);
  e.setStream("t/a");
  kj::byte hash[2] = {0xab, 0x01};
  e.setPrevHash(capnp::Data::Reader(hash, 2));
  auto pick = e.getPayload().initHousePick();
  pick.setPlayer("p2");
  pick.setHouse(House::TYRELL);
  auto out = encode_struct(e.asReader());
  EXPECT_EQ(out.at("seq"), json::value(7u));
  EXPECT_EQ(out.at("prev_hash"), json::value("ab01"));
  EXPECT_EQ(out.at("payload"), json::parse(R"({"house_pick":{"player":"p2","house":"tyrell"}})"));
}

TEST(JsonCodec, RoundTripsAResult) {
  capnp::MallocMessageBuilder m;
  json::value p = catan_player("p");
  p.as_object()["vp"] = 10;
  p.as_object()["claimed_win"] = true;
  json::value body = {{"players", json::array{p}}};
  ASSERT_TRUE(decode_catan(body, m).empty());
  EXPECT_EQ(json::value(encode_struct(m.getRoot<CatanResult>().asReader())), body);
}

}  // namespace
}  // namespace tally::schema
