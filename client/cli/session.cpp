#include "client/cli/session.hpp"
#include "client/cli/text.hpp"

#include "client/cli/say.hpp"
#include "encoding/hex.hpp"

#include <functional>
#include <ostream>
#include <random>

namespace tally::cli {

namespace json = boost::json;

ServerAddress parse_server_url(const std::string& url) {
  auto parsed = tally::net::parse_server_address(url);
  if (auto* problem = std::get_if<tally::net::AddressProblem>(&parsed)) {
    throw usage_error(i18n::Message(problem->key, {{"url", url}}));
  }
  return std::get<ServerAddress>(parsed);
}

std::shared_ptr<boost::asio::ssl::context> tls_context_for(const std::string& ca_file) {
  try {
    return tally::net::client_tls(ca_file);
  } catch (const std::exception& e) {
    throw usage_error(
        i18n::Message("cli.server.bad_ca_file", {{"file", ca_file}, {"problem", e.what()}}));
  }
}

ExitCode exit_code_for_status(int status) {
  switch (status) {
    case 400:
    case 413:
    case 422:
    case 431:
      return kInvalid;
    case 409:
    case 412:
    case 428:
      return kConflict;
    case 401:
    case 403:
      return kAuth;
    case 404:
      return kNotFound;
    default:
      return status < 400 ? kOk : kUnavailable;
  }
}

namespace {

std::string text_of(const json::object& o, const char* key) {
  auto it = o.find(key);
  if (it == o.end() || !it->value().is_string()) return "";
  return printable(it->value().as_string());
}

std::string joined(const json::value& list) {
  std::string out;
  if (!list.is_array()) return out;
  for (const auto& v : list.as_array()) {
    if (!out.empty()) out += ", ";
    out += printable(v.is_string() ? std::string(v.as_string()) : json::serialize(v));
  }
  return out;
}

// One error of a problem answer, e.g. "C-7 (player a, field largest_army): Anna holds …": the
// machine fields (rule, player id, field) as they are, the server's message as it came.
std::string describe_error(const json::object& e, i18n::Lang lang, const PlayerLabel& label) {
  std::string rule = text_of(e, "rule");
  std::string player = text_of(e, "player");
  if (!player.empty() && label) player = label(player);
  // A structural error's path ("players[2].vp_cards") says more than its field.
  std::string field = text_of(e, "path");
  if (field.empty()) field = text_of(e, "field");
  std::string out = rule.empty() ? say(lang, "cli.problem.error") : rule;
  if (!player.empty() || !field.empty()) {
    // Which of the two there are, for the pattern's select.
    std::string which = player.empty() ? "field" : field.empty() ? "player" : "both";
    out += " " + say(lang, i18n::Message("cli.problem.where",
                                         {{"which", which}, {"player", player}, {"field", field}}));
  }
  out += ": " + text_of(e, "message");
  if (e.contains("accepted")) {
    out += " " +
           say(lang, i18n::Message("cli.problem.accepted", {{"values", joined(e.at("accepted"))}}));
  }
  if (e.contains("tables")) {
    out +=
        " " + say(lang, i18n::Message("cli.problem.tables", {{"tables", joined(e.at("tables"))}}));
  }
  return out;
}

}  // namespace

namespace {

json::value problem_body(const tally::net::HttpReply& reply) {
  try {
    return reply.json();
  } catch (const std::exception&) {
    return nullptr;
  }
}

}  // namespace

std::string problem_detail(const tally::net::HttpReply& reply) {
  json::value body = problem_body(reply);
  if (!body.is_object()) return "";
  std::string detail = text_of(body.as_object(), "detail");
  return detail.empty() ? text_of(body.as_object(), "title") : detail;
}

void print_problem_errors(const tally::net::HttpReply& reply, std::ostream& out, i18n::Lang lang,
                          const std::string& indent, const PlayerLabel& player_label) {
  json::value body = problem_body(reply);
  if (body.is_object() && body.as_object().contains("errors") && body.at("errors").is_array()) {
    for (const auto& e : body.at("errors").as_array()) {
      if (e.is_object()) out << indent << describe_error(e.as_object(), lang, player_label) << "\n";
    }
  }
}

void print_problem(const tally::net::HttpReply& reply, std::ostream& err, i18n::Lang lang) {
  std::string detail = problem_detail(reply);
  if (detail.empty())
    detail = reply.body.empty() ? say(lang, "cli.problem.refused") : printable(reply.body);
  err << "tally: "
      << say(lang, i18n::Message("cli.problem.headline",
                                 {{"detail", detail}, {"status", std::to_string(reply.status)}}))
      << "\n";
  print_problem_errors(reply, err, lang);
  if (reply.status == 401) {
    err << "  " << say(lang, "cli.problem.hint_login") << "\n";
  } else if (reply.status == 403) {
    err << "  " << say(lang, "cli.problem.hint_role") << "\n";
  } else if (reply.status == 429 || reply.status == 503) {
    std::string retry = reply.header("Retry-After");
    if (!retry.empty()) {
      err << "  " << say(lang, i18n::Message("cli.problem.hint_retry", {{"seconds", retry}}))
          << "\n";
    }
  }
}

std::string url_encode(const std::string& text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '-' || c == '_' || c == '.' || c == '~';
    if (plain) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

Session::Session(const ServerAddress& address, std::string token, std::string ca_file,
                 std::ostream& err, i18n::Lang lang)
    : address_(address),
      token_(std::move(token)),
      ca_file_(std::move(ca_file)),
      err_(err),
      lang_(lang) {}

tally::net::HttpReply Session::attempt(const std::function<tally::net::HttpReply()>& call) {
  if (unreachable_) throw *unreachable_;
  if (!http_) {
    auto tls = address_.tls ? tls_context_for(ca_file_) : nullptr;
    http_ = std::make_unique<tally::net::HttpClient>(address_.host, address_.port, token_, tls);
    http_->set_default_header("Accept-Language", std::string(i18n::code(lang_)));
  }
  try {
    return call();
  } catch (const std::exception& e) {
    http_.reset();
    // Boost's system errors end in " [system:111 at /usr/include/…]": not for people.
    std::string problem = e.what();
    if (auto at = problem.find(" [system:"); at != std::string::npos) problem.resize(at);
    Unreachable unreachable(
        kUnavailable,
        i18n::Message("cli.server.unreachable", {{"url", address_.url}, {"problem", problem}}));
    if (copy_) unreachable_ = unreachable;
    throw unreachable;
  }
}

tally::net::HttpReply Session::from_copy(const std::string& target) {
  auto kept =
      OfflineCopy::worth_keeping(target) ? copy_->recall(address_.url, target) : std::nullopt;
  if (!kept) throw *unreachable_;
  if (copy_saved_at_.empty() || kept->saved_at < copy_saved_at_) copy_saved_at_ = kept->saved_at;
  tally::net::HttpReply reply;
  reply.status = 200;
  reply.body = std::move(kept->body);
  return reply;
}

tally::net::HttpReply Session::get(const std::string& target) {
  if (unreachable_) return from_copy(target);
  try {
    tally::net::HttpReply reply = attempt([&] { return http_->get(target); });
    if (copy_ && reply.status == 200 && OfflineCopy::worth_keeping(target)) {
      copy_->remember(address_.url, target, reply.body);
    }
    return reply;
  } catch (const Unreachable&) {
    if (!copy_) throw;
    return from_copy(target);
  }
}

std::string new_idempotency_key() {
  std::random_device random;
  std::string bytes(16, '\0');
  for (char& b : bytes) b = static_cast<char>(random() & 0xff);
  return "tally-cli-" + encoding::hex_encode(bytes);
}

tally::net::HttpReply Session::send(tally::net::http::verb method, const std::string& target,
                                    const json::value& body,
                                    std::map<std::string, std::string> headers) {
  headers.emplace("Idempotency-Key", new_idempotency_key());
  return attempt([&] { return http_->request(method, target, json::serialize(body), headers); });
}

tally::net::HttpReply Session::send_text(tally::net::http::verb method, const std::string& target,
                                         std::string body, const std::string& content_type) {
  std::map<std::string, std::string> headers{{"Idempotency-Key", new_idempotency_key()},
                                             {"Content-Type", content_type}};
  return attempt([&] { return http_->request(method, target, body, headers); });
}

tally::net::HttpReply Session::check(const std::string& target, const json::value& body) {
  return attempt(
      [&] { return http_->request(tally::net::http::verb::post, target, json::serialize(body)); });
}

tally::net::HttpReply Session::send_without_body(tally::net::http::verb method,
                                                 const std::string& target) {
  std::map<std::string, std::string> headers{{"Idempotency-Key", new_idempotency_key()}};
  return attempt([&] { return http_->request(method, target, "", headers); });
}

json::value Session::expect(const tally::net::HttpReply& reply) {
  if (reply.status < 400) {
    try {
      return reply.json();
    } catch (const std::exception& e) {
      throw Failure(kUnavailable, i18n::Message("cli.server.not_json", {{"problem", e.what()}}));
    }
  }
  print_problem(reply, err_, lang_);
  throw Failure(exit_code_for_status(reply.status), "");
}

}  // namespace tally::cli
