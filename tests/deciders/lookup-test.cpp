// What every command's lookup refuses, quoting the path as the caller wrote it: a round or a
// table that is not a plain decimal number (or too large for one) is not found, never parsed
// leniently ("03x", "", "-1", "+1", 2^32).
#include "deciders/lookup.hpp"

#include "tests/deciders/support.hpp"

#include <gtest/gtest.h>

namespace tally::deciders {
namespace {

using tally::testing::TournamentBuilder;

TEST(Lookup, ParseDecimalTakesDigitsAndNothingElse) {
  EXPECT_EQ(parse_decimal("3"), std::optional<std::uint64_t>(3));
  EXPECT_EQ(parse_decimal("03"), std::optional<std::uint64_t>(3));
  for (const char* text : {"", "03x", "-1", "+1", " 1", "1 ", "0x1", "99999999999999999999"}) {
    EXPECT_EQ(parse_decimal(text), std::nullopt) << '"' << text << '"';
  }
}

TEST(Lookup, RoundsAndTablesAreNotFoundAsThePathNamesThem) {
  TournamentBuilder b("cup", "catan");
  for (const char* p : {"a", "b", "c", "d"}) b.player(p, p);
  b.seat({{"a", "b", "c", "d"}});
  auto t = b.tournament();
  for (const char* round : {"2", "x", "", "4294967297"}) {
    auto found = find_round(&t, {"cup", round});
    ASSERT_TRUE(std::holds_alternative<Refusal>(found)) << round;
    EXPECT_EQ(
        std::get<Refusal>(found),
        (Refusal{RefusalKind::not_found,
                 i18n::Message("api.round.not_found", {{"round", round}, {"tournament", "cup"}})}));
  }
  FoundTable found;
  for (const char* table : {"2", "1x", "4294967297"}) {
    EXPECT_EQ(find_table(&t, {"cup", "1", table}, found),
              (Refusal{RefusalKind::not_found,
                       i18n::Message("api.table.not_found", {{"table", table}, {"round", "1"}})}));
  }
  // Found before anything was entered: a blank table of that round.
  ASSERT_EQ(find_table(&t, {"cup", "1", "1"}, found), std::nullopt);
  EXPECT_EQ(found.seated->players, (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ(found.state->version, 0u);
  EXPECT_EQ(found.state->round, 1u);
  EXPECT_EQ(found.state->table, 1u);
}

}  // namespace
}  // namespace tally::deciders
