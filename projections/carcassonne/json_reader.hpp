// The scoring-event JSON of carcassonne.md §2–§6, read with the one strict JSON reader
// (text/json_object_reader.hpp). The event is stored as JSON text (its vocabulary belongs to the
// engine, not to the schema), so the engine checks its shape itself: every problem is collected as
// a RuleError naming the field's path, and every player name met is remembered so that a
// tournament can check that it is seated at the table.
//
// Thread safety: a reader and its Diagnostics belong to one call; no shared state.
#pragma once

#include "projections/game.hpp"
#include "text/json_object_reader.hpp"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tally::projections::carcassonne {

using projections::RuleError;
using projections::RuleErrors;
using text::json_kind;
using text::name_list;
using text::not_one_of;
using text::wrong_kind;

// The largest count the engine takes (tiles, pennants, followers, …): far above any real game
// (the biggest box has a few hundred tiles), and small enough that no product can overflow.
inline constexpr std::int64_t kMaxCount = 10000;

// A player name met in the event, with where it was met.
struct PlayerMention {
  std::string player;
  std::string field;
};

struct Diagnostics final : text::JsonProblemSink {
  RuleErrors errors;
  std::vector<PlayerMention> players;

  void error(std::string rule, std::string field, i18n::Message message, std::string player = "");
  void report(std::string rule, std::string path, i18n::Message message) override {
    error(std::move(rule), std::move(path), std::move(message));
  }
  bool ok() const { return errors.empty(); }
};

// The one reader, with the engine's counts (0 to kMaxCount unless told) and player names.
class ObjectReader : public text::JsonObjectReader {
 public:
  ObjectReader(const boost::json::object& object, std::string path, Diagnostics& diagnostics)
      : JsonObjectReader(object, std::move(path), diagnostics), diagnostics_(diagnostics) {}

  // An integer in [min, max]; absent → nullopt. A value outside the range is reported under
  // `rule` (the member's own name unless given), a non-integer under "schema".
  std::optional<std::int64_t> count(std::string_view key, std::int64_t min = 0,
                                    std::int64_t max = kMaxCount, std::string_view rule = {}) {
    return integer(key, min, max, rule);
  }
  std::int64_t count_or(std::string_view key, std::int64_t fallback, std::int64_t min = 0,
                        std::int64_t max = kMaxCount, std::string_view rule = {}) {
    return count(key, min, max, rule).value_or(fallback);
  }
  // A required integer: absent is reported under "schema".
  std::optional<std::int64_t> required_count(std::string_view key, std::int64_t min = 0,
                                             std::int64_t max = kMaxCount,
                                             std::string_view rule = {}) {
    return required_integer(key, min, max, rule);
  }
  bool flag(std::string_view key) { return boolean(key).value_or(false); }
  // A player name (a non-empty string), remembered in the diagnostics.
  std::optional<std::string> player(std::string_view key);
  std::optional<std::string> required_player(std::string_view key);

  // Reports every member not asked for as an unknown name of the vocabulary, `what`: "building"
  // or "tile_kind" (the catalog says it in each language). Returns false when there was one.
  bool finish_vocabulary(std::string_view unknown_rule, std::string_view what);

  Diagnostics& diagnostics() { return diagnostics_; }

 private:
  Diagnostics& diagnostics_;
};

// Free-standing checks on values met inside arrays and maps.
std::optional<std::int64_t> read_count(const boost::json::value& v, const std::string& path,
                                       std::string_view rule, Diagnostics& d, std::int64_t min = 0,
                                       std::int64_t max = kMaxCount);
std::optional<std::string> read_player(const boost::json::value& v, const std::string& path,
                                       Diagnostics& d);

}  // namespace tally::projections::carcassonne
