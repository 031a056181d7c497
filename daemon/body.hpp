// Reading request bodies strictly: a JSON object, known members only, each of the right type —
// every problem reported at once as problem+json `errors` entries naming the field.
//
// Thread safety: values; one BodyFields per request.
#pragma once

#include "daemon/http.hpp"
#include "daemon/router.hpp"
#include "projections/game.hpp"
#include "schema/json_codec.hpp"

#include <initializer_list>
#include <optional>
#include <string>
#include <variant>

namespace tally::daemon {

// The body as a JSON object, or the 400 answer saying why it is not one. An empty body is {}.
std::variant<json::object, Response> parse_object(const Request& request);

// The request's body as an object; when it is not one, the 400 is sent and nullopt returned.
std::optional<json::object> body_or_answer(const ExchangePtr& ex);

class BodyFields {
 public:
  // Members outside `allowed` are reported at once (rule "request", "is not a field …").
  BodyFields(const json::object& body, std::initializer_list<std::string_view> allowed);

  // A string member; `max_bytes` bounds it; a required one that is missing is an error.
  std::optional<std::string> text(std::string_view key, bool required, std::size_t max_bytes = 200);
  std::optional<std::uint64_t> unsigned_integer(std::string_view key);
  std::optional<bool> boolean(std::string_view key);
  const json::array* array(std::string_view key);
  const json::object* object(std::string_view key);

  void fail(std::string_view field, std::string_view message, std::string_view rule = "request");
  bool ok() const { return errors_.empty(); }
  json::array& errors() { return errors_; }

 private:
  const json::object& body_;
  json::array errors_;
};

// The codec's structural errors as API error entries (rule "schema").
json::array schema_errors(const std::vector<schema::FieldError>& errors);
// A game's rule errors as API error entries (with "accepted" where the rule names alternatives).
json::array rule_errors(const projections::RuleErrors& errors);

// 422 with errors.
Response unprocessable(const Request& request, std::string_view detail, json::array errors);

// Ids: a tournament id matches [a-z0-9][a-z0-9-]{0,63}; player and judge ids are 1–64 of
// letters, digits, '-', '_', '.'.
bool valid_tournament_id(std::string_view id);
bool valid_player_id(std::string_view id);

}  // namespace tally::daemon
