// JSON ⇄ Cap'n Proto, driven by the schema in tally.capnp, so that the API's field names live in
// one place. Cap'n Proto's own JsonCodec ignores missing fields and reports a wrong type as an
// exception without the field's path; requests need every problem reported at once, by field, so
// this codec walks the same schema through Cap'n Proto's reflection instead.
//
// Mapping: field `vpCards` ⇄ member "vp_cards"; enumerant `greyjoy` ⇄ "greyjoy"; Data ⇄ lowercase
// hex; a union ⇄ the one member that is set; `$boxed` structs ⇄ their single value; `$jsonText`
// Text ⇄ the JSON document it holds. Every field is required unless annotated `$optional`.
//
// Thread safety: stateless free functions; safe to call from any thread.
#pragma once

#include "i18n/message.hpp"

#include "schema/tally.capnp.h"

#include <capnp/dynamic.h>
#include <kj/common.h>
#include <boost/json/value.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace tally::schema {

// One problem found while decoding a request, for a problem+json `errors` entry.
struct FieldError {
  std::string path;     // where: "players[2].vp_cards" (empty for the whole body)
  std::string field;    // the member at fault: "vp_cards"
  std::string player;   // the `player` of the enclosing object, when it has one
  i18n::Message message;  // what is wrong, e.g. "is required", in the reader's language
};

// `vpCards` → `vp_cards`.
std::string json_name(std::string_view capnp_name);

// Fills `out` from `in` (which must be an object). Unknown members, missing required members,
// wrong types and integers outside the field's type are all reported; decoding goes on after an
// error so that one answer lists every problem. Returns an empty vector on success.
std::vector<FieldError> decode(const boost::json::value& in, capnp::DynamicStruct::Builder out);

template <typename T>
std::vector<FieldError> decode(const boost::json::value& in, typename T::Builder out) {
  return decode(in, capnp::toDynamic(out));
}

// Sets the event's payload to the member `kind` and decodes `body` into it. (The object overload
// saves a request's body the deep copy a conversion to json::value would make.)
std::vector<FieldError> decode_payload(const boost::json::object& body,
                                       Event::Payload::Builder payload, Event::Payload::Which kind);
std::vector<FieldError> decode_payload(const boost::json::value& body,
                                       Event::Payload::Builder payload, Event::Payload::Which kind);

// What tally.capnp's annotations say of a payload kind: an action at a table ($tableAction), a
// game's result of a table ($tableResult). The core folds tables by these, naming no game.
bool is_table_action(Event::Payload::Which kind);
bool is_table_result(Event::Payload::Which kind);

// The JSON name of a payload kind, the event `type` of the API: CATAN_RESULT → "catan_result".
std::string payload_type(Event::Payload::Which kind);

// The JSON form of a struct (always an object).
boost::json::object encode(capnp::DynamicStruct::Reader in);

template <typename Reader>
boost::json::object encode_struct(Reader in) {
  return encode(capnp::toDynamic(in));
}

// Lowercase hex of bytes, e.g. a hash.
std::string to_hex(kj::ArrayPtr<const kj::byte> bytes);

}  // namespace tally::schema
