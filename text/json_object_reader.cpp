#include "text/json_object_reader.hpp"

#include <algorithm>

namespace tally::text {

namespace json = boost::json;

i18n::Term json_kind(const json::value& v) {
  switch (v.kind()) {
    case json::kind::null:
      return {"json.kind.null"};
    case json::kind::bool_:
      return {"json.kind.boolean"};
    case json::kind::int64:
    case json::kind::uint64:
      return {"json.kind.integer"};
    case json::kind::double_:
      return {"json.kind.fraction"};
    case json::kind::string:
      return {"json.kind.string"};
    case json::kind::array:
      return {"json.kind.array"};
    case json::kind::object:
      return {"json.kind.object"};
  }
  return {"json.kind.value"};
}

i18n::Message wrong_kind(std::string expected_key, const json::value& actual) {
  return i18n::Message(std::move(expected_key), {{"actual", json_kind(actual)}});
}

i18n::Message not_one_of(std::string choices, const json::value& actual) {
  if (!actual.is_string()) {
    return i18n::Message("json.expected.choice",
                         {{"choices", std::move(choices)}, {"actual", json_kind(actual)}});
  }
  return i18n::Message("json.expected.choice_value", {{"choices", std::move(choices)},
                                                      {"value", std::string(actual.get_string())}});
}

std::string name_list(std::span<const std::string_view> names) {
  std::string out;
  for (auto n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

namespace {

// An integer as a signed count; one above `max` stands for any larger unsigned value.
std::optional<std::int64_t> as_bounded_integer(const json::value& v, std::int64_t max) {
  if (v.is_int64()) return v.get_int64();
  if (v.is_uint64()) {
    return v.get_uint64() > static_cast<std::uint64_t>(max)
               ? max + 1
               : static_cast<std::int64_t>(v.get_uint64());
  }
  return std::nullopt;
}

i18n::Message below(std::int64_t min, std::int64_t value) {
  return min == 0 ? i18n::Message("json.range.negative", {{"value", value}})
                  : i18n::Message("json.range.below_min", {{"min", min}, {"value", value}});
}

}  // namespace

std::optional<std::int64_t> read_integer(const json::value& v, const std::string& path,
                                         const IntegerCheck& check, JsonProblemSink& sink) {
  std::optional<std::int64_t> n = as_bounded_integer(v, check.max);
  if (!n) {
    sink.report(std::string(check.shape_rule), path, wrong_kind("json.expected.integer", v));
    return std::nullopt;
  }
  if (*n < check.min) {
    sink.report(std::string(check.range_rule), path, below(check.min, *n));
    return std::nullopt;
  }
  if (*n > check.max) {
    sink.report(std::string(check.range_rule), path,
                i18n::Message("json.range.above_max", {{"max", check.max}}));
    return std::nullopt;
  }
  return n;
}

JsonObjectReader::JsonObjectReader(const json::object& object, std::string path,
                                   JsonProblemSink& sink, std::string shape_rule)
    : object_(object), path_(std::move(path)), sink_(sink), shape_rule_(std::move(shape_rule)) {}

std::string JsonObjectReader::path_of(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

void JsonObjectReader::fail(std::string_view rule, std::string_view key, i18n::Message message) {
  sink_.report(std::string(rule), path_of(key), std::move(message));
}

const json::value* JsonObjectReader::lookup(std::string_view key) {
  known_.emplace(key);
  const json::value* v = object_.if_contains(key);
  return (v == nullptr || v->is_null()) ? nullptr : v;
}

bool JsonObjectReader::has(std::string_view key) { return lookup(key) != nullptr; }

bool JsonObjectReader::require(std::string_view key) {
  if (has(key)) return true;
  fail(shape_rule_, key, i18n::Message("json.required"));
  return false;
}

const json::value* JsonObjectReader::value(std::string_view key) { return lookup(key); }

std::optional<std::int64_t> JsonObjectReader::integer(std::string_view key, std::int64_t min,
                                                      std::int64_t max, std::string_view rule) {
  const json::value* v = lookup(key);
  if (v == nullptr) return std::nullopt;
  return read_integer(*v, path_of(key), {min, max, rule.empty() ? key : rule, shape_rule_}, sink_);
}

std::optional<std::int64_t> JsonObjectReader::required_integer(std::string_view key,
                                                               std::int64_t min, std::int64_t max,
                                                               std::string_view rule) {
  if (!require(key)) return std::nullopt;
  return integer(key, min, max, rule);
}

std::optional<std::uint64_t> JsonObjectReader::unsigned_integer(std::string_view key) {
  const json::value* v = lookup(key);
  if (v == nullptr) return std::nullopt;
  if (v->is_uint64()) return v->get_uint64();
  if (v->is_int64() && v->get_int64() >= 0) return static_cast<std::uint64_t>(v->get_int64());
  fail(shape_rule_, key, i18n::Message("json.expected.unsigned"));
  return std::nullopt;
}

std::optional<bool> JsonObjectReader::boolean(std::string_view key) {
  const json::value* v = lookup(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_bool()) {
    fail(shape_rule_, key, wrong_kind("json.expected.boolean", *v));
    return std::nullopt;
  }
  return v->get_bool();
}

std::optional<bool> JsonObjectReader::required_boolean(std::string_view key) {
  if (!require(key)) return std::nullopt;
  return boolean(key);
}

std::optional<std::string> JsonObjectReader::string(std::string_view key) {
  const json::value* v = lookup(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_string()) {
    fail(shape_rule_, key, wrong_kind("json.expected.string", *v));
    return std::nullopt;
  }
  return std::string(v->get_string());
}

std::optional<std::string> JsonObjectReader::choice(std::string_view key,
                                                    std::span<const std::string_view> names,
                                                    std::string_view rule) {
  const json::value* v = lookup(key);
  if (v == nullptr) return std::nullopt;
  if (!v->is_string()) {
    fail(shape_rule_, key, not_one_of(name_list(names), *v));
    return std::nullopt;
  }
  std::string_view s = v->get_string();
  if (std::find(names.begin(), names.end(), s) == names.end()) {
    fail(rule, key, not_one_of(name_list(names), *v));
    return std::nullopt;
  }
  return std::string(s);
}

std::optional<std::string> JsonObjectReader::required_choice(
    std::string_view key, std::span<const std::string_view> names, std::string_view rule) {
  if (!require(key)) return std::nullopt;
  return choice(key, names, rule);
}

const json::object* JsonObjectReader::object(std::string_view key) {
  const json::value* v = lookup(key);
  if (v == nullptr) return nullptr;
  if (!v->is_object()) {
    fail(shape_rule_, key, wrong_kind("json.expected.object", *v));
    return nullptr;
  }
  return &v->get_object();
}

const json::array* JsonObjectReader::array(std::string_view key) {
  const json::value* v = lookup(key);
  if (v == nullptr) return nullptr;
  if (!v->is_array()) {
    fail(shape_rule_, key, wrong_kind("json.expected.array", *v));
    return nullptr;
  }
  return &v->get_array();
}

std::vector<std::string_view> JsonObjectReader::unknown_members() const {
  std::vector<std::string_view> out;
  for (const auto& member : object_) {
    if (known_.find(std::string_view(member.key())) == known_.end()) out.push_back(member.key());
  }
  return out;
}

bool JsonObjectReader::finish(std::string_view rule) {
  auto unknown = unknown_members();
  for (std::string_view key : unknown) fail(rule, key, i18n::Message("json.not_a_field"));
  return unknown.empty();
}

}  // namespace tally::text
