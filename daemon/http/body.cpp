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
    : reader_(body, "", *this, "request") {
  for (auto key : allowed) reader_.expect(key);
  reader_.finish("request");
}

void BodyFields::report(std::string rule, std::string path, i18n::Message message) {
  errors_.push_back({std::move(rule), "", std::move(path), std::move(message)});
}

void BodyFields::fail(std::string_view field, i18n::Message message, std::string_view rule) {
  report(std::string(rule), std::string(field), std::move(message));
}

std::optional<std::string> BodyFields::text(std::string_view key, bool required,
                                            std::size_t max_bytes) {
  if (!reader_.has(key)) {
    if (required) fail(key, "json.required");
    return std::nullopt;
  }
  auto value = reader_.string(key);
  if (!value) return std::nullopt;
  return checked_text(std::move(*value), key, required, max_bytes);
}

// A string member's own rules: something when required, within `max_bytes`, no NUL.
std::optional<std::string> BodyFields::checked_text(std::string value, std::string_view key,
                                                    bool required, std::size_t max_bytes) {
  if (required && value.empty()) {
    fail(key, "json.empty");
    return std::nullopt;
  }
  if (value.size() > max_bytes) {
    fail(key, i18n::Message("json.too_long", {{"max", max_bytes}}));
    return std::nullopt;
  }
  if (value.find('\0') != std::string::npos) {
    fail(key, "json.no_nul", "text");
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
