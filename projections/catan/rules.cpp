#include "projections/catan/rules.hpp"

#include <string>

namespace tally::projections::catan {

namespace {

namespace json = boost::json;

// Round points are small; the bound keeps every sum of them far from any overflow.
constexpr std::int64_t kMaxPlacePoints = 1000;
constexpr std::int64_t kMaxRounds = 100;

std::optional<std::int64_t> integer_of(const json::value& v) {
  if (v.is_int64()) return v.as_int64();
  if (v.is_uint64() && v.as_uint64() <= static_cast<std::uint64_t>(INT64_MAX)) {
    return static_cast<std::int64_t>(v.as_uint64());
  }
  return std::nullopt;
}

// A points table: exactly `places` integers 0..kMaxPlacePoints, best place first, never
// increasing (a better place never gives fewer points).
std::optional<std::vector<std::int64_t>> points_table(const json::value& v, std::size_t places,
                                                      const std::string& key, RuleErrors& errors) {
  auto refuse = [&](i18n::Message message) {
    errors.push_back({"rules", "", key, std::move(message)});
    return std::nullopt;
  };
  const i18n::Message shape("catan.rules.points_shape", {{"key", key}, {"places", places}});
  if (!v.is_array() || v.as_array().size() != places) return refuse(shape);
  std::vector<std::int64_t> out;
  for (const auto& item : v.as_array()) {
    auto n = integer_of(item);
    if (!n) return refuse(shape);
    if (*n < 0 || *n > kMaxPlacePoints) {
      return refuse(i18n::Message("catan.rules.points_range",
                                  {{"key", key}, {"min", 0}, {"max", kMaxPlacePoints}}));
    }
    if (!out.empty() && *n > out.back()) {
      return refuse(i18n::Message("catan.rules.points_order", {{"key", key}}));
    }
    out.push_back(*n);
  }
  return out;
}

json::array to_array(const std::vector<std::int64_t>& points) {
  json::array out;
  for (auto p : points) out.emplace_back(p);
  return out;
}

}  // namespace

const std::vector<std::int64_t>* CatanRules::points_for(std::size_t players) const {
  if (players == 4) return &round_points_4;
  if (players == 3) return &round_points_3;
  return nullptr;
}

json::object CatanRules::to_json() const {
  json::object out;
  out["round_points_4"] = to_array(round_points_4);
  out["round_points_3"] = to_array(round_points_3);
  if (rounds) {
    out["rounds"] = *rounds;
  } else {
    out["rounds"] = nullptr;
  }
  return out;
}

Outcome<CatanRules> parse_rules(const json::object& overrides) {
  CatanRules rules;
  RuleErrors errors;
  for (const auto& [key_view, value] : overrides) {
    std::string key(key_view);
    if (key == "round_points_4") {
      if (auto t = points_table(value, 4, key, errors)) rules.round_points_4 = *t;
    } else if (key == "round_points_3") {
      if (auto t = points_table(value, 3, key, errors)) rules.round_points_3 = *t;
    } else if (key == "rounds") {
      if (value.is_null()) {
        rules.rounds.reset();
        continue;
      }
      auto n = integer_of(value);
      if (!n || *n < 1 || *n > kMaxRounds) {
        errors.push_back(
            {"rules", "", key,
             i18n::Message("catan.rules.rounds", {{"key", key}, {"min", 1}, {"max", kMaxRounds}})});
        continue;
      }
      rules.rounds = static_cast<std::uint32_t>(*n);
    } else {
      // The message names the rules by their keys, the same in every language.
      errors.push_back({"rules", "", key, i18n::Message("catan.rules.unknown", {{"key", key}})});
    }
  }
  if (!errors.empty()) return Outcome<CatanRules>::refused(std::move(errors));
  return Outcome<CatanRules>::ok(std::move(rules));
}

CatanRules rules_of(const Tournament& tournament) {
  auto parsed = parse_rules(tournament.rules);
  return parsed ? *parsed.value : CatanRules{};
}

}  // namespace tally::projections::catan
