#include "client/cli/command.hpp"

#include "client/cli/say.hpp"

#include <fstream>
#include <iostream>
#include <sstream>

namespace tally::cli {

Session& Context::session() {
  if (!session_) {
    session_ = std::make_unique<Session>(parse_server_url(settings.server), settings.token,
                                         settings.ca_file, err, lang);
  }
  return *session_;
}

const std::string& Context::tournament() const {
  if (settings.tournament.empty()) {
    throw usage_error("cli.error.which_tournament");
  }
  return settings.tournament;
}

std::uint64_t Context::number_argument(std::size_t i, const std::string& what) const {
  const std::string& text = args.positionals.at(i);
  std::uint64_t n = 0;
  bool ok = !text.empty() && text.size() <= 9;
  for (char c : text) ok = ok && c >= '0' && c <= '9';
  if (ok) n = std::stoull(text);
  if (!ok || n == 0) {
    throw usage_error(i18n::Message("cli.error.not_positive", {{"what", what}, {"text", text}}));
  }
  return n;
}

std::string Context::say(const i18n::Message& message) const { return cli::say(lang, message); }

std::string read_input_file(Context& ctx, const std::string& path) {
  std::ostringstream text;
  if (path == "-") {
    text << ctx.in.rdbuf();
    return text.str();
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) throw usage_error(i18n::Message("cli.error.cannot_read", {{"path", path}}));
  text << file.rdbuf();
  return text.str();
}

boost::json::value parse_json_input(const std::string& text, const std::string& what) {
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(text, ec);
  if (ec) {
    throw Failure(kInvalid,
                  i18n::Message("cli.error.not_json", {{"what", what}, {"problem", ec.message()}}));
  }
  return v;
}

}  // namespace tally::cli
