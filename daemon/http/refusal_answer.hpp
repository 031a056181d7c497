// A decider's refusal as an HTTP answer: the one table from a refusal's kind to the status
// (the problem's `type` stays about:blank), its message and errors rendered for the reader, and
// the ETag of the version it was decided on when it carries one (a failed precondition).
#pragma once

#include "daemon/http/router.hpp"
#include "deciders/decision.hpp"

namespace tally::daemon {

// not_found 404, forbidden 403, conflict 409, precondition 412, unprocessable 422.
http::status status_of(deciders::RefusalKind kind);

// The problem+json of `refusal` for `audience` (ex.audience(t): a tournament's players by
// name), with `extra` members beside the problem's own …
Response refusal_answer(const Exchange& ex, const Audience& audience,
                        const deciders::Refusal& refusal, json::object extra = {});
// … or in the exchange's language, players by id as given.
Response refusal_answer(const Exchange& ex, const deciders::Refusal& refusal);

}  // namespace tally::daemon
