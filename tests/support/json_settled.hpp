// A JSON answer without what changes with the moment it was read: the round clock's
// `server_time` (and, on a running clock, its `remaining_s`, which the moment decides too). For
// tests that compare the state before and after a restart, or in two languages.
#pragma once

#include <boost/json.hpp>

namespace tally::testing {

inline boost::json::value settled(boost::json::value v) {
  if (auto* o = v.if_object()) {
    o->erase("server_time");
    if (auto* state = o->if_contains("state"); state && *state == "running")
      o->erase("remaining_s");
    for (auto& member : *o) member.value() = settled(std::move(member.value()));
  } else if (auto* a = v.if_array()) {
    for (auto& item : *a) item = settled(std::move(item));
  }
  return v;
}

}  // namespace tally::testing
