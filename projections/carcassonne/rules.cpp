#include "projections/carcassonne/rules.hpp"

#include <stdexcept>

namespace tally::projections::carcassonne {

namespace json = boost::json;

namespace {

json::value rational_json(const Rational& r) {
  if (r.is_integer()) return json::value(r.num());
  return json::value(r.str());
}

// A point value: an integer or an exact fraction "1/2".
std::optional<Rational> read_points(const json::value& v) {
  if (v.is_int64()) return Rational(v.get_int64());
  if (v.is_uint64() && v.get_uint64() < (1u << 30))
    return Rational(static_cast<std::int64_t>(v.get_uint64()));
  if (v.is_string()) {
    try {
      return Rational::parse(std::string(v.get_string()));
    } catch (const std::invalid_argument&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<Rational> TournamentRules::place_points(std::size_t size) const {
  std::vector<Rational> out(size, Rational(0));
  if (by_wins()) {
    if (size > 0) out[0] = 1;  // a win; a draw splits it (½ each)
    return out;
  }
  for (std::size_t i = 0; i < size && i < round_points.size(); ++i) out[i] = round_points[i];
  return out;
}

json::object default_rules() {
  return json::object{{"edition", "C3"},
                      {"buildings_variant", false},
                      {"spiel_doch_variant", false},
                      {"table_size", 2},
                      {"round_points", json::array{5, 3, 2, 1, "1/2", 0}}};
}

projections::Outcome<json::object> normalize_rules(const json::object& overrides) {
  using Result = projections::Outcome<json::object>;
  json::object rules = default_rules();
  projections::RuleErrors errors;
  auto bad = [&](std::string key, i18n::Message message) {
    errors.push_back({"rules", "", std::move(key), std::move(message)});
  };
  for (const auto& member : overrides) {
    std::string key(member.key());
    const json::value& v = member.value();
    if (key == "edition") {
      if (!v.is_string() || (v.get_string() != "C2" && v.get_string() != "C3")) {
        bad(key, "carcassonne.rules.edition");
        continue;
      }
    } else if (key == "buildings_variant" || key == "spiel_doch_variant") {
      if (!v.is_bool()) {
        bad(key, i18n::Message("carcassonne.rules.boolean", {{"rule", key}}));
        continue;
      }
    } else if (key == "table_size") {
      if (!v.is_int64() || v.get_int64() < 2 || v.get_int64() > 6) {
        bad(key, "carcassonne.rules.table_size");
        continue;
      }
    } else if (key == "round_points") {
      if (!v.is_array() || v.get_array().empty() || v.get_array().size() > 6) {
        bad(key, "carcassonne.rules.round_points_count");
        continue;
      }
      json::array normalized;
      bool ok = true;
      std::optional<Rational> previous;
      for (const auto& p : v.get_array()) {
        auto points = read_points(p);
        if (!points || *points < Rational(0) || (previous && *previous < *points)) {
          ok = false;
          break;
        }
        previous = points;
        normalized.push_back(rational_json(*points));
      }
      if (!ok) {
        bad(key, "carcassonne.rules.round_points_values");
        continue;
      }
      rules[key] = std::move(normalized);
      continue;
    } else {
      bad(key, i18n::Message("carcassonne.rules.unknown", {{"rule", key}}));
      continue;
    }
    rules[key] = v;
  }
  if (!errors.empty()) return Result::refused(std::move(errors));
  return Result::ok(std::move(rules));
}

TournamentRules read_rules(const json::object& rules) {
  // Read on every table answer and standings: the defaults are built once, and nothing is merged.
  static const json::object defaults = default_rules();
  auto rule = [&](std::string_view key) -> const json::value& {
    if (const json::value* v = rules.if_contains(key)) return *v;
    return defaults.at(key);
  };
  TournamentRules out;
  if (const auto* e = rule("edition").if_string()) {
    out.engine.edition = *e == "C2" ? Edition::c2 : Edition::c3;
  }
  if (const auto* b = rule("buildings_variant").if_bool()) out.engine.buildings_variant = *b;
  if (const auto* b = rule("spiel_doch_variant").if_bool()) out.engine.spiel_doch_variant = *b;
  if (const auto* n = rule("table_size").if_int64()) out.table_size = static_cast<int>(*n);
  if (const auto* list = rule("round_points").if_array()) {
    for (const auto& p : *list) {
      if (auto points = read_points(p)) out.round_points.push_back(*points);
    }
  }
  return out;
}

}  // namespace tally::projections::carcassonne
