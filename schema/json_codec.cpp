#include "schema/json_codec.hpp"

#include "encoding/hex.hpp"
#include "text/json_object_reader.hpp"

#include <capnp/schema.h>
#include <boost/json.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <unordered_map>
#include <utility>

namespace tally::schema {
namespace {

namespace json = boost::json;

// The ids of the annotations declared in tally.capnp (kept in step by the codec's tests, which
// fail when an annotation stops being recognised).
constexpr std::uint64_t kOptional = 0x980dfb2193959f90ull;
constexpr std::uint64_t kBoxed = 0xd07b92cb08ff8ee0ull;
constexpr std::uint64_t kJsonText = 0x995a8e5d8dbe54c3ull;
constexpr std::uint64_t kTableAction = 0x9df1c80cb133fe04ull;
constexpr std::uint64_t kTableResult = 0xf8d0b1a4a8fef951ull;

bool has_annotation(capnp::List<capnp::schema::Annotation>::Reader annotations, std::uint64_t id) {
  for (auto a : annotations) {
    if (a.getId() == id) return true;
  }
  return false;
}

bool is_optional(capnp::StructSchema::Field field) {
  return has_annotation(field.getProto().getAnnotations(), kOptional);
}

bool is_json_text(capnp::StructSchema::Field field) {
  return has_annotation(field.getProto().getAnnotations(), kJsonText);
}

bool is_boxed(capnp::StructSchema schema) {
  return has_annotation(schema.getProto().getAnnotations(), kBoxed) &&
         schema.getFields().size() == 1;
}

std::string_view view(kj::StringPtr s) { return {s.cStr(), s.size()}; }

// A field's JSON name, made once per field and thread: every body decoded and every event encoded
// asks for it per member. The schema's name text lives as long as the program (compiled-in
// schemas), so its address is the key.
const std::string& json_name_of(capnp::StructSchema::Field field) {
  thread_local std::unordered_map<const char*, std::string> names;
  kj::StringPtr name = field.getProto().getName();
  auto [it, added] = names.try_emplace(name.cStr());
  if (added) it->second = json_name(view(name));
  return it->second;
}

// What the decoder needs of a struct's fields, read once per struct and thread: finding the
// field a member names, and what its annotations say, otherwise walks the schema again for every
// member of every body.
struct FieldInfo {
  std::string_view json;  // its JSON name (json_name_of's text, kept as long as the thread)
  capnp::StructSchema::Field field;
  bool optional;
  bool json_text;
  bool group;
};

struct StructFields {
  std::vector<FieldInfo> all;        // in the schema's order
  std::vector<FieldInfo> non_union;  // required unless $optional
  std::vector<FieldInfo> in_union;   // exactly one of them
};

FieldInfo field_info(capnp::StructSchema::Field field) {
  return {json_name_of(field), field, is_optional(field), is_json_text(field),
          field.getProto().isGroup()};
}

const StructFields& fields_of(capnp::StructSchema schema) {
  thread_local std::unordered_map<std::uint64_t, StructFields> tables;
  auto [it, added] = tables.try_emplace(schema.getProto().getId());
  if (added) {
    for (auto field : schema.getFields()) it->second.all.push_back(field_info(field));
    for (auto field : schema.getNonUnionFields()) it->second.non_union.push_back(field_info(field));
    for (auto field : schema.getUnionFields()) it->second.in_union.push_back(field_info(field));
  }
  return it->second;
}

// An enum's choices by JSON name, once per enum and thread.
const std::vector<std::pair<std::string, capnp::EnumSchema::Enumerant>>& enumerants_of(
    capnp::EnumSchema schema) {
  thread_local std::unordered_map<std::uint64_t,
                                  std::vector<std::pair<std::string, capnp::EnumSchema::Enumerant>>>
      tables;
  auto [it, added] = tables.try_emplace(schema.getProto().getId());
  if (added) {
    for (auto e : schema.getEnumerants()) {
      it->second.emplace_back(json_name(view(e.getProto().getName())), e);
    }
  }
  return it->second;
}

// A callable passed down and called before the call returns, without std::function's copy (or
// its allocation, when the lambda holds more than two references).
template <typename Signature>
class CallbackRef;

template <typename R, typename... Args>
class CallbackRef<R(Args...)> {
 public:
  template <typename F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, CallbackRef>)
      CallbackRef(F&& f)  // NOLINT: converts from any callable, as std::function does
      : object_(const_cast<void*>(static_cast<const void*>(&f))),
        call_([](void* object, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(object))(std::forward<Args>(args)...);
        }) {}
  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void* object_;
  R (*call_)(void*, Args...);
};

