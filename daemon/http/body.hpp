// Reading request bodies strictly: a JSON object, known members only, each of the right type —
// every problem reported at once as problem+json `errors` entries naming the field.
//
// Thread safety: values; one BodyFields per request.
#pragma once

#include "daemon/http/http.hpp"
#include "daemon/http/router.hpp"
#include "deciders/errors.hpp"
#include "projections/game.hpp"
#include "schema/json_codec.hpp"
#include "text/json_object_reader.hpp"

#include <initializer_list>
#include <optional>
#include <string>
#include <variant>

namespace tally::daemon {

// The body as a JSON object, or the 400 answer saying why it is not one. An empty body is {}.
std::variant<json::object, Response> parse_object(const Exchange& ex);

// The request's body as an object; when it is not one, the 400 is sent and nullopt returned.
std::optional<json::object> body_or_answer(const ExchangePtr& ex);

// A handler's body members, read with the one strict JSON reader (text/json_object_reader.hpp):
// its structural problems come under rule "request".
class BodyFields final : private text::JsonProblemSink {
 public:
  // Members outside `allowed` are reported at once (rule "request", json.not_a_field).
  BodyFields(const json::object& body, std::initializer_list<std::string_view> allowed);
  BodyFields(const BodyFields&) = delete;  // the reader reports to this object
  BodyFields& operator=(const BodyFields&) = delete;

  // A string member; `max_bytes` bounds it; a required one that is missing is an error.
  std::optional<std::string> text(std::string_view key, bool required, std::size_t max_bytes = 200);
  // A text people read — a name or a reason: text() and rule `text` (no control or
  // text-direction characters, something visible; text/text_rule.hpp).
  std::optional<std::string> display_text(std::string_view key, bool required,
                                          std::size_t max_bytes = 200);
  // A name (a player's, a judge's, a tournament's): text::name_problem, the rule the CSV
  // import applies too.
  std::optional<std::string> name(std::string_view key, bool required);
  std::optional<std::uint64_t> unsigned_integer(std::string_view key) {
    return reader_.unsigned_integer(key);
  }
  std::optional<bool> boolean(std::string_view key) { return reader_.boolean(key); }
  const json::array* array(std::string_view key) { return reader_.array(key); }
  const json::object* object(std::string_view key) { return reader_.object(key); }

  // `message` says what is wrong with the field ("is required": json.required).
  void fail(std::string_view field, i18n::Message message, std::string_view rule = "request");
  bool ok() const { return errors_.empty(); }
  const ErrorEntries& errors() const { return errors_; }

 private:
  void report(std::string rule, std::string path, i18n::Message message) override;
  std::optional<std::string> checked_text(std::string value, std::string_view key, bool required,
                                          std::size_t max_bytes);

  ErrorEntries errors_;
  text::JsonObjectReader reader_;
};

// The codec's structural errors and a game's rule errors as API error entries
// (deciders/errors.hpp).
using deciders::rule_errors;
using deciders::schema_errors;

// 422 with errors: in the exchange's language, players by id as given …
Response unprocessable(const Exchange& ex, const i18n::Message& detail, const ErrorEntries& errors);
// … or for `audience` (ex.audience(t): a tournament's players by name).
Response unprocessable(const Request& request, const Audience& audience,
                       const i18n::Message& detail, const ErrorEntries& errors);

// Ids: a tournament id matches [a-z0-9][a-z0-9-]{0,63}; player and judge ids are 1–64 of
// letters, digits, '-', '_', '.'.
bool valid_tournament_id(std::string_view id);
bool valid_player_id(std::string_view id);

}  // namespace tally::daemon
