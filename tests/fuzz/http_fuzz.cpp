// HTTP request handling up to the handlers: bytes → Boost.Beast's request parser with tallyd's
// header and body limits (daemon/config.hpp), up to 4 pipelined requests as on one keep-alive
// connection → the Dispatcher (router over the real route table of daemon/api/api.cpp, bearer-token
// identification against one organizer and one judge, rate limiting, access checks) → a stub
// handler doing what handlers do before they touch the store: path parameters, If-Match,
// Idempotency-Key, query and body parsing. No sockets, no store.
// Invariants: each request is answered exactly once, with a status, X-Request-Id and a
// serialisable message; a 405 says what is allowed; matched parameters are never empty; an
// If-Match the server accepts survives etag()/parse_etag(); query keys are never empty.
#include "daemon/api/api.hpp"
#include "daemon/http/body.hpp"
#include "daemon/http/dispatcher.hpp"
#include "daemon/http/framing.hpp"
#include "daemon/log.hpp"
#include "events/sha256.hpp"
#include "projections/games.hpp"
#include "tests/fuzz/fuzz_support.hpp"

#include <capnp/message.h>
#include <capnp/serialize.h>
#include <boost/beast/websocket/rfc6455.hpp>

#include <sstream>

namespace {

using namespace tally;
using namespace tally::daemon;

// The tokens of the one organizer and the one judge the state knows (also in http.dict).
constexpr std::string_view kOrganizerToken = "fuzz-organizer-token";
constexpr std::string_view kJudgeToken = "fuzz-judge-token";

schema::StoredEvent judge_added(std::uint64_t seq, std::string_view id, schema::Role role,
                                std::string_view token) {
  capnp::MallocMessageBuilder message;
  auto e = message.initRoot<schema::Event>();
  e.setSeq(seq);
  e.setStream("judges");
  e.setVersion(seq);
  e.setAuthor("organizer");
  auto added = e.getPayload().initJudgeAdded();
  added.setId(std::string(id));
  added.setName(std::string(id));
  added.setRole(role);
  auto hash = events::sha256(token);
  added.setTokenHash(capnp::Data::Reader(hash.data(), hash.size()));
  auto words = capnp::messageToFlatArray(message);
  auto bytes = words.asBytes();
  return schema::StoredEvent(
      seq, schema::Digest{},
      std::string_view(reinterpret_cast<const char*>(bytes.begin()), bytes.size()));
}

// What a handler reads from a request before it looks at the store.
void stub_handler(const ExchangePtr& ex) {
  json::object seen;
  for (const auto& [name, value] : ex->params) {
    FUZZ_CHECK(!value.empty());
    if (name == "t") {
      seen[name] = valid_tournament_id(value);
    } else if (name == "p" || name == "id") {
      seen[name] = valid_player_id(value);
    } else if (auto n = parse_number(value)) {
      FUZZ_CHECK(parse_number(std::to_string(*n)) == n);
      seen[name] = *n;
    }
  }
  for (const auto& [key, value] : ex->query) FUZZ_CHECK(!key.empty());
  if (auto h = ex->request.find(http::field::if_match); h != ex->request.end()) {
    if (auto version = parse_etag(h->value())) {
      FUZZ_CHECK(parse_etag(etag(*version)) == version);
      seen["if_match"] = *version;
    }
  }
  if (auto h = ex->request.find("Idempotency-Key"); h != ex->request.end()) {
    seen["idempotency_key"] = valid_idempotency_key(h->value());
  }
  auto body = parse_object(*ex);
  if (auto* refusal = std::get_if<Response>(&body)) {
    FUZZ_CHECK(refusal->result() == http::status::bad_request);
    return ex->respond(std::move(*refusal));
  }
  BodyFields fields(std::get<json::object>(body), {"name", "id", "game", "seq", "forced"});
  (void)fields.text("name", false);
  (void)fields.text("id", true, 64);
  (void)fields.unsigned_integer("seq");
  (void)fields.boolean("forced");
  (void)fields.object("rules");
  (void)fields.array("players");
  if (!fields.ok()) {
    return ex->respond(unprocessable(*ex, i18n::Message::verbatim("fuzz"), fields.errors()));
  }
  ex->respond(json_response(ex->request, http::status::ok, seen));
}

struct Server {
  std::unique_ptr<projections::GameRegistry> games = projections::standard_games();
  LiveState state{*games};
  Metrics metrics;
  Config config;
  Router router;
  TableKeys table_keys{TableKeys::Secret{}};  // table tokens: parsed and refused, never valid here
  std::unique_ptr<Dispatcher> dispatcher;