std::string enumerant_list(capnp::EnumSchema schema) {
  std::string out;
  for (auto e : schema.getEnumerants()) {
    if (!out.empty()) out += ", ";
    out += json_name(view(e.getProto().getName()));
  }
  return out;
}

struct IntRange {
  std::int64_t min;
  std::uint64_t max;
};

std::optional<IntRange> int_range(capnp::schema::Type::Which which) {
  using W = capnp::schema::Type::Which;
  switch (which) {
    case W::INT8:
      return IntRange{INT8_MIN, INT8_MAX};
    case W::INT16:
      return IntRange{INT16_MIN, INT16_MAX};
    case W::INT32:
      return IntRange{INT32_MIN, INT32_MAX};
    case W::INT64:
      return IntRange{INT64_MIN, INT64_MAX};
    case W::UINT8:
      return IntRange{0, UINT8_MAX};
    case W::UINT16:
      return IntRange{0, UINT16_MAX};
    case W::UINT32:
      return IntRange{0, UINT32_MAX};
    case W::UINT64:
      return IntRange{0, UINT64_MAX};
    default:
      return std::nullopt;
  }
}

bool is_unsigned(capnp::schema::Type::Which which) {
  using W = capnp::schema::Type::Which;
  return which == W::UINT8 || which == W::UINT16 || which == W::UINT32 || which == W::UINT64;
}

bool is_pointer(capnp::Type type) {
  using W = capnp::schema::Type::Which;
  switch (type.which()) {
    case W::TEXT:
    case W::DATA:
    case W::LIST:
    case W::STRUCT:
    case W::INTERFACE:
    case W::ANY_POINTER:
      return true;
    default:
      return false;
  }
}

// Walks a JSON value and a schema together, writing into a builder and collecting errors.
class Decoder {
 public:
  std::vector<FieldError> errors;

  void decode_struct(const json::value& in, capnp::DynamicStruct::Builder out) {
    if (!in.is_object()) {
      fail(text::wrong_kind("json.expected.object", in));
      return;
    }
    decode_struct(in.as_object(), out);
  }

  void decode_struct(const json::object& obj, capnp::DynamicStruct::Builder out) {
    const StructFields& fields = fields_of(out.getSchema());
    std::string_view saved_player = player_;
    if (auto it = obj.find("player"); it != obj.end() && it->value().is_string()) {
      player_ = it->value().as_string();
    }

    // Every member must name a field.
    for (const auto& member : obj) {
      if (!find_field(fields, member.key())) {
        with_member(member.key(), [&] { fail(i18n::Message("json.not_a_field")); });
      }
    }

    // Every field outside a union: required unless $optional.
    for (const FieldInfo& field : fields.non_union) {
      decode_field(obj, field, out);
    }

    // A union: exactly one of its members.
    if (!fields.in_union.empty()) {
      const FieldInfo* present = nullptr;
      std::size_t count = 0;
      for (const FieldInfo& field : fields.in_union) {
        if (obj.contains(field.json)) {
          present = &field;
          ++count;
        }
      }
      if (count == 1) {
        decode_field(obj, *present, out);
      } else {
        std::string names;
        for (const FieldInfo& field : fields.in_union) {
          if (!names.empty()) names += ", ";
          names += field.json;
        }
        fail(i18n::Message("schema.union_one_of", {{"members", names}}));
      }
    }
    player_ = saved_player;
  }

