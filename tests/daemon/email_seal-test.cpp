// The e-mail seal of registrations (daemon/email_seal.hpp, Q-7): what it seals opens again with
// the same secret and tournament, and with nothing else; the sealed bytes never hold the address.
#include "daemon/email_seal.hpp"

#include <gtest/gtest.h>

namespace tally::daemon {
namespace {

TableKeys keys(unsigned char fill) {
  TableKeys::Secret secret;
  secret.fill(fill);
  return TableKeys(secret);
}

TEST(EmailSeal, OpensWhatItSealedForTheSameTournamentOnly) {
  const EmailSeal seal(keys(7));
  const std::string sealed = seal.seal("cup", "jana@example.org");
  EXPECT_EQ(sealed.size(), 12 + std::string("jana@example.org").size() + 16);
  EXPECT_EQ(sealed.find("jana"), std::string::npos);
  EXPECT_EQ(seal.open("cup", sealed), "jana@example.org");
  EXPECT_EQ(seal.open("other-cup", sealed), std::nullopt);          // the tournament is in the tag
  EXPECT_EQ(EmailSeal(keys(8)).open("cup", sealed), std::nullopt);  // another server's secret
  std::string tampered = sealed;
  tampered[14] ^= 1;
  EXPECT_EQ(seal.open("cup", tampered), std::nullopt);
  EXPECT_EQ(seal.open("cup", "short"), std::nullopt);
}

TEST(EmailSeal, EverySealHasItsOwnNonce) {
  const EmailSeal seal(keys(7));
  EXPECT_NE(seal.seal("cup", "a@b.cz"), seal.seal("cup", "a@b.cz"));
}

}  // namespace
}  // namespace tally::daemon
