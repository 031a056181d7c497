// tally backup | export: the organizer's copies of the log, taken by the running server.
#include "client/cli/command.hpp"
#include "client/cli/numbers.hpp"
#include "client/cli/say.hpp"
#include "client/cli/views.hpp"

#include <cerrno>
#include <cstring>
#include <ostream>

#include <fcntl.h>
#include <unistd.h>

namespace tally::cli {

namespace json = boost::json;

namespace {

int backup(Context& ctx) {
  json::value answer = ctx.session().expect(
      ctx.session().send(tally::net::http::verb::post, "/v1/backup", json::object{}));
  if (ctx.args.has("json")) {
    ctx.out << json::serialize(answer) << "\n";
    return kOk;
  }
  const auto& o = answer.as_object();
  ctx.out << ctx.say(i18n::Message("cli.backup.taken", {{"seq", cell_text(o.at("seq"))},
                                                        {"head", text_member(o, "head")}}))
          << "\n"
          << ctx.say(i18n::Message("cli.backup.where", {{"path", text_member(o, "path")}})) << "\n"
          << ctx.say(i18n::Message("cli.backup.restore", {{"command", text_member(o, "restore")}}))
          << "\n";
  return kOk;
}

// Writes `body` to `path` whole or not at all: a temporary file beside it, synced, then renamed,
// so that an interrupted export never leaves a truncated file under the final name.
void write_file_atomically(const std::string& path, const std::string& body) {
  std::string temporary = path + ".partial" + std::to_string(::getpid());
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) {
    throw usage_error(i18n::Message("cli.error.cannot_write",
                                    {{"path", path}, {"problem", std::strerror(errno)}}));
  }
  std::size_t written = 0;
  bool ok = true;
  while (ok && written < body.size()) {
    ssize_t n = ::write(fd, body.data() + written, body.size() - written);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) written += static_cast<std::size_t>(n);
  }
  ok = ok && ::fsync(fd) == 0;
  int saved = errno;
  ok = ::close(fd) == 0 && ok;
  if (!ok || ::rename(temporary.c_str(), path.c_str()) != 0) {
    if (ok) saved = errno;
    ::unlink(temporary.c_str());
    throw usage_error(i18n::Message("cli.error.cannot_write",
                                    {{"path", path}, {"problem", std::strerror(saved)}}));
  }
}

int export_log(Context& ctx) {
  tally::net::HttpReply reply = ctx.session().get("/v1/export");
  if (reply.status >= 400) ctx.session().expect(reply);  // prints the problem and fails
  auto out_path = ctx.args.value("out");
  if (!out_path || *out_path == "-") {
    ctx.out << reply.body << std::flush;
    return kOk;
  }
  write_file_atomically(*out_path, reply.body);
  std::int64_t events = 0;
  try {
    events = std::stoll(reply.header("Tally-Seq"));
  } catch (const std::exception&) {
  }
  ctx.out << ctx.say(i18n::Message(
                 "cli.export.done",
                 {{"events", events}, {"head", reply.header("Tally-Head")}, {"file", *out_path}}))
          << "\n"
          << ctx.say(i18n::Message("cli.export.rebuild", {{"file", *out_path}})) << "\n";
  return kOk;
}

}  // namespace

std::vector<Command> ops_commands() {
  return {
      {"backup",
       "[--json]",
       "cli.cmd.backup.summary",
       "cli.cmd.backup.details",
       {{"json", 0, "", "cli.option.json"}},
       0,
       0,
       false,
       backup},
      {"export",
       "[--out FILE]",
       "cli.cmd.export.summary",
       "cli.cmd.export.details",
       {{"out", 'o', "FILE", "cli.option.out"}},
       0,
       0,
       false,
       export_log},
  };
}

}  // namespace tally::cli
