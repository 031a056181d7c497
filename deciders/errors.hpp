// The errors of the lower layers as a refusal's errors: the codec's structural ones (rule
// "schema", with "path") and a game's rule errors (with "accepted" where the rule names
// alternatives).
#pragma once

#include "deciders/decision.hpp"
#include "projections/game.hpp"
#include "schema/json_codec.hpp"

#include <vector>

namespace tally::deciders {

std::vector<RefusalError> schema_errors(const std::vector<schema::FieldError>& errors);
std::vector<RefusalError> rule_errors(const projections::RuleErrors& errors);

}  // namespace tally::deciders
