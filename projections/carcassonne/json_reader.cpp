#include "projections/carcassonne/json_reader.hpp"

namespace tally::projections::carcassonne {

namespace json = boost::json;

void Diagnostics::error(std::string rule, std::string field, i18n::Message message,
                        std::string player) {
  errors.push_back(
      RuleError{std::move(rule), std::move(player), std::move(field), std::move(message)});
}

std::optional<std::int64_t> read_count(const json::value& v, const std::string& path,
                                       std::string_view rule, Diagnostics& d, std::int64_t min,
                                       std::int64_t max) {
  return text::read_integer(v, path, {min, max, rule}, d);
}

std::optional<std::string> read_player(const json::value& v, const std::string& path,
                                       Diagnostics& d) {
  if (!v.is_string() || v.get_string().empty()) {
    d.error("schema", path, "json.expected.player_name");
    return std::nullopt;
  }
  std::string name(v.get_string());
  d.players.push_back({name, path});
  return name;
}

std::optional<std::string> ObjectReader::player(std::string_view key) {
  const json::value* v = value(key);
  if (v == nullptr) return std::nullopt;
  return read_player(*v, path_of(key), diagnostics_);
}

std::optional<std::string> ObjectReader::required_player(std::string_view key) {
  if (!require(key)) return std::nullopt;
  return player(key);
}

bool ObjectReader::finish_vocabulary(std::string_view unknown_rule, std::string_view what) {
  auto unknown = unknown_members();
  for (std::string_view name : unknown) {
    fail(unknown_rule, name,
         i18n::Message("carcassonne.unknown_name",
                       {{"what", std::string(what)}, {"name", std::string(name)}}));
  }
  return unknown.empty();
}

}  // namespace tally::projections::carcassonne
