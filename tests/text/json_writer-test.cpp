// JsonWriter writes exactly the bytes Boost.JSON's serializer writes for the same value: the
// answers written as text must not differ from the ones built as objects (escapes, numbers,
// points, nesting).
#include "text/json_writer.hpp"

#include <gtest/gtest.h>
#include <boost/json.hpp>

#include <string>

namespace tally::text {
namespace {

namespace json = boost::json;

std::string written_string(std::string_view text) {
  std::string out;
  JsonWriter(out).string(text);
  return out;
}

TEST(JsonWriter, EveryByteIsEscapedAsBoostEscapesIt) {
  for (int c = 0; c < 256; ++c) {
    std::string text = "a";
    text += static_cast<char>(c);
    text += "b";
    EXPECT_EQ(written_string(text), json::serialize(json::string_view(text))) << "byte " << c;
  }
  for (std::string_view text : {"", "Dvořák", "Žofie \"Žofka\" Nováková", "tab\there\\", "Ďábel"}) {
    EXPECT_EQ(written_string(text), json::serialize(json::string_view(text))) << text;
  }
}

TEST(JsonWriter, ObjectsArraysAndScalarsAsBoostWritesThem) {
  std::string out;
  JsonWriter w(out);
  w.begin_object();
  w.key("table").number(std::uint64_t{7});
  w.key("players").begin_array().string("p1").string("p\"2").end_array();
  w.key("league").null();
  w.key("empty").begin_array().end_array();
  w.key("nested").begin_object().key("a").begin_array().begin_array().number(std::int64_t{-3});
  w.end_array().begin_object().end_object().end_array().end_object();
  w.key("flags").begin_array().boolean(true).boolean(false).end_array();
  w.key("big").number(std::uint64_t{18446744073709551615ull});
  w.key("small").number(std::int64_t{-9223372036854775807ll - 1});
  w.key("kept").value(json::parse(R"({"x":[1.5,"y",null,{"z":true}]})"));
  w.key("raw").raw(R"([1,2])");
  w.key("k\ney").string("v");
  w.end_object();

  json::object expected;
  expected["table"] = 7u;
  expected["players"] = json::array{"p1", "p\"2"};
  expected["league"] = nullptr;
  expected["empty"] = json::array{};
  expected["nested"] = json::object{{"a", json::array{json::array{-3}, json::object{}}}};
  expected["flags"] = json::array{true, false};
  expected["big"] = 18446744073709551615ull;
  expected["small"] = -9223372036854775807ll - 1;
  expected["kept"] = json::parse(R"({"x":[1.5,"y",null,{"z":true}]})");
  expected["raw"] = json::array{1, 2};
  expected["k\ney"] = "v";
  EXPECT_EQ(out, json::serialize(expected));
}

TEST(JsonWriter, AnyBoostValueAsBoostWritesIt) {
  for (std::string_view text :
       {R"("Dvo\u0159\u00e1k \"D\" \n\u0001")", "0", "-9223372036854775808", "18446744073709551615",
        "1.5", "-0.0", "1e300", "2.5E-7", "true", "false", "null", "[]", "{}",
        R"([[],{},[1,[2,[3]]],{"a":{"b":{}}}])",
        R"({"k\ney":"v","n":[1,-2,3.25,null,true],"o":{"":"","x":[{"y":[]}]}})"}) {
    json::value v = json::parse(text);
    std::string out;
    JsonWriter(out).value(v);
    EXPECT_EQ(out, json::serialize(v)) << text;
    // … and as a member and an element among others.
    std::string among;
    JsonWriter w(among);
    w.begin_array().number(std::int64_t{1}).begin_object().key("v").value(v).key("w").null();
    w.end_object().value(v).end_array();
    EXPECT_EQ(among, json::serialize(json::array{1, json::object{{"v", v}, {"w", nullptr}}, v}))
        << text;
  }
}

}  // namespace
}  // namespace tally::text