 private:
  // Where the decoder is, for the errors: the path grows and shrinks as a stack; the field and the
  // player are views of the body's keys and strings (or of the field names kept per thread), which
  // outlive the decoding.
  std::string path_;
  std::string_view field_;
  std::string_view player_;

  template <typename F>
  void with_member(std::string_view name, F&& body) {
    std::size_t mark = path_.size();
    std::string_view saved_field = field_;
    if (!path_.empty()) path_ += '.';
    path_ += name;
    field_ = name;
    body();
    path_.resize(mark);
    field_ = saved_field;
  }

  template <typename F>
  void with_index(std::size_t i, F&& body) {
    std::size_t mark = path_.size();
    path_ += '[';
    path_ += std::to_string(i);
    path_ += ']';
    body();
    path_.resize(mark);
  }

  void fail(i18n::Message message) {
    errors.push_back({path_, std::string(field_), std::string(player_), std::move(message)});
  }

  // A JSON-text member is stored as Boost.JSON writes it back and read again with Boost.JSON.
  // A number with more digits than a double holds does not survive that: Boost 1.81 parses a
  // long mantissa to a neighbouring double, and its own shortest output then reads back as
  // another (found by fuzz-event-json: 2999…9 with 70 digits read back as 3E69, one double
  // apart). A number beyond a double's range (4e99999) is read as infinity, which Boost writes
  // as `Infinity`, not JSON at all. Both are refused with their path rather than stored as a
  // number nobody sent, or as text that no longer parses.
  void check_numbers_survive(const json::value& v) {
    if (v.is_double()) {
      if (!std::isfinite(v.as_double())) {
        fail(i18n::Message("schema.number_too_large"));
        return;
      }
      boost::system::error_code ec;
      json::value again = json::parse(json::serialize(v), ec);
      if (ec || again != v) fail(i18n::Message("schema.number_too_precise"));
    } else if (v.is_array()) {
      const auto& array = v.as_array();
      for (std::size_t i = 0; i < array.size(); ++i) {
        with_index(i, [&] { check_numbers_survive(array[i]); });
      }
    } else if (v.is_object()) {
      for (const json::key_value_pair& member : v.as_object()) {
        with_member(member.key(), [&] { check_numbers_survive(member.value()); });
      }
    }
  }

  static const FieldInfo* find_field(const StructFields& fields, std::string_view json_key) {
    for (const FieldInfo& field : fields.all) {
      if (field.json == json_key) return &field;
    }
    return nullptr;
  }

  void decode_field(const json::object& obj, const FieldInfo& info,
                    capnp::DynamicStruct::Builder out) {
    capnp::StructSchema::Field field = info.field;
    auto it = obj.find(info.json);
    bool absent = it == obj.end() || it->value().is_null();
    with_member(info.json, [&] {
      if (absent) {
        if (!info.optional) fail(i18n::Message("json.required"));
        return;
      }
      const json::value& v = it->value();
      if (info.group) {
        decode_struct(v, out.get(field).as<capnp::DynamicStruct>());
        return;
      }
      if (info.json_text) {
        if (!v.is_object()) {
          fail(text::wrong_kind("json.expected.object", v));
          return;
        }
        std::size_t errors_before = errors.size();
        check_numbers_survive(v);
        if (errors.size() != errors_before) return;
        std::string text = json::serialize(v);
        out.set(field, capnp::Text::Reader(text.c_str(), text.size()));
        return;
      }
      decode_value(
          v, field.getType(), [&](const capnp::DynamicValue::Reader& r) { out.set(field, r); },
          [&](std::optional<unsigned> size) {
            return size ? out.init(field, *size) : out.init(field);
          });
    });
  }

  // Where a decoded value goes: `set` stores a scalar; `init` makes a struct (no size) or a list
  // (with size) in place. Type-erased: the recursion would otherwise instantiate without end.
  using Setter = CallbackRef<void(const capnp::DynamicValue::Reader&)>;
  using Initializer = CallbackRef<capnp::DynamicValue::Builder(std::optional<unsigned>)>;

