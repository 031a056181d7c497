// The one strict reader of JSON objects: every member asked for is marked known, so that the
// members nobody asked for can be reported; a missing required member, a value of the wrong type
// or out of range is reported with the member's path, and reading goes on so that one answer
// lists every problem. The messages are the catalog's `json.*` keys, the same for a request's
// body (daemon), a payload decoded through the schema (schema/json_codec) and a game's own event
// JSON (projections).
//
// Thread safety: a reader and its sink belong to one call; no shared state.
#pragma once

#include "i18n/message.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tally::text {

// Where a reader's problems go: each caller keeps them in its own form (a rule error, an API
// error entry).
class JsonProblemSink {
 public:
  virtual void report(std::string rule, std::string path, i18n::Message message) = 0;

 protected:
  ~JsonProblemSink() = default;
};

// What a JSON value is, for messages: the term "json.kind.string" ("a string"), ….
i18n::Term json_kind(const boost::json::value& v);
// "must be an object, not a string": `expected_key` ("json.expected.object") says what was
// expected, the value what came.
i18n::Message wrong_kind(std::string expected_key, const boost::json::value& actual);
// "must be one of road, city, not "farm"" (or "…, not an integer"): `actual` is not one of
// `choices`.
i18n::Message not_one_of(std::string choices, const boost::json::value& actual);
// Names for messages: "road, city, monastery".
std::string name_list(std::span<const std::string_view> names);

// An integer in [min, max] met anywhere (a member, an array's element, a map's value): a
// non-integer is reported under `shape_rule`, a value out of the range under `range_rule`.
struct IntegerCheck {
  std::int64_t min;
  std::int64_t max;
  std::string_view range_rule;
  std::string_view shape_rule = "schema";
};
std::optional<std::int64_t> read_integer(const boost::json::value& v, const std::string& path,
                                         const IntegerCheck& check, JsonProblemSink& sink);

class JsonObjectReader {
 public:
  // `path` is the object's own ("" for a whole body); `shape_rule` names the rule of the
  // structural problems: "schema" for stored events, "request" for a request's body.
  JsonObjectReader(const boost::json::object& object, std::string path, JsonProblemSink& sink,
                   std::string shape_rule = "schema");

  // Marks a member known without reading it (a member another reader takes).
  void expect(std::string_view key) { known_.emplace(key); }
  bool has(std::string_view key);
  // Reports a missing `key` as required; true when it is there.
  bool require(std::string_view key);
  // The raw value (marked known), or null when absent (a JSON null is absent too).
  const boost::json::value* value(std::string_view key);

  // An integer in [min, max]; out of the range is reported under `rule` (the key unless given).
  std::optional<std::int64_t> integer(std::string_view key, std::int64_t min, std::int64_t max,
                                      std::string_view rule = {});
  std::optional<std::int64_t> required_integer(std::string_view key, std::int64_t min,
                                               std::int64_t max, std::string_view rule = {});
  // Any integer from 0 up, as a request's counts and versions are.
  std::optional<std::uint64_t> unsigned_integer(std::string_view key);
  std::optional<bool> boolean(std::string_view key);
  std::optional<bool> required_boolean(std::string_view key);
  std::optional<std::string> string(std::string_view key);
  // One of `names`; another string is reported under `rule`.
  std::optional<std::string> choice(std::string_view key, std::span<const std::string_view> names,
                                    std::string_view rule);
  std::optional<std::string> required_choice(std::string_view key,
                                             std::span<const std::string_view> names,
                                             std::string_view rule);
  const boost::json::object* object(std::string_view key);
  const boost::json::array* array(std::string_view key);

  // The members nobody asked for, in the object's order.
  std::vector<std::string_view> unknown_members() const;
  // Reports each of them under `rule` ("is not a field of this object"); false when there was one.
  bool finish(std::string_view rule);

  // A problem with `key`, under `rule`.
  void fail(std::string_view rule, std::string_view key, i18n::Message message);
  std::string path_of(std::string_view key) const;
  const std::string& path() const { return path_; }
  const std::string& shape_rule() const { return shape_rule_; }
  JsonProblemSink& sink() { return sink_; }

 private:
  const boost::json::value* lookup(std::string_view key);

  const boost::json::object& object_;
  std::string path_;
  JsonProblemSink& sink_;
  std::string shape_rule_;
  std::set<std::string, std::less<>> known_;
};

}  // namespace tally::text
