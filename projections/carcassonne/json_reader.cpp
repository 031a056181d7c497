#include "projections/carcassonne/json_reader.hpp"

#include <algorithm>

namespace tally::projections::carcassonne {

namespace json = boost::json;

void Diagnostics::error(std::string rule, std::string field, i18n::Message message,
                        std::string player) {
  errors.push_back(
      RuleError{std::move(rule), std::move(player), std::move(field), std::move(message)});
}

i18n::Term json_kind(const json::value& v) {
  switch (v.kind()) {
    case json::kind::null:
      return {"carcassonne.json.null"};
    case json::kind::bool_:
      return {"carcassonne.json.boolean"};
    case json::kind::int64:
    case json::kind::uint64:
      return {"carcassonne.json.integer"};
    case json::kind::double_:
      return {"carcassonne.json.decimal"};
    case json::kind::string:
      return {"carcassonne.json.string"};
    case json::kind::array:
      return {"carcassonne.json.array"};
    case json::kind::object:
      return {"carcassonne.json.object"};
  }
  return {"carcassonne.json.value"};
}

std::string name_list(std::span<const std::string_view> names) {
  std::string out;
  for (auto n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
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
    d.error("schema", path,
            i18n::Message("carcassonne.json.not_integer", {{"kind", json_kind(v)}}));
    return std::nullopt;
  }
  if (*n < min) {
    d.error(std::string(rule), path,
            min == 0 ? i18n::Message("carcassonne.json.negative", {{"value", *n}})
                     : i18n::Message("carcassonne.json.below_min", {{"min", min}, {"value", *n}}));
    return std::nullopt;
  }
  if (*n > max) {
    d.error(std::string(rule), path, i18n::Message("carcassonne.json.above_max", {{"max", max}}));
    return std::nullopt;
  }
  return n;
}

std::optional<std::string> read_player(const json::value& v, const std::string& path,
                                       Diagnostics& d) {
  if (!v.is_string() || v.get_string().empty()) {
    d.error("schema", path, "carcassonne.json.not_player");
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
    diagnostics_.error("schema", path_of(key), "carcassonne.json.required");
    return std::nullopt;
  }
  return count(key, min, max, rule);
}

std::optional<bool> ObjectReader::boolean(std::string_view key) {
  const json::value* v = lookup(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_bool()) {
    diagnostics_.error("schema", path_of(key),
                       i18n::Message("carcassonne.json.not_boolean", {{"kind", json_kind(*v)}}));
    return std::nullopt;
  }
  return v->get_bool();
}

std::optional<bool> ObjectReader::required_boolean(std::string_view key) {
  if (!has(key)) {
    diagnostics_.error("schema", path_of(key), "carcassonne.json.required");
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
    diagnostics_.error("schema", path_of(key), "carcassonne.json.required");
    return std::nullopt;
  }
  return player(key);
}

std::optional<std::string> ObjectReader::choice(std::string_view key,
                                                std::span<const std::string_view> names,
                                                std::string_view rule) {
  const json::value* v = lookup(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_string()) {
    diagnostics_.error("schema", path_of(key),
                       i18n::Message("carcassonne.json.one_of", {{"names", name_list(names)}}));
    return std::nullopt;
  }
  std::string_view s = v->get_string();
  if (std::find(names.begin(), names.end(), s) == names.end()) {
    diagnostics_.error(std::string(rule), path_of(key),
                       i18n::Message("carcassonne.json.unknown_value",
                                     {{"value", std::string(s)}, {"names", name_list(names)}}));
    return std::nullopt;
  }
  return std::string(s);
}

std::optional<std::string> ObjectReader::required_choice(std::string_view key,
                                                         std::span<const std::string_view> names,
                                                         std::string_view rule) {
  if (!has(key)) {
    diagnostics_.error("schema", path_of(key), "carcassonne.json.required");
    return std::nullopt;
  }
  return choice(key, names, rule);
}

const json::object* ObjectReader::object(std::string_view key) {
  const json::value* v = lookup(key);
  if (v == nullptr) return nullptr;
  if (!v->is_object()) {
    diagnostics_.error("schema", path_of(key),
                       i18n::Message("carcassonne.json.not_object", {{"kind", json_kind(*v)}}));
    return nullptr;
  }
  return &v->get_object();
}

const json::array* ObjectReader::array(std::string_view key) {
  const json::value* v = lookup(key);
  if (v == nullptr) return nullptr;
  if (!v->is_array()) {
    diagnostics_.error("schema", path_of(key),
                       i18n::Message("carcassonne.json.not_array", {{"kind", json_kind(*v)}}));
    return nullptr;
  }
  return &v->get_array();
}

bool ObjectReader::finish(std::string_view unknown_rule, std::string_view what) {
  bool clean = true;
  for (const auto& member : object_) {
    if (known_.find(std::string_view(member.key())) != known_.end()) continue;
    diagnostics_.error(
        std::string(unknown_rule), path_of(member.key()),
        i18n::Message("carcassonne.json.unknown_member",
                      {{"what", std::string(what)}, {"name", std::string(member.key())}}));
    clean = false;
  }
  return clean;
}

}  // namespace tally::projections::carcassonne