  void decode_value(const json::value& v, capnp::Type type, Setter set, Initializer init) {
    using W = capnp::schema::Type::Which;
    switch (type.which()) {
      case W::VOID:
        if (!v.is_null()) fail(i18n::Message("schema.expected.null"));
        return;
      case W::BOOL:
        if (!v.is_bool()) return fail(text::wrong_kind("json.expected.boolean", v));
        set(v.as_bool());
        return;
      case W::INT8:
      case W::INT16:
      case W::INT32:
      case W::INT64:
      case W::UINT8:
      case W::UINT16:
      case W::UINT32:
      case W::UINT64:
        decode_integer(v, *int_range(type.which()), is_unsigned(type.which()), set);
        return;
      case W::FLOAT32:
      case W::FLOAT64:
        // Points are exact: the schema has no floating-point fields.
        fail(i18n::Message("schema.no_floating_point"));
        return;
      case W::TEXT: {
        if (!v.is_string()) return fail(text::wrong_kind("json.expected.string", v));
        const json::string& s = v.as_string();
        if (s.find('\0') != json::string::npos) return fail(i18n::Message("json.no_nul"));
        set(capnp::Text::Reader(s.c_str(), s.size()));
        return;
      }
      case W::DATA: {
        if (!v.is_string()) return fail(text::wrong_kind("schema.expected.hex", v));
        auto bytes = from_hex(v.as_string());
        if (!bytes) return fail(i18n::Message("schema.hex_digits"));
        set(capnp::Data::Reader(bytes->data(), bytes->size()));
        return;
      }
      case W::ENUM: {
        auto schema = type.asEnum();
        if (v.is_string()) {
          for (const auto& [name, e] : enumerants_of(schema)) {
            if (name == std::string_view(v.as_string())) {
              set(capnp::DynamicEnum(e));
              return;
            }
          }
        }
        fail(text::not_one_of(enumerant_list(schema), v));
        return;
      }
      case W::STRUCT: {
        auto schema = type.asStruct();
        if (is_boxed(schema)) {
          auto inner = *schema.getFields().begin();
          auto builder = init(std::nullopt).as<capnp::DynamicStruct>();
          decode_value(
              v, inner.getType(),
              [&](const capnp::DynamicValue::Reader& r) { builder.set(inner, r); },
              [&](std::optional<unsigned> size) {
                return size ? builder.init(inner, *size) : builder.init(inner);
              });
          return;
        }
        if (!v.is_object()) return fail(text::wrong_kind("json.expected.object", v));
        decode_struct(v, init(std::nullopt).as<capnp::DynamicStruct>());
        return;
      }
      case W::LIST: {
        if (!v.is_array()) return fail(text::wrong_kind("json.expected.array", v));
        const json::array& arr = v.as_array();
        auto list = init(static_cast<unsigned>(arr.size())).as<capnp::DynamicList>();
        auto element = type.asList().getElementType();
        for (unsigned i = 0; i < arr.size(); ++i) {
          with_index(i, [&] {
            if (element.which() == W::STRUCT && !is_boxed(element.asStruct())) {
              if (!arr[i].is_object()) {
                return fail(text::wrong_kind("json.expected.object", arr[i]));
              }
              decode_struct(arr[i], list[i].as<capnp::DynamicStruct>());
              return;
            }
            decode_value(
                arr[i], element, [&](const capnp::DynamicValue::Reader& r) { list.set(i, r); },
                [&](std::optional<unsigned> size) -> capnp::DynamicValue::Builder {
                  if (!size) return list[i];  // a boxed struct lives inside the list
                  return list.init(i, *size);
                });
          });
        }
        return;
      }
      case W::INTERFACE:
      case W::ANY_POINTER:
        fail(i18n::Message("schema.not_json"));
        return;
    }
  }

