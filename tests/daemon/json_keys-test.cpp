// One pass over a body: the value json::parse builds, and the first repeated member name.
#include "daemon/http/json_keys.hpp"

#include <gtest/gtest.h>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace tally::daemon {
namespace {

namespace json = boost::json;

// The same value as json::parse, or the same error.
void expect_as_boost_parses(std::string_view text, std::size_t max_depth = 32) {
  json::parse_options options;
  options.max_depth = max_depth;
  json::error_code boost_error;
  json::value boost_value = json::parse(text, boost_error, {}, options);
  ParsedJson ours = parse_json_checking_keys(text, max_depth);
  EXPECT_EQ(ours.error, boost_error) << text;
  if (boost_error) {
    EXPECT_TRUE(ours.value.is_null()) << text;
  } else {
    EXPECT_EQ(json::serialize(ours.value), json::serialize(boost_value)) << text;
  }
}

TEST(ParseJsonCheckingKeys, BuildsWhatBoostBuilds) {
  expect_as_boost_parses(R"({"player":"p1","score":[1,-2,3.5,18446744073709551615],"x":null})");
  expect_as_boost_parses(R"({"nested":{"a":{"b":[{"c":true},{"c":false}]}},"e":"\u010Ce\n"})");
  expect_as_boost_parses("[]");
  expect_as_boost_parses("{}");
  expect_as_boost_parses("  {\"a\" : 1 }  ");
  // Errors: syntax, trailing data, a value cut short, too deep.
  expect_as_boost_parses(R"({"a":1,})");
  expect_as_boost_parses(R"({"a":1} {"b":2})");
  expect_as_boost_parses(R"({"a":[1,2)");
  expect_as_boost_parses(R"({"a":[[[[1]]]]})", 3);
  expect_as_boost_parses("");
}

TEST(ParseJsonCheckingKeys, NamesTheFirstRepeatedMember) {
  EXPECT_EQ(parse_json_checking_keys(R"({"name":"First","name":"Second"})", 32).duplicate, "name");
  // In an object inside an array (a result's player entries).
  EXPECT_EQ(
      parse_json_checking_keys(R"({"players":[{"player":"p3","player":"p4"}]})", 32).duplicate,
      "player");
  // A repeated member that held objects: the counts after it would shift, the outer one is
  // found first.
  EXPECT_EQ(parse_json_checking_keys(R"({"a":{"x":{"y":1}},"b":{},"a":2})", 32).duplicate, "a");
  // Deep, after objects that are fine.
  EXPECT_EQ(
      parse_json_checking_keys(R"({"a":{"x":1},"b":[{"c":{"d":1,"e":2,"d":3}}]})", 32).duplicate,
      "d");
  // The same name written two ways is the same name.
  EXPECT_EQ(parse_json_checking_keys(R"({"ab":1,"\u0061b":2})", 32).duplicate, "ab");
}

TEST(ParseJsonCheckingKeys, TheSameNameInDifferentObjectsIsFine) {
  auto parsed = parse_json_checking_keys(
      R"({"players":[{"player":"p1","vp":3},{"player":"p2","vp":4}],"player":"x"})", 32);
  EXPECT_FALSE(parsed.error);
  EXPECT_FALSE(parsed.duplicate);
  EXPECT_EQ(parsed.value.at("players").at(1).at("vp"), 4);
}

TEST(ParseJsonCheckingKeys, NoDuplicateIsLookedForInTextThatDoesNotParse) {
  auto parsed = parse_json_checking_keys(R"({"a":1,"a":2)", 32);
  EXPECT_TRUE(parsed.error);
  EXPECT_FALSE(parsed.duplicate);
}

}  // namespace
}  // namespace tally::daemon
