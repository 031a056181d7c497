// HTTP vocabulary shared by the daemon's modules: request/response types, problem+json errors
// (RFC 9457) in the reader's language, JSON responses, query strings.
//
// Thread safety: free functions on values.
#pragma once

#include "daemon/http/language.hpp"
#include "deciders/decision.hpp"
#include "i18n/message.hpp"

#include <boost/beast/http.hpp>
#include <boost/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tally::daemon {

namespace beast = boost::beast;
namespace http = boost::beast::http;
namespace json = boost::json;

using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

// One open TCP connection's place under max_connections, shared by whoever holds the connection
// (its HTTP session, then the live session it was upgraded to); freed when the last holder goes,
// so a connection counts exactly once, also while it is handed over.
using ConnectionSlot = std::shared_ptr<const void>;

// A JSON body with the status; keeps the request's HTTP version and keep-alive. (The object and
// array overloads serialize in place: converting one to json::value would copy it deeply.)
Response json_response(const Request& request, http::status status, const json::value& body);
Response json_response(const Request& request, http::status status, const json::object& body);
Response json_response(const Request& request, http::status status, const json::array& body);
// A body that is already JSON text (written by a text::JsonWriter).
Response json_text_response(const Request& request, http::status status, std::string text);

// The status line and the header fields of `response`, ending with the blank line: the bytes
// Beast's serializer writes before the body, in the same order. A session writes them and the
// body in one gather write (Beast's serializer cost about a tenth of a write's CPU in tallyd).
std::string wire_header(const Response& response);

// The headers every answer carries, routed or refused before routing (framing, connection
// limits): X-Request-Id, Cache-Control no-store unless the answer set its own, nosniff.
void set_common_headers(Response& response, std::string_view request_id);

// The response with header Tally-Seq: the log position it was read at.
Response with_seq(Response response, std::uint64_t seq);

// One entry of a problem's `errors`: the machine fields, which never change with the language,
// and a message for people, rendered in the reader's language when the answer is made. The same
// value a decider's refusal carries (deciders/decision.hpp).
using ErrorEntry = deciders::RefusalError;
using ErrorEntries = std::vector<ErrorEntry>;

// application/problem+json: {"type","title","status","detail", "errors"?, …extra}, its `title`
// (the status), `detail` and each error's `message` in the audience's language, players by name;
// with Content-Language. Handlers answer through problem(const Exchange&, …) (router.hpp), which
// knows the request's language; this one is for answers made before there is an Exchange.
Response problem(const Request& request, const Audience& audience, http::status status,
                 const i18n::Message& detail, const ErrorEntries& errors = {},
                 json::object extra = {});

// The decoded query of a target: "/x?from=3&limit=10" → {from: 3, limit: 10}.
std::map<std::string, std::string> parse_query(std::string_view target);
// The target without its query.
std::string_view path_of(std::string_view target);
// Percent-decoding of a path segment or query value; nullopt when malformed.
std::optional<std::string> percent_decode(std::string_view text);

// A decimal number as a whole string ("3"; not "", "-1", "3x"); nullopt otherwise.
std::optional<std::uint64_t> parse_number(std::string_view text);
// The ETag of a table version: "3".
std::string etag(std::uint64_t version);
// If-Match: "3" (also W/"3" and a bare 3); nullopt when it is not one version.
std::optional<std::uint64_t> parse_etag(std::string_view value);
// An Idempotency-Key: 1–128 visible ASCII characters.
bool valid_idempotency_key(std::string_view key);

}  // namespace tally::daemon