  void decode_integer(const json::value& v, IntRange range, bool unsigned_field, Setter set) {
    // The bounds of the field's type, shown as they are: they are not quantities, and a uint64's
    // maximum does not fit a message's integer.
    auto out_of_range = [&](std::optional<i18n::Term> actual = std::nullopt) {
      i18n::Message m(actual ? "schema.integer_range_not" : "schema.integer_range",
                      {{"min", std::to_string(range.min)}, {"max", std::to_string(range.max)}});
      if (actual) m.with("actual", *actual);
      fail(std::move(m));
    };
    if (v.is_int64()) {
      std::int64_t n = v.as_int64();
      if (n < range.min || (n >= 0 && static_cast<std::uint64_t>(n) > range.max)) {
        return out_of_range();
      }
      if (unsigned_field) {
        set(static_cast<std::uint64_t>(n));
      } else {
        set(n);
      }
      return;
    }
    if (v.is_uint64()) {
      std::uint64_t n = v.as_uint64();
      if (n > range.max) return out_of_range();
      set(n);
      return;
    }
    if (v.is_double()) return out_of_range(text::json_kind(v));
    fail(text::wrong_kind("json.expected.integer", v));
  }

  static std::optional<std::vector<kj::byte>> from_hex(std::string_view hex) {
    if (hex.size() % 2 != 0) return std::nullopt;
    auto digit = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      return -1;
    };
    std::vector<kj::byte> out;
    out.reserve(hex.size() / 2);
    for (std::size_t i = 0; i < hex.size(); i += 2) {
      int hi = digit(hex[i]), lo = digit(hex[i + 1]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out.push_back(static_cast<kj::byte>(hi * 16 + lo));
    }
    return out;
  }
};

json::value encode_value(capnp::DynamicValue::Reader v, capnp::Type type);

json::value encode_field(capnp::DynamicStruct::Reader in, capnp::StructSchema::Field field) {
  if (is_json_text(field)) {
    auto text = in.get(field).as<capnp::Text>();
    if (text.size() == 0) return json::object();
    return json::parse(std::string_view(text.cStr(), text.size()));
  }
  if (field.getProto().isGroup()) return encode(in.get(field).as<capnp::DynamicStruct>());
  return encode_value(in.get(field), field.getType());
}

json::value encode_value(capnp::DynamicValue::Reader v, capnp::Type type) {
  using W = capnp::schema::Type::Which;
  switch (type.which()) {
    case W::VOID:
      return nullptr;
    case W::BOOL:
      return v.as<bool>();
    case W::INT8:
    case W::INT16:
    case W::INT32:
    case W::INT64:
      return v.as<std::int64_t>();
    case W::UINT8:
    case W::UINT16:
    case W::UINT32:
    case W::UINT64:
      return v.as<std::uint64_t>();
    case W::FLOAT32:
    case W::FLOAT64:
      return nullptr;  // the schema has none (see decode)
    case W::TEXT: {
      auto t = v.as<capnp::Text>();
      return json::string(t.cStr(), t.size());
    }
    case W::DATA:
      return json::string(to_hex(v.as<capnp::Data>()));
    case W::ENUM: {
      auto e = v.as<capnp::DynamicEnum>().getEnumerant();
      KJ_IF_MAYBE (known, e) {
        return json::string(json_name(view(known->getProto().getName())));
      }
      return v.as<capnp::DynamicEnum>().getRaw();  // written by a newer schema
    }
    case W::STRUCT: {
      auto s = v.as<capnp::DynamicStruct>();
      if (is_boxed(s.getSchema())) {
        auto inner = *s.getSchema().getFields().begin();
        return encode_value(s.get(inner), inner.getType());
      }
      return encode(s);
    }
    case W::LIST: {
      json::array out;
      auto list = v.as<capnp::DynamicList>();
      auto element = type.asList().getElementType();
      out.reserve(list.size());
      for (auto item : list) out.push_back(encode_value(item, element));
      return out;
    }
    case W::INTERFACE:
    case W::ANY_POINTER:
      return nullptr;
  }
  return nullptr;
}

}  // namespace