  Server() {
    log::set_level(log::Level::error);
    config.rate_limit = 1e12;  // one fuzzing process sends far more than a client may
    config.rate_burst = 1e12;
    for (auto& route : Api::routes()) {
      router.add(route.method, route.pattern, route.access, stub_handler);
    }
    state.apply(judge_added(1, "organizer", schema::Role::ORGANIZER, kOrganizerToken));
    state.apply(judge_added(2, "fuzz-judge", schema::Role::JUDGE, kJudgeToken));
    dispatcher = std::make_unique<Dispatcher>(router, state, metrics, config, table_keys);
  }
};

void check_response(const Response& response) {
  int status = static_cast<int>(response.result_int());
  FUZZ_CHECK(status >= 100 && status <= 599);
  FUZZ_CHECK(response.find("X-Request-Id") != response.end());
  if (response.result() == http::status::method_not_allowed) {
    FUZZ_CHECK(response.find(http::field::allow) != response.end());
  }
  std::ostringstream wire;
  wire << response;
  FUZZ_CHECK(!wire.str().empty());
}

// What the server answers when a request cannot be read (daemon/http/server.cpp on_read).
void refuse(http::status status, std::string_view detail) {
  Request stub;
  stub.version(11);
  stub.keep_alive(false);
  Response response =
      problem(stub, {i18n::Lang::en}, status, i18n::Message::verbatim(std::string(detail)));
  std::ostringstream wire;
  wire << response;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Server server;
  std::string_view rest = fuzz::as_text(data, size);
  for (int requests = 0; requests < 4 && !rest.empty(); ++requests) {
    http::request_parser<http::string_body> parser;
    parser.body_limit(server.config.body_limit);
    parser.header_limit(static_cast<std::uint32_t>(server.config.header_limit));
    parser.eager(true);
    boost::system::error_code ec;
    bool framing_checked = false;
    std::size_t header_fields = 0;
    while (!parser.is_done()) {
      std::size_t used = parser.put(boost::asio::buffer(rest.data(), rest.size()), ec);
      FUZZ_CHECK(used <= rest.size());
      rest.remove_prefix(used);
      // As the connection does once the header is in: a request whose framing cannot be
      // trusted is answered and its connection closed (nothing after it is read).
      if (!framing_checked && parser.is_header_done()) {
        framing_checked = true;
        if (auto problem = framing_problem(parser.get()))
          return refuse(problem->status, "framing"), 0;
        header_fields = field_count(parser.get());
      }
      if (ec && ec != http::error::need_more) break;
      // The input is all there is: a parser that needs more (it must then be given the same
      // bytes again with more after them, never alone) or makes no progress sees the end.
      if (ec == http::error::need_more || used == 0) {
        ec = {};
        parser.put_eof(ec);
        if (!ec && !parser.is_done()) return 0;  // the server would wait, then time out
        break;
      }
    }
    if (ec == http::error::body_limit) return refuse(http::status::payload_too_large, "body"), 0;
    if (ec == http::error::header_limit) {
      return refuse(http::status::request_header_fields_too_large, "headers"), 0;
    }
    if (ec) return refuse(http::status::bad_request, ec.message()), 0;

    Request request = parser.release();
    FUZZ_CHECK(request.body().size() <= server.config.body_limit);
    drop_trailer_fields(request, header_fields);
    FUZZ_CHECK(field_count(request) == header_fields);    // no trailer became a header field
    if (beast::websocket::is_upgrade(request)) return 0;  // the live feed's, not the API's
    bool keep_alive = request.keep_alive();
    int answers = 0;
    // The stub handlers answer at once: nothing is posted to the (absent) connection executor.
    server.dispatcher->dispatch(std::move(request), "127.0.0.1", {}, [&](Response response) {
      ++answers;
      check_response(response);
    });
    FUZZ_CHECK(answers == 1);
    if (!keep_alive) break;
  }
  return 0;
}
