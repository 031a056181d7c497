#include "deciders/errors.hpp"

namespace tally::deciders {

std::vector<RefusalError> schema_errors(const std::vector<schema::FieldError>& errors) {
  std::vector<RefusalError> out;
  for (const auto& e : errors) {
    RefusalError entry{"schema", e.player, e.field, e.message};
    if (!e.path.empty()) entry.extra["path"] = e.path;
    out.push_back(std::move(entry));
  }
  return out;
}

std::vector<RefusalError> rule_errors(const projections::RuleErrors& errors) {
  std::vector<RefusalError> out;
  for (const auto& e : errors) {
    RefusalError entry{e.rule, e.player, e.field, e.message};
    if (!e.alternatives.empty()) {
      boost::json::array accepted;
      for (const auto& a : e.alternatives) accepted.emplace_back(a);
      entry.extra["accepted"] = std::move(accepted);
    }
    out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace tally::deciders
