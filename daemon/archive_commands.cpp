#include "daemon/archive_commands.hpp"

#include "daemon/stopped_store.hpp"

#include "events/archive.hpp"
#include "events/sha256.hpp"

#include <fstream>
#include <iostream>
#include <map>

namespace tally::daemon {

namespace {

constexpr const char* kUsage =
    "usage: tallyd export [--data DIR] [--out FILE]   the log of a stopped server as JSON Lines\n"
    "       tallyd import --data NEWDIR [--in FILE]    a new store from an export (verified)\n";

std::map<std::string, std::string> flags(const std::vector<std::string>& args) {
  std::map<std::string, std::string> out;
  for (std::size_t i = 1; i + 1 < args.size(); i += 2) out[args[i]] = args[i + 1];
  if (args.size() % 2 == 0) out["--bad"] = args.back();
  return out;
}

int do_export(const std::map<std::string, std::string>& f) {
  std::string data = f.count("--data") ? f.at("--data") : "./data";
  auto store = open_stopped_store(data, "export", "is tallyd running? then use GET /v1/export");
  if (!store) return 1;
  std::ofstream file;
  if (f.count("--out")) {
    file.open(f.at("--out"));
    if (!file) {
      std::cerr << "tallyd export: cannot write " << f.at("--out") << "\n";
      return 1;
    }
  }
  std::ostream& out = f.count("--out") ? static_cast<std::ostream&>(file) : std::cout;
  auto result = events::export_log(store->read_view(), out);
  out.flush();
  std::cerr << "exported " << result.events << " events, head " << events::hex(result.head) << "\n";
  return out ? 0 : 1;
}

int do_import(const std::map<std::string, std::string>& f) {
  if (!f.count("--data")) {
    std::cerr << kUsage;
    return 2;
  }
  std::ifstream file;
  if (f.count("--in")) {
    file.open(f.at("--in"));
    if (!file) {
      std::cerr << "tallyd import: cannot read " << f.at("--in") << "\n";
      return 1;
    }
  }
  std::istream& in = f.count("--in") ? static_cast<std::istream&>(file) : std::cin;
  auto result = events::import_log(in, f.at("--data") + "/store");
  if (!result.ok) {
    std::cerr << "tallyd import: refused";
    if (result.line != 0) std::cerr << " at line " << result.line;
    std::cerr << ": " << result.problem << " (nothing was imported)\n";
    return 1;
  }
  std::cout << "imported " << result.events << " events, head " << events::hex(result.head) << "\n";
  return 0;
}

}  // namespace

bool is_archive_command(const std::vector<std::string>& args) {
  return !args.empty() && (args[0] == "export" || args[0] == "import");
}

int run_archive_command(const std::vector<std::string>& args) {
  auto f = flags(args);
  if (f.count("--bad")) {
    std::cerr << kUsage;
    return 2;
  }
  return args[0] == "export" ? do_export(f) : do_import(f);
}

}  // namespace tally::daemon
