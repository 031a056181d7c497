#include "daemon/body.hpp"

namespace tally::daemon {

std::variant<json::object, Response> parse_object(const Request& request) {
  if (request.body().empty()) return json::object();
  boost::system::error_code ec;
  json::parse_options options;
  options.max_depth = 32;
  json::value value = json::parse(request.body(), ec, {}, options);
  if (ec) {
    return problem(request, http::status::bad_request,
                   "the body is not valid JSON: " + ec.message());
  }
  if (!value.is_object()) {
    return problem(request, http::status::bad_request, "the body must be a JSON object");
  }
  return std::move(value.as_object());
}

BodyFields::BodyFields(const json::object& body, std::initializer_list<std::string_view> allowed)
    : body_(body) {
  for (const auto& member : body) {
    bool known = false;
    for (auto a : allowed) known = known || a == member.key();
    if (!known) fail(member.key(), "is not a field of this request");
  }
}

void BodyFields::fail(std::string_view field, std::string_view message, std::string_view rule) {
  errors_.push_back(error_entry(rule, "", field, message));
}

std::optional<std::string> BodyFields::text(std::string_view key, bool required,
                                            std::size_t max_bytes) {
  auto it = body_.find(key);
  if (it == body_.end() || it->value().is_null()) {
    if (required) fail(key, "is required");
    return std::nullopt;
  }
  if (!it->value().is_string()) {
    fail(key, "must be a string");
    return std::nullopt;
  }
  std::string value(it->value().as_string());
  if (required && value.empty()) {
    fail(key, "must not be empty");
    return std::nullopt;
  }
  if (value.size() > max_bytes) {
    fail(key, "is longer than " + std::to_string(max_bytes) + " bytes");
    return std::nullopt;
  }
  if (value.find('\0') != std::string::npos) {
    fail(key, "must not contain NUL characters");
    return std::nullopt;
  }
  return value;
}

std::optional<std::uint64_t> BodyFields::unsigned_integer(std::string_view key) {
  auto it = body_.find(key);
  if (it == body_.end() || it->value().is_null()) return std::nullopt;
  const json::value& v = it->value();
  if (v.is_uint64()) return v.as_uint64();
  if (v.is_int64() && v.as_int64() >= 0) return static_cast<std::uint64_t>(v.as_int64());
  fail(key, "must be a non-negative integer");
  return std::nullopt;
}

std::optional<bool> BodyFields::boolean(std::string_view key) {
  auto it = body_.find(key);
  if (it == body_.end() || it->value().is_null()) return std::nullopt;
  if (!it->value().is_bool()) {
    fail(key, "must be true or false");
    return std::nullopt;
  }
  return it->value().as_bool();
}

const json::array* BodyFields::array(std::string_view key) {
  auto it = body_.find(key);
  if (it == body_.end() || it->value().is_null()) return nullptr;
  if (!it->value().is_array()) {
    fail(key, "must be an array");
    return nullptr;
  }
  return &it->value().as_array();
}

const json::object* BodyFields::object(std::string_view key) {
  auto it = body_.find(key);
  if (it == body_.end() || it->value().is_null()) return nullptr;
  if (!it->value().is_object()) {
    fail(key, "must be an object");
    return nullptr;
  }
  return &it->value().as_object();
}

json::array schema_errors(const std::vector<schema::FieldError>& errors) {
  json::array out;
  for (const auto& e : errors) {
    json::object entry = error_entry("schema", e.player, e.field, e.message.key);
    if (!e.path.empty()) entry["path"] = e.path;
    out.push_back(std::move(entry));
  }
  return out;
}

json::array rule_errors(const projections::RuleErrors& errors) {
  json::array out;
  for (const auto& e : errors) {
    json::object entry = error_entry(e.rule, e.player, e.field, e.message.key);
    if (!e.alternatives.empty()) {
      json::array accepted;
      for (const auto& a : e.alternatives) accepted.emplace_back(a);
      entry["accepted"] = std::move(accepted);
    }
    out.push_back(std::move(entry));
  }
  return out;
}

Response unprocessable(const Request& request, std::string_view detail, json::array errors) {
  return problem(request, http::status::unprocessable_entity, detail, std::move(errors));
}

bool valid_tournament_id(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  auto lower_or_digit = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!lower_or_digit(id[0])) return false;
  for (char c : id) {
    if (!lower_or_digit(c) && c != '-') return false;
  }
  return true;
}

bool valid_player_id(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

std::optional<json::object> body_or_answer(const ExchangePtr& ex) {
  auto parsed = parse_object(ex->request);
  if (auto* refusal = std::get_if<Response>(&parsed)) {
    ex->respond(std::move(*refusal));
    return std::nullopt;
  }
  return std::move(std::get<json::object>(parsed));
}

}  // namespace tally::daemon
