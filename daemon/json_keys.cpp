#include "daemon/json_keys.hpp"

#include <boost/json/basic_parser_impl.hpp>

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

}  // namespace

std::optional<std::string> first_duplicate_key(std::string_view text) {
  json::parse_options options;
  options.max_depth = 64;
  json::basic_parser<KeyHandler> parser(options);
  error_code ec;
  parser.write_some(false, text.data(), text.size(), ec);
  return parser.handler().duplicate;
}

}  // namespace tally::daemon
