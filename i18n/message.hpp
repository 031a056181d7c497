// A text for people, before it is put in a language: a catalog key and its named arguments.
// The rules (projections/) and the daemon build Messages; whoever answers a person renders one
// in that person's language (i18n/catalog.hpp) — so a rule never chooses a language, and a
// player is named by name in the rendering, while the machine fields keep the id.
//
//   Message("C-7.holder_not_most", {{"holder", PlayerRef{"p4"}}, {"count", 1}, …})
//   → en "Jana Nováková holds Largest Army with 1 knight, but …"
//
// Pure data: no ICU here, so the rules' library does not need the renderer.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace tally::i18n {

// A player, by id: rendered as the player's name.
struct PlayerRef {
  std::string id;
  bool operator==(const PlayerRef&) const = default;
};
// Players, by id: rendered as a list in the language ("Eva, Petr and Jana"; "Eva, Petr a Jana").
struct PlayerList {
  std::vector<std::string> ids;
  bool operator==(const PlayerList&) const = default;
};
// A word from the catalog (a house, a title, a field's label): rendered as that key's text.
struct Term {
  std::string key;
  bool operator==(const Term&) const = default;
};
// Catalog terms as one list in the language, joined by "and" or "or" ("Stark, Lannister or
// Tyrell"; "Stark, Lannister nebo Tyrell").
enum class Joiner { and_, or_ };
struct TermList {
  std::vector<std::string> keys;
  Joiner joiner = Joiner::and_;
  bool operator==(const TermList&) const = default;
};
// Players, each with a number: "Eva 3, Petr 3 and Jana 2" (the counts behind a table's total).
struct PlayerCounts {
  std::vector<std::pair<std::string, std::int64_t>> counts;
  bool operator==(const PlayerCounts&) const = default;
};
struct Message;
// Another message, rendered in the same language with the same names: a notice that carries a
// rule's own message ("round 1, table 2: <the rule's text> (C-11)").
struct Nested {
  std::shared_ptr<const Message> message;
  bool operator==(const Nested& other) const;
};

// A decimal number shown with exactly `digits` decimals in the language's way ("2.50", "2,50").
struct Decimal {
  double value = 0;
  int digits = 2;
  bool operator==(const Decimal&) const = default;
};

// A number (integer or decimal), text as it is (a name, a value the client sent), or the above.
using Arg = std::variant<std::int64_t, double, std::string, PlayerRef, PlayerList, Term, Decimal,
                         TermList, PlayerCounts, Nested>;

struct NamedArg {
  std::string name;
  Arg value;
  NamedArg(std::string n, Arg v) : name(std::move(n)), value(std::move(v)) {}
  // Integers of every width are numbers (without this, an int would be ambiguous).
  template <typename Integer>
  requires std::is_integral_v<Integer> &&
      (!std::is_same_v<Integer, bool>)NamedArg(std::string n, Integer v)
      : name(std::move(n)), value(static_cast<std::int64_t>(v)) {}
  NamedArg(std::string n, const char* v) : name(std::move(n)), value(std::string(v)) {}
  bool operator==(const NamedArg&) const = default;
};

struct Message {
  std::string key;  // the catalog key; empty: `literal` is shown as it is
  std::vector<NamedArg> args;
  std::string literal;  // only for a text that is not ours to translate (e.g. a library's error)

  Message() = default;
  Message(std::string k, std::initializer_list<NamedArg> a = {}) : key(std::move(k)), args(a) {}
  Message(const char* k) : key(k) {}
  Message(std::string k, std::vector<NamedArg> a) : key(std::move(k)), args(std::move(a)) {}

  // A text shown as it is in every language: an outside library's error text, never ours.
  static Message verbatim(std::string text) {
    Message m;
    m.literal = std::move(text);
    return m;
  }
  Message& with(std::string name, Arg value) {
    args.emplace_back(std::move(name), std::move(value));
    return *this;
  }
  bool empty() const { return key.empty() && literal.empty(); }
  bool operator==(const Message&) const = default;
};

inline bool Nested::operator==(const Nested& other) const {
  if (!message || !other.message) return message == other.message;
  return *message == *other.message;
}

// A message as an argument of another.
inline Nested nested(Message message) {
  return Nested{std::make_shared<const Message>(std::move(message))};
}

// For test diagnostics: the key (or the verbatim text) and the arguments' names.
inline std::ostream& operator<<(std::ostream& out, const Message& m) {
  if (m.key.empty()) return out << m.literal;
  out << m.key;
  for (const auto& a : m.args) out << (&a == &m.args.front() ? " {" : ", ") << a.name;
  return out << (m.args.empty() ? "" : "}");
}

}  // namespace tally::i18n
