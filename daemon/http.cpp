#include "daemon/http.hpp"

#include <charconv>
#include <optional>

namespace tally::daemon {

namespace {

Response json_text_response(const Request& request, http::status status, std::string text) {
  Response response(status, request.version());
  response.set(http::field::content_type, "application/json");
  response.keep_alive(request.keep_alive());
  response.body() = std::move(text);
  response.prepare_payload();
  return response;
}

}  // namespace

Response json_response(const Request& request, http::status status, const json::value& body) {
  return json_text_response(request, status, json::serialize(body));
}

Response json_response(const Request& request, http::status status, const json::object& body) {
  return json_text_response(request, status, json::serialize(body));
}

Response json_response(const Request& request, http::status status, const json::array& body) {
  return json_text_response(request, status, json::serialize(body));
}

Response problem(const Request& request, http::status status, std::string_view detail,
                 json::array errors, json::object extra) {
  json::object body = std::move(extra);
  body["type"] = "about:blank";
  body["title"] = std::string(http::obsolete_reason(status));
  body["status"] = static_cast<int>(status);
  body["detail"] = detail;
  if (!errors.empty()) body["errors"] = std::move(errors);
  Response response = json_response(request, status, body);
  response.set(http::field::content_type, "application/problem+json");
  return response;
}

json::object error_entry(std::string_view rule, std::string_view player, std::string_view field,
                         std::string_view message) {
  json::object out{{"rule", rule}};
  if (!player.empty()) out["player"] = player;
  if (!field.empty()) out["field"] = field;
  out["message"] = message;
  return out;
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

Response with_seq(Response response, std::uint64_t seq) {
  response.set("Tally-Seq", std::to_string(seq));
  return response;
}

}  // namespace tally::daemon
