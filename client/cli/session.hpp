// The connection to tallyd for one command: the server URL, the token, the user's language
// (sent as Accept-Language with every request, so that the server's texts come back in it), and
// the checks every answer goes through. An answer with status >= 400 is printed (detail, then
// every error with its rule id, player and field) and turned into the exit code it maps to.
#pragma once

#include "client/server_address.hpp"

#include "client/cli/exit_codes.hpp"
#include "client/http_client.hpp"
#include "i18n/language.hpp"

#include <boost/json.hpp>

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>

namespace tally::cli {

using client::ServerAddress;

// client::parse_server_address, an AddressProblem thrown as Failure(kUsage).
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
void print_problem(const client::HttpReply& reply, std::ostream& err, i18n::Lang lang);

// The errors of a problem answer, one line each ("RULE (player P, field F): MESSAGE"), after
// `indent`; nothing when it has none.
void print_problem_errors(const client::HttpReply& reply, std::ostream& out, i18n::Lang lang,
                          const std::string& indent = "  ");

// The problem answer's `detail` (or `title`), or "" when it has none.
std::string problem_detail(const client::HttpReply& reply);

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

  // Sends the request; a network failure or a timeout is Failure(kUnavailable). Writes (POST,
  // PUT) carry a fresh Idempotency-Key, so that the client's own retry can never record twice.
  client::HttpReply get(const std::string& target);
  client::HttpReply send(client::http::verb method, const std::string& target,
                         const boost::json::value& body,
                         std::map<std::string, std::string> headers = {});
  // A POST that changes nothing (…/check): the same request as a write, without the
  // Idempotency-Key (there is nothing to record twice).
  client::HttpReply check(const std::string& target, const boost::json::value& body);
  // A write without a body (DELETE), with its Idempotency-Key too.
  client::HttpReply send_without_body(client::http::verb method, const std::string& target);

  // The answer's JSON when its status is below 400; otherwise prints the problem and throws
  // Failure with the status's exit code (and an empty message: it is printed already).
  boost::json::value expect(const client::HttpReply& reply);
  // get() then expect().
  boost::json::value read(const std::string& target) { return expect(get(target)); }

 private:
  client::HttpReply attempt(const std::function<client::HttpReply()>& call);
  ServerAddress address_;
  std::string token_;
  std::string ca_file_;
  std::ostream& err_;
  i18n::Lang lang_;
  std::unique_ptr<client::HttpClient> http_;
};

}  // namespace tally::cli
