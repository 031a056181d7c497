#include "daemon/http/body.hpp"

#include "daemon/http/json_keys.hpp"

#include "projections/registration.hpp"
#include "text/text_rule.hpp"

namespace tally::daemon {

std::variant<json::object, Response> parse_object(const Exchange& ex) {
  if (ex.request.body().empty()) return json::object();
  ParsedJson parsed = parse_json_checking_keys(ex.request.body(), 32);
  if (parsed.error) {
    // The parser's own words (English) go in as they are.
    return problem(ex, http::status::bad_request,
                   i18n::Message("api.body.not_json", {{"error", parsed.error.message()}}));
  }
  if (!parsed.value.is_object()) {
    return problem(ex, http::status::bad_request, "api.body.not_object");
  }
  if (parsed.duplicate) {
    return problem(
        ex, http::status::bad_request,
        i18n::Message("api.body.duplicate_key", {{"key", *parsed.duplicate}}),
        {{"request", "", *parsed.duplicate, i18n::Message("api.body.duplicate_key_entry")}});
  }
  return std::move(parsed.value.as_object());
}

BodyFields::BodyFields(const json::object& body, std::initializer_list<std::string_view> allowed)
    : body_(body) {
  for (const auto& member : body) {
    bool known = false;
    for (auto a : allowed) known = known || a == member.key();
    if (!known) fail(member.key(), "api.field.unknown");
  }
}

void BodyFields::fail(std::string_view field, i18n::Message message, std::string_view rule) {
  errors_.push_back({std::string(rule), "", std::string(field), std::move(message)});
}

std::optional<std::string> BodyFields::text(std::string_view key, bool required,
                                            std::size_t max_bytes) {
  auto it = body_.find(key);
  if (it == body_.end() || it->value().is_null()) {
    if (required) fail(key, "api.field.required");
    return std::nullopt;
  }
  if (!it->value().is_string()) {
    fail(key, "api.field.string");
    return std::nullopt;
  }
  std::string value(it->value().as_string());
  if (required && value.empty()) {
    fail(key, "api.field.empty");
    return std::nullopt;
  }
  if (value.size() > max_bytes) {
    fail(key, i18n::Message("api.field.too_long", {{"max", max_bytes}}));
    return std::nullopt;
  }
  if (value.find('\0') != std::string::npos) {
    fail(key, "api.field.nul", "text");
    return std::nullopt;
  }
  return value;
}

std::optional<std::string> BodyFields::display_text(std::string_view key, bool required,
                                                    std::size_t max_bytes) {
  auto value = text(key, required, max_bytes);
  if (!value || (value->empty() && !required)) return value;
  if (auto problem = text::text_problem(*value)) {
    fail(key, std::move(*problem), "text");
    return std::nullopt;
  }
  return value;
}

std::optional<std::string> BodyFields::name(std::string_view key, bool required) {
  return display_text(key, required, text::kMaxNameBytes);
}

std::optional<std::uint64_t> BodyFields::unsigned_integer(std::string_view key) {
  auto it = body_.find(key);
  if (it == body_.end() || it->value().is_null()) return std::nullopt;
  const json::value& v = it->value();
  if (v.is_uint64()) return v.as_uint64();
  if (v.is_int64() && v.as_int64() >= 0) return static_cast<std::uint64_t>(v.as_int64());
  fail(key, "api.field.unsigned");
  return std::nullopt;
}

std::optional<bool> BodyFields::boolean(std::string_view key) {
  auto it = body_.find(key);
  if (it == body_.end() || it->value().is_null()) return std::nullopt;
  if (!it->value().is_bool()) {
    fail(key, "api.field.boolean");
    return std::nullopt;
  }
  return it->value().as_bool();
}

const json::array* BodyFields::array(std::string_view key) {
  auto it = body_.find(key);
  if (it == body_.end() || it->value().is_null()) return nullptr;
  if (!it->value().is_array()) {
    fail(key, "api.field.array");
    return nullptr;
  }
  return &it->value().as_array();
}

const json::object* BodyFields::object(std::string_view key) {
  auto it = body_.find(key);
  if (it == body_.end() || it->value().is_null()) return nullptr;
  if (!it->value().is_object()) {
    fail(key, "api.field.object");
    return nullptr;
  }
  return &it->value().as_object();
}

Response unprocessable(const Exchange& ex, const i18n::Message& detail,
                       const ErrorEntries& errors) {
  return problem(ex, http::status::unprocessable_entity, detail, errors);
}

Response unprocessable(const Request& request, const Audience& audience,
                       const i18n::Message& detail, const ErrorEntries& errors) {
  return problem(request, audience, http::status::unprocessable_entity, detail, errors);
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

bool valid_player_id(std::string_view id) { return projections::valid_player_id(id); }

std::optional<json::object> body_or_answer(const ExchangePtr& ex) {
  auto parsed = parse_object(*ex);
  if (auto* refusal = std::get_if<Response>(&parsed)) {
    ex->respond(std::move(*refusal));
    return std::nullopt;
  }
  return std::move(std::get<json::object>(parsed));
}

}  // namespace tally::daemon
