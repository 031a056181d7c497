#include "daemon/http/json_keys.hpp"

#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/value_stack.hpp>

#include <algorithm>
#include <vector>

namespace tally::daemon {

namespace {

namespace json = boost::json;
using json::error_code;
using json::string_view;

// Only the member names matter: one list of names per object being read. Bodies are small
// (64 KiB at most), so a list searched from the start is cheaper than a set.
struct KeyHandler {
  static constexpr std::size_t max_object_size = std::size_t(-1);
  static constexpr std::size_t max_array_size = std::size_t(-1);
  static constexpr std::size_t max_key_size = std::size_t(-1);
  static constexpr std::size_t max_string_size = std::size_t(-1);

  std::vector<std::vector<std::string>> objects;
  std::string key;
  std::optional<std::string> duplicate;

  bool on_document_begin(error_code&) { return true; }
  bool on_document_end(error_code&) { return true; }
  bool on_object_begin(error_code&) {
    objects.emplace_back();
    return true;
  }
  bool on_object_end(std::size_t, error_code&) {
    objects.pop_back();
    return true;
  }
  bool on_array_begin(error_code&) { return true; }
  bool on_array_end(std::size_t, error_code&) { return true; }
  bool on_key_part(string_view s, std::size_t, error_code&) {
    key.append(s.data(), s.size());
    return true;
  }
  bool on_key(string_view s, std::size_t, error_code& ec) {
    key.append(s.data(), s.size());
    auto& names = objects.back();
    if (std::find(names.begin(), names.end(), key) != names.end()) {
      duplicate = key;
      ec = json::error::syntax;  // stops the parse: the first one is enough
      return false;
    }
    names.push_back(std::move(key));
    key.clear();
    return true;
  }
  bool on_string_part(string_view, std::size_t, error_code&) { return true; }
  bool on_string(string_view, std::size_t, error_code&) { return true; }
  bool on_number_part(string_view, error_code&) { return true; }
  bool on_int64(std::int64_t, string_view, error_code&) { return true; }
  bool on_uint64(std::uint64_t, string_view, error_code&) { return true; }
  bool on_double(double, string_view, error_code&) { return true; }
  bool on_bool(bool, error_code&) { return true; }
  bool on_null(error_code&) { return true; }
  bool on_comment_part(string_view, error_code&) { return true; }
  bool on_comment(string_view, error_code&) { return true; }
};

// Builds the value as Boost.JSON's own parser does (its detail::handler, over a value_stack) and
// notes each object's member count as read, in the order the objects begin (document order).
struct CountingHandler {
  static constexpr std::size_t max_object_size = json::object::max_size();
  static constexpr std::size_t max_array_size = json::array::max_size();
  static constexpr std::size_t max_key_size = json::string::max_size();
  static constexpr std::size_t max_string_size = json::string::max_size();

  CountingHandler(json::storage_ptr sp, unsigned char* buffer, std::size_t size)
      : st(std::move(sp), buffer, size) {}

  json::value_stack st;
  std::vector<std::size_t> members_read;  // per object, in document order
  std::vector<std::size_t> open;          // indexes into members_read of the objects being read

  bool on_document_begin(error_code&) { return true; }
  bool on_document_end(error_code&) { return true; }
  bool on_object_begin(error_code&) {
    open.push_back(members_read.size());
    members_read.push_back(0);
    return true;
  }
  bool on_object_end(std::size_t n, error_code&) {
    members_read[open.back()] = n;
    open.pop_back();
    st.push_object(n);
    return true;
  }
  bool on_array_begin(error_code&) { return true; }
  bool on_array_end(std::size_t n, error_code&) {
    st.push_array(n);
    return true;
  }
  bool on_key_part(string_view s, std::size_t, error_code&) {
    st.push_chars(s);
    return true;
  }
  bool on_key(string_view s, std::size_t, error_code&) {
    st.push_key(s);
    return true;
  }
  bool on_string_part(string_view s, std::size_t, error_code&) {
    st.push_chars(s);
    return true;
  }
  bool on_string(string_view s, std::size_t, error_code&) {
    st.push_string(s);
    return true;
  }
  bool on_number_part(string_view, error_code&) { return true; }
  bool on_int64(std::int64_t i, string_view, error_code&) {
    st.push_int64(i);
    return true;
  }
  bool on_uint64(std::uint64_t u, string_view, error_code&) {
    st.push_uint64(u);
    return true;
  }
  bool on_double(double d, string_view, error_code&) {
    st.push_double(d);
    return true;
  }
  bool on_bool(bool b, error_code&) {
    st.push_bool(b);
    return true;
  }
  bool on_null(error_code&) {
    st.push_null();
    return true;
  }
  bool on_comment_part(string_view, error_code&) { return true; }
  bool on_comment(string_view, error_code&) { return true; }
};

// Whether some object of `v` lost a member to a repeated name: walked in document order (an
// object before its members), so the first object that differs is met before anything that
// the dropped member held could shift the counts after it.
bool lost_a_member(const json::value& v, const std::vector<std::size_t>& members_read,
                   std::size_t& next) {
  if (const auto* object = v.if_object()) {
    if (next >= members_read.size() || object->size() != members_read[next++]) return true;
    for (const auto& member : *object) {
      if (lost_a_member(member.value(), members_read, next)) return true;
    }
  } else if (const auto* array = v.if_array()) {
    for (const auto& element : *array) {
      if (lost_a_member(element, members_read, next)) return true;
    }
  }
  return false;
}

}  // namespace

ParsedJson parse_json_checking_keys(std::string_view text, std::size_t max_depth) {
  json::parse_options options;
  options.max_depth = max_depth;
  unsigned char temp[BOOST_JSON_STACK_BUFFER_SIZE];
  json::basic_parser<CountingHandler> parser(options, json::storage_ptr(), temp, sizeof temp);
  parser.handler().st.reset();
  ParsedJson out;
  std::size_t used = parser.write_some(false, text.data(), text.size(), out.error);
  if (!out.error && used < text.size()) out.error = json::error::extra_data;
  if (out.error) return out;
  out.value = parser.handler().st.release();
  std::size_t next = 0;
  if (lost_a_member(out.value, parser.handler().members_read, next)) {
    out.duplicate = first_duplicate_key(text);
  }
  return out;
}

std::optional<std::string> first_duplicate_key(std::string_view text) {
  json::parse_options options;
  options.max_depth = 64;
  json::basic_parser<KeyHandler> parser(options);
  error_code ec;
  parser.write_some(false, text.data(), text.size(), ec);
  return parser.handler().duplicate;
}

}  // namespace tally::daemon
