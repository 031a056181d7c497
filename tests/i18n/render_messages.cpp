// The server's rendering of message patterns, for comparing with the pages' own MessageFormat
// interpreter (client/web/static/i18n.js; tests/browser/icu.test.mjs drives both):
//
//   i18n-render-messages LOCALE_DIR CASES.json
//
// LOCALE_DIR holds the pages' catalogs ({en,cs,it,ru}.json, key → ICU MessageFormat pattern);
// they are loaded as the area "pages" of a tally::i18n::Catalogs, the class that renders every
// server text with ICU's MessageFormat. CASES.json is an array of {"lang","key","args"}, each
// argument a number, a string or an array of strings (a list of names); numbers with no fraction
// are passed as integers, as the server's Messages pass counts. Prints a JSON array with the
// text of each case, in order. Exit status 2 on a usage or input error.
#include "i18n/catalog.hpp"

#include <boost/json.hpp>

#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace json = boost::json;
using namespace tally::i18n;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Arg argument(const json::value& value) {
  if (value.is_string()) return std::string(value.as_string());
  if (value.is_array()) {
    PlayerList names;  // no Namer: each id is shown as it is, so the ids are the names
    for (const auto& item : value.as_array()) names.ids.emplace_back(item.as_string());
    return names;
  }
  const double n = value.to_number<double>();
  if (std::trunc(n) == n && std::fabs(n) < 9e15) return static_cast<std::int64_t>(n);
  return n;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: " << argv[0] << " LOCALE_DIR CASES.json\n";
    return 2;
  }
  try {
    std::vector<std::pair<std::string, std::string>> files;
    for (Lang lang : kLanguages) {
      const std::string code_of(code(lang));
      files.emplace_back("pages." + code_of,
                         read_file(std::string(argv[1]) + "/" + code_of + ".json"));
    }
    const Catalogs catalogs(files);
    json::array out;
    const json::value cases = json::parse(read_file(argv[2]));
    for (const auto& item : cases.as_array()) {
      const auto& c = item.as_object();
      auto lang = parse_language(std::string(c.at("lang").as_string()));
      if (!lang) throw std::runtime_error("unknown language " + json::serialize(c.at("lang")));
      std::vector<NamedArg> args;
      for (const auto& [name, value] : c.at("args").as_object()) {
        args.emplace_back(std::string(name), argument(value));
      }
      out.emplace_back(catalogs.render(*lang, Message(std::string(c.at("key").as_string()), args)));
    }
    std::cout << json::serialize(out) << "\n";
  } catch (const std::exception& e) {
    std::cerr << argv[0] << ": " << e.what() << "\n";
    return 2;
  }
  return 0;
}
