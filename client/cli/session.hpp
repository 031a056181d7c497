// The connection to tallyd for one command: the server URL, the token, the user's language
// (sent as Accept-Language with every request, so that the server's texts come back in it), and
// the checks every answer goes through. An answer with status >= 400 is printed (detail, then
// every error with its rule id, player and field) and turned into the exit code it maps to.
#pragma once

#include "net/server_address.hpp"

#include "client/cli/exit_codes.hpp"
#include "client/cli/offline_copy.hpp"
#include "i18n/language.hpp"
#include "net/http_client.hpp"

#include <boost/json.hpp>

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace tally::cli {

using tally::net::ServerAddress;

// The server could not be reached: no connection, no name, no answer in time — not an HTTP
// answer (a 5xx is one). A Failure(kUnavailable) like any other; a command that can keep its work
// for later (result enter, correct) catches it. The message is "cannot reach tallyd at URL: …".
class Unreachable : public Failure {
 public:
  using Failure::Failure;
};

// tally::net::parse_server_address, an AddressProblem thrown as Failure(kUsage).
ServerAddress parse_server_url(const std::string& url);

// The TLS context for an https server: trusts `ca_file` (PEM) or, when empty, the system's
// store. Failure(kUsage) when the file cannot be used.
std::shared_ptr<boost::asio::ssl::context> tls_context_for(const std::string& ca_file);

// The exit code an HTTP error status maps to (see exit_codes.hpp).
ExitCode exit_code_for_status(int status);

// Prints a problem answer: "tally: DETAIL (HTTP 422)" and one indented line per error,
// "RULE (player P, field F): MESSAGE", with the houses a refused pick would accept and the
// tables a refused round names. DETAIL and MESSAGE are the server's (in the Accept-Language
// language); the rest in `lang`.
void print_problem(const tally::net::HttpReply& reply, std::ostream& err, i18n::Lang lang);

// How a player id is shown in an error line: "Anna Horáková (a)" where the caller knows the
// names; empty: the id as it is.
using PlayerLabel = std::function<std::string(const std::string& player)>;

// The errors of a problem answer, one line each ("RULE (player P, field F): MESSAGE"), after
// `indent`; nothing when it has none.
void print_problem_errors(const tally::net::HttpReply& reply, std::ostream& out, i18n::Lang lang,
                          const std::string& indent = "  ", const PlayerLabel& player_label = {});

// The problem answer's `detail` (or `title`), or "" when it has none.
std::string problem_detail(const tally::net::HttpReply& reply);

// A fresh Idempotency-Key ("tally-cli-" and 128 random bits in hex).
std::string new_idempotency_key();

// Percent-encodes a path segment or query value.
std::string url_encode(const std::string& text);

class Session {
 public:
  // `ca_file` matters for https only (see tls_context_for). Problems are printed on `err` in
  // `lang`, which every request names in its Accept-Language.
  Session(const ServerAddress& address, std::string token, std::string ca_file, std::ostream& err,
          i18n::Lang lang);

  const ServerAddress& address() const { return address_; }
  i18n::Lang lang() const { return lang_; }
  bool has_token() const { return !token_.empty(); }

  // Sends the request; a network failure or a timeout is Unreachable. Writes (POST, PUT) carry
  // a fresh Idempotency-Key unless `headers` name one, so that the client's own retry can never
  // record twice.
  tally::net::HttpReply get(const std::string& target);
  tally::net::HttpReply send(tally::net::http::verb method, const std::string& target,
                             const boost::json::value& body,
                             std::map<std::string, std::string> headers = {});
  // The same with a body that is not JSON (a venue's export: JSON Lines) of `content_type`.
  tally::net::HttpReply send_text(tally::net::http::verb method, const std::string& target,
                                  std::string body, const std::string& content_type);
  // A POST that changes nothing (…/check): the same request as a write, without the
  // Idempotency-Key (there is nothing to record twice).
  tally::net::HttpReply check(const std::string& target, const boost::json::value& body);
  // A write without a body (DELETE), with its Idempotency-Key too.
  tally::net::HttpReply send_without_body(tally::net::http::verb method, const std::string& target);

  // From now on the reads OfflineCopy::worth_keeping are kept in `copy` when they answer 200,
  // and once the server cannot be reached they are answered from it — for the rest of the
  // command no request goes out (one timeout at most): a read the copy lacks, a check and a
  // write throw the Unreachable that ended the connection.
  void use_offline_copy(std::shared_ptr<OfflineCopy> copy) { copy_ = std::move(copy); }
  // Whether this command found the server unreachable (with a copy in use), and how.
  bool offline() const { return unreachable_.has_value(); }
  const Unreachable& unreachable() const { return *unreachable_; }
  // When the oldest answer the copy gave was saved (ISO-8601 UTC); "" when it gave none.
  const std::string& copy_saved_at() const { return copy_saved_at_; }

  // The answer's JSON when its status is below 400; otherwise prints the problem and throws
  // Failure with the status's exit code (and an empty message: it is printed already).
  boost::json::value expect(const tally::net::HttpReply& reply);
  // get() then expect().
  boost::json::value read(const std::string& target) { return expect(get(target)); }

 private:
  tally::net::HttpReply attempt(const std::function<tally::net::HttpReply()>& call);
  tally::net::HttpReply from_copy(const std::string& target);
  ServerAddress address_;
  std::string token_;
  std::string ca_file_;
  std::ostream& err_;
  i18n::Lang lang_;
  std::unique_ptr<tally::net::HttpClient> http_;
  std::shared_ptr<OfflineCopy> copy_;
  std::optional<Unreachable> unreachable_;
  std::string copy_saved_at_;
};

}  // namespace tally::cli
