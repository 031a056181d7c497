#include "daemon/http/http.hpp"

#include <charconv>
#include <optional>

namespace tally::daemon {

Response json_text_response(const Request& request, http::status status, std::string text) {
  Response response(status, request.version());
  response.set(http::field::content_type, "application/json");
  response.keep_alive(request.keep_alive());
  response.body() = std::move(text);
  response.prepare_payload();
  return response;
}

Response json_response(const Request& request, http::status status, const json::value& body) {
  return json_text_response(request, status, json::serialize(body));
}

Response json_response(const Request& request, http::status status, const json::object& body) {
  return json_text_response(request, status, json::serialize(body));
}

Response json_response(const Request& request, http::status status, const json::array& body) {
  return json_text_response(request, status, json::serialize(body));
}

namespace {

// A problem's title: the status, in the reader's language (the statuses tallyd answers with;
// another one is named by its English reason).
i18n::Message status_title(http::status status) {
  switch (status) {
    case http::status::bad_request:
      return "api.status.400";
    case http::status::unauthorized:
      return "api.status.401";
    case http::status::forbidden:
      return "api.status.403";
    case http::status::not_found:
      return "api.status.404";
    case http::status::method_not_allowed:
      return "api.status.405";
    case http::status::conflict:
      return "api.status.409";
    case http::status::precondition_failed:
      return "api.status.412";
    case http::status::payload_too_large:
      return "api.status.413";
    case http::status::unprocessable_entity:
      return "api.status.422";
    case http::status::upgrade_required:
      return "api.status.426";
    case http::status::precondition_required:
      return "api.status.428";
    case http::status::too_many_requests:
      return "api.status.429";
    case http::status::request_header_fields_too_large:
      return "api.status.431";
    case http::status::internal_server_error:
      return "api.status.500";
    case http::status::not_implemented:
      return "api.status.501";
    case http::status::service_unavailable:
      return "api.status.503";
    default:
      return i18n::Message::verbatim(std::string(http::obsolete_reason(status)));
  }
}

// {"rule","player","field","message", …extra}: empty player and field left out.
json::object error_json(const ErrorEntry& e, const Audience& audience) {
  json::object out{{"rule", e.rule}};
  if (!e.player.empty()) out["player"] = e.player;
  if (!e.field.empty()) out["field"] = e.field;
  out["message"] = audience.render(e.message);
  for (const auto& [key, value] : e.extra) out[key] = value;
  return out;
}

}  // namespace

Response problem(const Request& request, const Audience& audience, http::status status,
                 const i18n::Message& detail, const ErrorEntries& errors, json::object extra) {
  json::object body = std::move(extra);
  body["type"] = "about:blank";
  body["title"] = audience.render(status_title(status));
  body["status"] = static_cast<int>(status);
  body["detail"] = audience.render(detail);
  if (!errors.empty()) {
    json::array entries;
    for (const auto& e : errors) entries.push_back(error_json(e, audience));
    body["errors"] = std::move(entries);
  }
  Response response = json_response(request, status, body);
  response.set(http::field::content_type, "application/problem+json");
  set_language(response, audience.lang);
  return response;
}

std::optional<std::string> percent_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '%') {
      if (i + 2 >= text.size()) return std::nullopt;
      auto hex = [](char h) -> int {
        if (h >= '0' && h <= '9') return h - '0';
        if (h >= 'a' && h <= 'f') return h - 'a' + 10;
        if (h >= 'A' && h <= 'F') return h - 'A' + 10;
        return -1;
      };
      int hi = hex(text[i + 1]), lo = hex(text[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else if (c == '+') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::optional<std::uint64_t> parse_number(std::string_view text) {
  std::uint64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return n;
}

std::string etag(std::uint64_t version) { return "\"" + std::to_string(version) + "\""; }

std::optional<std::uint64_t> parse_etag(std::string_view value) {
  if (value.starts_with("W/")) value.remove_prefix(2);
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    value = value.substr(1, value.size() - 2);
  }
  return parse_number(value);
}

bool valid_idempotency_key(std::string_view key) {
  if (key.empty() || key.size() > 128) return false;
  for (char c : key) {
    if (c <= ' ' || c > '~') return false;
  }
  return true;
}

std::string_view path_of(std::string_view target) { return target.substr(0, target.find('?')); }

std::map<std::string, std::string> parse_query(std::string_view target) {
  std::map<std::string, std::string> out;
  std::size_t q = target.find('?');
  if (q == std::string_view::npos) return out;
  std::string_view rest = target.substr(q + 1);
  while (!rest.empty()) {
    std::size_t amp = rest.find('&');
    std::string_view pair = rest.substr(0, amp);
    std::size_t eq = pair.find('=');
    auto key = percent_decode(pair.substr(0, eq));
    auto value = percent_decode(eq == std::string_view::npos ? "" : pair.substr(eq + 1));
    if (key && value && !key->empty()) out[*key] = *value;
    if (amp == std::string_view::npos) break;
    rest.remove_prefix(amp + 1);
  }
  return out;
}

std::string wire_header(const Response& response) {
  std::string out;
  out.reserve(256);
  out += response.version() == 10 ? "HTTP/1.0 " : "HTTP/1.1 ";
  out += std::to_string(response.result_int());
  out += ' ';
  out += response.reason();
  out += "\r\n";
  for (const auto& field : response) {
    out += field.name_string();
    out += ": ";
    out += field.value();
    out += "\r\n";
  }
  out += "\r\n";
  return out;
}

Response with_seq(Response response, std::uint64_t seq) {
  response.set("Tally-Seq", std::to_string(seq));
  return response;
}

void set_common_headers(Response& response, std::string_view request_id) {
  response.set("X-Request-Id", request_id);
  if (response.find(http::field::cache_control) == response.end()) {
    response.set(http::field::cache_control, "no-store");
  }
  response.set("X-Content-Type-Options", "nosniff");
}

}  // namespace tally::daemon
