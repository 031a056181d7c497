#include "daemon/http/framing.hpp"

#include <boost/beast/core/string.hpp>

#include <string>
#include <vector>

namespace tally::daemon {

namespace http = boost::beast::http;

namespace {

// The codings of every Transfer-Encoding line, in order, lower case, without parameters.
std::vector<std::string> transfer_codings(const http::fields& fields) {
  std::vector<std::string> out;
  auto [first, last] = fields.equal_range(http::field::transfer_encoding);
  for (auto it = first; it != last; ++it) {
    std::string_view value(it->value().data(), it->value().size());
    while (true) {
      auto comma = value.find(',');
      std::string_view item = value.substr(0, comma);
      item = item.substr(0, item.find(';'));
      while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
      while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
      std::string coding(item);
      for (char& c : coding) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
      out.push_back(std::move(coding));  // an empty item is kept: it is an error
      if (comma == std::string_view::npos) break;
      value.remove_prefix(comma + 1);
    }
  }
  return out;
}

FramingProblem bad(const char* key) { return {http::status::bad_request, i18n::Message(key)}; }

}  // namespace

std::optional<FramingProblem> framing_problem(const http::request_header<http::fields>& header) {
  // RFC 9112 §3.2: an HTTP/1.1 request has exactly one Host.
  if (header.version() >= 11 && header.count(http::field::host) != 1)
    return bad("api.request.host");
  // Two credentials: which one the request means cannot be told, so neither is taken.
  if (header.count(http::field::authorization) > 1) return bad("api.request.authorization_twice");
  if (header.count(http::field::transfer_encoding) == 0) return std::nullopt;
  // §6.1: Transfer-Encoding in HTTP/1.0 means the framing is faulty; beside Content-Length it is
  // the classic way to smuggle a request.
  if (header.version() < 11) return bad("api.request.te_http10");
  if (header.count(http::field::content_length) > 0) return bad("api.request.te_and_length");
  auto codings = transfer_codings(header);
  int chunked = 0;
  for (const auto& c : codings) {
    if (c.empty()) return bad("api.request.te_malformed");
    chunked += c == "chunked";
  }
  // §6.3: chunked must be the final coding, and applied once.
  if (codings.back() != "chunked" || chunked != 1) return bad("api.request.te_not_chunked");
  if (codings.size() > 1) {
    return FramingProblem{http::status::not_implemented,
                          i18n::Message("api.request.te_unknown", {{"coding", codings.front()}})};
  }
  return std::nullopt;
}

std::size_t field_count(const http::fields& fields) {
  return static_cast<std::size_t>(std::distance(fields.begin(), fields.end()));
}

std::size_t drop_trailer_fields(http::fields& fields, std::size_t header_fields) {
  std::size_t dropped = 0;
  auto it = fields.begin();
  std::advance(it, std::min(header_fields, field_count(fields)));
  while (it != fields.end()) {
    it = fields.erase(it);
    ++dropped;
  }
  return dropped;
}

}  // namespace tally::daemon
