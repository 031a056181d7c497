// The shape every error answer of tallyd has (API.md): problem+json with the status repeated in
// the body, a title and a detail, and the language they are in (Content-Language).
#pragma once

#include "tests/support/http_client.hpp"

#include <gtest/gtest.h>

namespace tally::testing {

inline void expect_problem(const HttpReply& r, int status) {
  EXPECT_EQ(r.status, status) << r.body;
  EXPECT_EQ(r.header("Content-Type"), "application/problem+json") << r.body;
  EXPECT_FALSE(r.header("Content-Language").empty()) << r.body;
  if (r.header("Content-Type") != "application/problem+json") return;
  auto body = r.json();
  EXPECT_EQ(body.at("status"), status);
  EXPECT_TRUE(body.at("title").is_string());
  EXPECT_TRUE(body.at("detail").is_string());
}

}  // namespace tally::testing
