// The strict JSON → Cap'n Proto codec (schema/json_codec.*): bytes → a payload kind (the first
// byte) and a JSON body (the rest, parsed with the daemon's limits) → decode_payload → encode.
// Invariants, for a body that decodes without errors: its encoding decodes again without errors
// and encodes to the same JSON (a fixed point); every member the body gave is in the encoding with
// the same value (hex Data may change case); the codec never throws. A refused body reports
// every error with a message.
#include "schema/json_codec.hpp"
#include "tests/fuzz/fuzz_support.hpp"

#include <capnp/message.h>

#include <cctype>

namespace {

using namespace tally;
namespace json = boost::json;
using Which = schema::Event::Payload::Which;

bool same_hex(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// Whether everything `given` says is in `encoded` (null members of `given` mean "absent").
bool covers(const json::value& encoded, const json::value& given) {
  if (given.is_object()) {
    if (!encoded.is_object()) return false;
    for (const auto& [key, value] : given.as_object()) {
      if (value.is_null()) continue;
      const json::value* e = encoded.as_object().if_contains(key);
      if (e == nullptr || !covers(*e, value)) return false;
    }
    return true;
  }
  if (given.is_array()) {
    if (!encoded.is_array() || encoded.as_array().size() != given.as_array().size()) return false;
    for (std::size_t i = 0; i < given.as_array().size(); ++i) {
      if (!covers(encoded.as_array()[i], given.as_array()[i])) return false;
    }
    return true;
  }
  if (given.is_string() && encoded.is_string()) {
    return given == encoded || same_hex(given.as_string(), encoded.as_string());
  }
  return given == encoded;
}

// Decodes `body` as `kind`; the payload's JSON when it decodes without errors.
std::optional<json::value> round_trip(const json::value& body, Which kind) {
  capnp::MallocMessageBuilder message;
  auto event = message.initRoot<schema::Event>();
  auto errors = schema::decode_payload(body, event.getPayload(), kind);
  for (const auto& e : errors) FUZZ_CHECK(!e.message.empty());
  if (!errors.empty()) return std::nullopt;
  auto payload = capnp::toDynamic(event.asReader().getPayload());
  KJ_IF_MAYBE (field, payload.which()) {
    FUZZ_CHECK(field->getProto().getDiscriminantValue() == static_cast<std::uint16_t>(kind));
    if (field->getType().isVoid()) return json::value(nullptr);
    return json::value(schema::encode(payload.get(*field).as<capnp::DynamicStruct>()));
  }
  FUZZ_CHECK(false);
  return std::nullopt;
}

constexpr auto kKinds = static_cast<std::uint16_t>(Which::VOID) + 1;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  auto kind = static_cast<Which>(data[0] % kKinds);
  auto body = fuzz::parse_json(fuzz::as_text(data + 1, size - 1));
  if (!body) return 0;
  auto encoded = round_trip(*body, kind);
  if (!encoded || kind == Which::VOID) return 0;
  FUZZ_CHECK(covers(*encoded, *body));
  auto again = round_trip(*encoded, kind);
  FUZZ_CHECK(again.has_value());
  FUZZ_CHECK(*again == *encoded);
  (void)schema::payload_type(kind);
  return 0;
}
