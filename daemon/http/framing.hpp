// What the request's header says about its framing, checked before its body is read
// (RFC 9112 §3.2 and §6): a Host header, exactly one, in HTTP/1.1; Transfer-Encoding only in
// HTTP/1.1, never beside Content-Length, with `chunked` once and as the final coding (anything
// else is 400, a coding tallyd does not know 501). A request that breaks one of these is
// answered and its connection closed: where its body ends cannot be trusted, and a request
// smuggled in its bytes must never be read as the next one.
//
// Thread safety: pure functions.
#pragma once

#include "i18n/message.hpp"

#include <boost/beast/http/fields.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/status.hpp>

#include <optional>

namespace tally::daemon {

struct FramingProblem {
  boost::beast::http::status status;
  i18n::Message message;
};

std::optional<FramingProblem> framing_problem(
    const boost::beast::http::request_header<boost::beast::http::fields>& header);

// Trailer fields of a chunked body never become header fields: drops every field after the
// first `header_fields` (the ones the header had) and returns how many it dropped.
std::size_t drop_trailer_fields(boost::beast::http::fields& fields, std::size_t header_fields);

// The number of fields, for drop_trailer_fields.
std::size_t field_count(const boost::beast::http::fields& fields);

}  // namespace tally::daemon
