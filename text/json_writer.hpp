#pragma once
// A JSON text written straight into a string, member by member, in exactly the bytes
// Boost.JSON's serializer writes for the same object (no spaces, its escapes, its numbers).
// For the answers written on every request (a table after a write), where building a
// boost::json::object only to serialize it and free it cost more than the rules that computed
// it. Whatever is built as a boost::json::value can still be written with `value()`.
#include <boost/container/small_vector.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace tally::text {

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(out) {}

  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }
  // The name of the next member of the object being written.
  JsonWriter& key(std::string_view name);

  JsonWriter& string(std::string_view text);
  JsonWriter& number(std::int64_t n);
  JsonWriter& number(std::uint64_t n);
  JsonWriter& boolean(bool b);
  JsonWriter& null();
  JsonWriter& value(const boost::json::value& v);  // as boost::json::serialize writes it
  // Text that is already one JSON value (e.g. written by another JsonWriter).
  JsonWriter& raw(std::string_view json);

  // A fraction as a string: "3" when `den` is 1, else "3/2" — written without making the string.
  JsonWriter& fraction_string(std::int64_t num, std::int64_t den);

 private:
  void before_value();
  JsonWriter& open(char bracket);
  JsonWriter& close(char bracket);

  std::string& out_;
  // Per open object or array: nothing written in it yet (an answer nests a few levels deep).
  boost::container::small_vector<bool, 16> first_;
  bool after_key_ = false;
};

// A string as Boost.JSON writes it: quoted, with its escapes.
void append_json_string(std::string& out, std::string_view text);

}  // namespace tally::text
