// A strict reader for the scoring-event JSON of carcassonne.md §2–§6. The event is stored as JSON
// text (its vocabulary belongs to the engine, not to the schema), so the engine checks its shape
// itself: every problem is collected as a RuleError naming the field's path, and every player
// name met is remembered so that a tournament can check that it is seated at the table.
//
// Thread safety: a reader and its Diagnostics belong to one call; no shared state.
#pragma once

#include "projections/game.hpp"

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

namespace tally::projections::carcassonne {

using projections::RuleError;
using projections::RuleErrors;

// The largest count the engine takes (tiles, pennants, followers, …): far above any real game
// (the biggest box has a few hundred tiles), and small enough that no product can overflow.
inline constexpr std::int64_t kMaxCount = 10000;

// A player name met in the event, with where it was met.
struct PlayerMention {
  std::string player;
  std::string field;
};

struct Diagnostics {
  RuleErrors errors;
  std::vector<PlayerMention> players;

  void error(std::string rule, std::string field, i18n::Message message, std::string player = "");
  bool ok() const { return errors.empty(); }
};

// Reads the members of one JSON object. Every accessor marks its key as known; finish() reports
// the members nobody asked for, under `unknown_rule` ("schema", "modifier", "bonus", …).
class ObjectReader {
 public:
  ObjectReader(const boost::json::object& object, std::string path, Diagnostics& diagnostics);

  bool has(std::string_view key);
  // An integer in [min, max]; absent → nullopt. A value outside the range is reported under
  // `rule` (the member's own name unless given), a non-integer under "schema".
  std::optional<std::int64_t> count(std::string_view key, std::int64_t min = 0,
                                    std::int64_t max = kMaxCount, std::string_view rule = {});
  std::int64_t count_or(std::string_view key, std::int64_t fallback, std::int64_t min = 0,
                        std::int64_t max = kMaxCount, std::string_view rule = {});
  // A required integer: absent is reported under "schema".
  std::optional<std::int64_t> required_count(std::string_view key, std::int64_t min = 0,
                                             std::int64_t max = kMaxCount,
                                             std::string_view rule = {});
  std::optional<bool> boolean(std::string_view key);
  bool flag(std::string_view key) { return boolean(key).value_or(false); }
  std::optional<bool> required_boolean(std::string_view key);
  // A player name (a non-empty string), remembered in the diagnostics.
  std::optional<std::string> player(std::string_view key);
  std::optional<std::string> required_player(std::string_view key);
  // One of `names`; anything else is reported under `rule`.
  std::optional<std::string> choice(std::string_view key, std::span<const std::string_view> names,
                                    std::string_view rule);
  std::optional<std::string> required_choice(std::string_view key,
                                             std::span<const std::string_view> names,
                                             std::string_view rule);
  const boost::json::object* object(std::string_view key);
  const boost::json::array* array(std::string_view key);
  // The raw value (marked known), or null when absent.
  const boost::json::value* value(std::string_view key);

  // Reports every member not asked for, as an unknown `what`: "member", "field", "building" or
  // "tile_kind" (the catalog says it in each language). Returns false when there was one.
  bool finish(std::string_view unknown_rule, std::string_view what = "member");

  std::string path_of(std::string_view key) const;
  const std::string& path() const { return path_; }
  Diagnostics& diagnostics() { return diagnostics_; }

 private:
  const boost::json::value* lookup(std::string_view key);

  const boost::json::object& object_;
  std::string path_;
  Diagnostics& diagnostics_;
  std::set<std::string, std::less<>> known_;
};

// Free-standing checks on values met inside arrays and maps.
std::optional<std::int64_t> read_count(const boost::json::value& v, const std::string& path,
                                       std::string_view rule, Diagnostics& d, std::int64_t min = 0,
                                       std::int64_t max = kMaxCount);
std::optional<std::string> read_player(const boost::json::value& v, const std::string& path,
                                       Diagnostics& d);
// A JSON type for messages: the term "carcassonne.json.string" ("a string"), ….
i18n::Term json_kind(const boost::json::value& v);
// Names of the vocabulary, for messages: "road, city, monastery".
std::string name_list(std::span<const std::string_view> names);

}  // namespace tally::projections::carcassonne
