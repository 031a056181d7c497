#include "process_memory.hpp"

#include <dirent.h>

#include <fstream>
#include <string>
#include <vector>

namespace tally::bench {

namespace {

// The value in kB of the line starting with `key` in /proc/PID/`file`, or -1.
long proc_kib(long pid, const char* file, const std::string& key) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/" + file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) == 0) return std::stol(line.substr(key.size()));
  }
  return -1;
}

long parent_of(long pid) {
  // /proc/PID/stat: "pid (comm) state ppid …"; comm may hold spaces, so read after the last ')'.
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  std::getline(in, stat);
  auto close = stat.rfind(')');
  if (close == std::string::npos || close + 4 >= stat.size()) return -1;
  return std::stol(stat.substr(close + 4));
}

std::vector<long> descendants(long root) {
  std::vector<std::pair<long, long>> processes;  // (pid, parent)
  if (DIR* proc = opendir("/proc")) {
    while (dirent* entry = readdir(proc)) {
      std::string name = entry->d_name;
      if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
      long pid = std::stol(name);
      processes.emplace_back(pid, parent_of(pid));
    }
    closedir(proc);
  }
  std::vector<long> out{root};
  for (std::size_t i = 0; i < out.size(); ++i) {
    for (const auto& [pid, parent] : processes) {
      if (parent == out[i]) out.push_back(pid);
    }
  }
  return out;
}

}  // namespace

double server_memory_mib(long pid) {
  auto tree = descendants(pid);
  if (tree.size() == 1) {
    long rss = proc_kib(pid, "status", "VmRSS:");
    return rss < 0 ? -1 : rss / 1024.0;
  }
  long total = 0;
  for (long p : tree) {
    long pss = proc_kib(p, "smaps_rollup", "Pss:");
    if (pss > 0) total += pss;
  }
  return total / 1024.0;
}

}  // namespace tally::bench
