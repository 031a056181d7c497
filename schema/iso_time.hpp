// An event's time (microseconds since the epoch, UTC) as people and the API read it:
// "2026-12-07T14:32:05.123Z".
#pragma once

#include <cstdint>
#include <string>

namespace tally::schema {

std::string iso_time(std::int64_t micros);

}  // namespace tally::schema
