// The people who hold tokens: judges, the organizer (a role, not a listed person) and the
// replicas that follow this server — as the `judges` stream's events leave them.
#pragma once

#include "schema/stored_event.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tally::projections {

enum class Role { organizer, judge, replica };

struct Judge {
  std::string id;
  std::string name;
  Role role = Role::judge;
  schema::Digest token_hash{};
  bool revoked = false;
  bool standby = false;  // a replica whose copy counts for replicas_ack
  std::uint64_t added_seq = 0;
};

// The judges and replicas as a command sees them: every one ever added, and the `judges`
// stream's version.
struct Judges {
  const std::vector<Judge>& all;
  std::uint64_t version = 0;

  const Judge* find(std::string_view id) const {
    for (const auto& j : all)
      if (j.id == id) return &j;
    return nullptr;
  }
};

}  // namespace tally::projections