std::string json_name(std::string_view capnp_name) {
  std::string out;
  out.reserve(capnp_name.size() + 4);
  for (char c : capnp_name) {
    if (c >= 'A' && c <= 'Z') {
      out += '_';
      out += static_cast<char>(c - 'A' + 'a');
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<FieldError> decode(const boost::json::value& in, capnp::DynamicStruct::Builder out) {
  Decoder decoder;
  decoder.decode_struct(in, out);
  return std::move(decoder.errors);
}

namespace {

// `Body`: a json::value (which must be an object) or, without a copy, a json::object.
template <typename Body>
std::vector<FieldError> decode_payload_from(const Body& body, Event::Payload::Builder payload,
                                            Event::Payload::Which kind) {
  auto dynamic = capnp::toDynamic(payload);
  KJ_IF_MAYBE (field,
               dynamic.getSchema().getFieldByDiscriminant(static_cast<std::uint16_t>(kind))) {
    if (field->getType().isVoid()) {
      dynamic.set(*field, capnp::VOID);
      return {};
    }
    Decoder decoder;
    decoder.decode_struct(body, dynamic.init(*field).as<capnp::DynamicStruct>());
    return std::move(decoder.errors);
  }
  return {FieldError{"", "", "", i18n::Message("schema.unknown_payload")}};
}

}  // namespace

std::vector<FieldError> decode_payload(const boost::json::value& body,
                                       Event::Payload::Builder payload,
                                       Event::Payload::Which kind) {
  return decode_payload_from(body, payload, kind);
}

std::vector<FieldError> decode_payload(const boost::json::object& body,
                                       Event::Payload::Builder payload,
                                       Event::Payload::Which kind) {
  return decode_payload_from(body, payload, kind);
}

namespace {

// What the annotations say of each payload member, by discriminant: read once (replay asks for
// every event).
struct PayloadRoles {
  std::vector<bool> table_action;
  std::vector<bool> table_result;

  PayloadRoles() {
    auto schema = capnp::Schema::from<Event::Payload>();
    for (auto field : schema.getUnionFields()) {
      std::size_t d = field.getProto().getDiscriminantValue();
      if (d >= table_action.size()) {
        table_action.resize(d + 1);
        table_result.resize(d + 1);
      }
      table_action[d] = has_annotation(field.getProto().getAnnotations(), kTableAction);
      table_result[d] = has_annotation(field.getProto().getAnnotations(), kTableResult);
    }
  }
};

const PayloadRoles& payload_roles() {
  static const PayloadRoles roles;
  return roles;
}

}  // namespace

bool is_table_action(Event::Payload::Which kind) {
  const auto& roles = payload_roles().table_action;
  auto d = static_cast<std::size_t>(kind);
  return d < roles.size() && roles[d];
}

bool is_table_result(Event::Payload::Which kind) {
  const auto& roles = payload_roles().table_result;
  auto d = static_cast<std::size_t>(kind);
  return d < roles.size() && roles[d];
}

std::string payload_type(Event::Payload::Which kind) {
  auto schema = capnp::Schema::from<Event::Payload>();
  KJ_IF_MAYBE (field, schema.getFieldByDiscriminant(static_cast<std::uint16_t>(kind))) {
    return json_name_of(*field);
  }
  return "unknown";
}

boost::json::object encode(capnp::DynamicStruct::Reader in) {
  json::object out;
  auto schema = in.getSchema();
  for (auto field : schema.getNonUnionFields()) {
    bool pointer =
        !field.getProto().isGroup() && is_pointer(field.getType()) && !is_json_text(field);
    if (pointer && is_optional(field) && !in.has(field)) continue;
    out[json_name_of(field)] = encode_field(in, field);
  }
  KJ_IF_MAYBE (active, in.which()) {
    out[json_name(view(active->getProto().getName()))] = encode_field(in, *active);
  }
  return out;
}

std::string to_hex(kj::ArrayPtr<const kj::byte> bytes) {
  return encoding::hex_encode(std::span(bytes.begin(), bytes.size()));
}

}  // namespace tally::schema
