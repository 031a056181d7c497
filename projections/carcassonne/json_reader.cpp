#include "projections/carcassonne/json_reader.hpp"

#include <algorithm>

namespace tally::projections::carcassonne {

namespace json = boost::json;

void Diagnostics::error(std::string rule, std::string field, std::string message,
                        std::string player) {
  errors.push_back(
      RuleError{std::move(rule), std::move(player), std::move(field), std::move(message)});
}

std::string_view json_kind(const json::value& v) {
  switch (v.kind()) {
    case json::kind::null:
      return "null";
    case json::kind::bool_:
      return "a boolean";
    case json::kind::int64:
    case json::kind::uint64:
      return "an integer";
    case json::kind::double_:
      return "a decimal number";
    case json::kind::string:
      return "a string";
    case json::kind::array:
      return "an array";
    case json::kind::object:
      return "an object";
  }
  return "a value";
}

std::optional<std::int64_t> read_count(const json::value& v, const std::string& path,
                                       std::string_view rule, Diagnostics& d, std::int64_t min,
                                       std::int64_t max) {
  std::optional<std::int64_t> n;
  if (v.is_int64()) n = v.get_int64();
  if (v.is_uint64()) {
    n = v.get_uint64() > static_cast<std::uint64_t>(max)
            ? max + 1
            : static_cast<std::int64_t>(v.get_uint64());
  }
  if (!n) {
    d.error("schema", path, "must be an integer, not " + std::string(json_kind(v)));
    return std::nullopt;
  }
  if (*n < min) {
    d.error(std::string(rule), path,
            min == 0
                ? "must not be negative (got " + std::to_string(*n) + ")"
                : "must be at least " + std::to_string(min) + " (got " + std::to_string(*n) + ")");
    return std::nullopt;
  }
  if (*n > max) {
    d.error(std::string(rule), path, "must be at most " + std::to_string(max));
    return std::nullopt;
  }
  return n;
}

std::optional<std::string> read_player(const json::value& v, const std::string& path,
                                       Diagnostics& d) {
  if (!v.is_string() || v.get_string().empty()) {
    d.error("schema", path, "must be a player name (a non-empty string)");
    return std::nullopt;
  }
  std::string name(v.get_string());
  d.players.push_back({name, path});
  return name;
}

ObjectReader::ObjectReader(const json::object& object, std::string path, Diagnostics& diagnostics)
    : object_(object), path_(std::move(path)), diagnostics_(diagnostics) {}

std::string ObjectReader::path_of(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

const json::value* ObjectReader::lookup(std::string_view key) {
  known_.emplace(key);
  const json::value* v = object_.if_contains(key);
  return (v == nullptr || v->is_null()) ? nullptr : v;
}

bool ObjectReader::has(std::string_view key) { return lookup(key) != nullptr; }

const json::value* ObjectReader::value(std::string_view key) { return lookup(key); }

std::optional<std::int64_t> ObjectReader::count(std::string_view key, std::int64_t min,
                                                std::int64_t max, std::string_view rule) {
  const json::value* v = lookup(key);
  if (v == nullptr) return std::nullopt;
  return read_count(*v, path_of(key), rule.empty() ? key : rule, diagnostics_, min, max);
}

std::int64_t ObjectReader::count_or(std::string_view key, std::int64_t fallback, std::int64_t min,
                                    std::int64_t max, std::string_view rule) {
  return count(key, min, max, rule).value_or(fallback);
}

std::optional<std::int64_t> ObjectReader::required_count(std::string_view key, std::int64_t min,
                                                         std::int64_t max, std::string_view rule) {
  if (!has(key)) {
    diagnostics_.error("schema", path_of(key), "is required");
    return std::nullopt;
  }
  return count(key, min, max, rule);
}

std::optional<bool> ObjectReader::boolean(std::string_view key) {
  const json::value* v = lookup(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_bool()) {
    diagnostics_.error("schema", path_of(key),
                       "must be true or false, not " + std::string(json_kind(*v)));
    return std::nullopt;
  }
  return v->get_bool();
}

std::optional<bool> ObjectReader::required_boolean(std::string_view key) {
  if (!has(key)) {
    diagnostics_.error("schema", path_of(key), "is required");
    return std::nullopt;
  }
  return boolean(key);
}

std::optional<std::string> ObjectReader::player(std::string_view key) {
  const json::value* v = lookup(key);
  if (v == nullptr) return std::nullopt;
  return read_player(*v, path_of(key), diagnostics_);
}

std::optional<std::string> ObjectReader::required_player(std::string_view key) {
  if (!has(key)) {
    diagnostics_.error("schema", path_of(key), "is required");
    return std::nullopt;
  }
  return player(key);
}

std::optional<std::string> ObjectReader::choice(std::string_view key,
                                                std::span<const std::string_view> names,
                                                std::string_view rule) {
  const json::value* v = lookup(key);
  if (v == nullptr) return std::nullopt;
  std::string list;
  for (auto n : names) list += (list.empty() ? "" : ", ") + std::string(n);
  if (!v->is_string()) {
    diagnostics_.error("schema", path_of(key), "must be one of " + list);
    return std::nullopt;
  }
  std::string_view s = v->get_string();
  if (std::find(names.begin(), names.end(), s) == names.end()) {
    diagnostics_.error(std::string(rule), path_of(key),
                       "unknown value \"" + std::string(s) + "\"; expected one of " + list);
    return std::nullopt;
  }
  return std::string(s);
}

std::optional<std::string> ObjectReader::required_choice(std::string_view key,
                                                         std::span<const std::string_view> names,
                                                         std::string_view rule) {
  if (!has(key)) {
    diagnostics_.error("schema", path_of(key), "is required");
    return std::nullopt;
  }
  return choice(key, names, rule);
}

const json::object* ObjectReader::object(std::string_view key) {
  const json::value* v = lookup(key);
  if (v == nullptr) return nullptr;
  if (!v->is_object()) {
    diagnostics_.error("schema", path_of(key),
                       "must be an object, not " + std::string(json_kind(*v)));
    return nullptr;
  }
  return &v->get_object();
}

const json::array* ObjectReader::array(std::string_view key) {
  const json::value* v = lookup(key);
  if (v == nullptr) return nullptr;
  if (!v->is_array()) {
    diagnostics_.error("schema", path_of(key),
                       "must be an array, not " + std::string(json_kind(*v)));
    return nullptr;
  }
  return &v->get_array();
}

bool ObjectReader::finish(std::string_view unknown_rule, std::string_view what) {
  bool clean = true;
  for (const auto& member : object_) {
    if (known_.find(std::string_view(member.key())) != known_.end()) continue;
    diagnostics_.error(std::string(unknown_rule), path_of(member.key()),
                       "unknown " + std::string(what) + " \"" + std::string(member.key()) + "\"");
    clean = false;
  }
  return clean;
}

}  // namespace tally::projections::carcassonne
