#include "daemon/stopped_store.hpp"

#include <iostream>

namespace tally::daemon {

std::unique_ptr<events::EventStore> open_stopped_store(const std::filesystem::path& data,
                                                       std::string_view command,
                                                       std::string_view hint) {
  try {
    return std::make_unique<events::EventStore>((data / "store").string(),
                                                events::StoreOptions{.create_if_missing = false});
  } catch (const std::exception& e) {
    std::cerr << "tallyd " << command << ": cannot open the store in " << data.string() << " ("
              << hint << "): " << e.what() << "\n";
    return nullptr;
  }
}

}  // namespace tally::daemon
