#include "daemon/http/refusal_answer.hpp"

namespace tally::daemon {

http::status status_of(deciders::RefusalKind kind) {
  using Kind = deciders::RefusalKind;
  switch (kind) {
    case Kind::not_found:
      return http::status::not_found;
    case Kind::forbidden:
      return http::status::forbidden;
    case Kind::conflict:
      return http::status::conflict;
    case Kind::precondition:
      return http::status::precondition_failed;
    case Kind::unprocessable:
      return http::status::unprocessable_entity;
  }
  return http::status::internal_server_error;  // unreachable: every kind is listed above
}

Response refusal_answer(const Exchange& ex, const Audience& audience,
                        const deciders::Refusal& refusal, json::object extra) {
  Response r = problem(ex.request, audience, status_of(refusal.kind), refusal.message,
                       refusal.errors, std::move(extra));
  if (refusal.current_version) r.set(http::field::etag, etag(*refusal.current_version));
  return r;
}

Response refusal_answer(const Exchange& ex, const deciders::Refusal& refusal) {
  return refusal_answer(ex, ex.audience(), refusal);
}

}  // namespace tally::daemon
