// Linked into tallyd and its benchmarks with tcmalloc (CMakeLists.txt: tally_use_allocator):
// the heap tcmalloc takes from the system comes in 2 MiB-aligned pieces marked MADV_HUGEPAGE, so
// that the kernel backs it with transparent huge pages where the machine allows them
// (/sys/kernel/mm/transparent_hugepage/enabled "madvise" or "always").
//
// Why: a replay of 10^6 events grows the heap to ~650 MiB, 153,000 first touches of 4 KiB pages.
// On some machines of the same kind (a paravirtualised guest) each such fault costs ~6 µs and
// they were ~28% of the replay (perf: tcmalloc's CentralFreeList::Populate touching new spans,
// exc_page_fault, pvm_irq_enable); one fault per 2 MiB is 512 times fewer. Where THP is "never"
// the advice is ignored and nothing changes.
//
// While replay runs, growth takes pieces touched ahead on the other core (daemon/warm_pages.hpp
// says why) before it asks the system.
#include "daemon/warm_pages.hpp"

#include <gperftools/malloc_extension.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

static_assert(kHugePage == tally::daemon::WarmPages::kPiece);

// Pieces replay's warming keeps ready: 64 MiB, a few tens of milliseconds of the fold's growth.
constexpr std::size_t kWarmPieces = 32;

class HugePageSysAllocator final : public SysAllocator {
 public:
  HugePageSysAllocator(SysAllocator* system, tally::daemon::WarmPages& warm)
      : system_(system), warm_(warm) {}

  void* Alloc(std::size_t size, std::size_t* actual_size, std::size_t alignment) override {
    // A warm piece where one fits and tcmalloc can be told its size (it then uses all of it).
    if (size <= kHugePage && alignment <= kHugePage && actual_size != nullptr) {
      if (void* piece = warm_.take()) {
        *actual_size = kHugePage;
        return piece;
      }
    }
    // Whole huge pages only: a piece smaller than 2 MiB, or not aligned to it, would be touched
    // before the rest of its huge page is mapped and get small pages.
    std::size_t asked = round_up(size, kHugePage);
    void* p = system_->Alloc(asked, actual_size, std::max(alignment, kHugePage));
    if (p == nullptr) return system_->Alloc(size, actual_size, alignment);  // as tcmalloc would
    std::size_t got = actual_size != nullptr ? *actual_size : asked;
    ::madvise(p, got, MADV_HUGEPAGE);  // advice only: a refusal changes nothing
    return p;
  }

 private:
  SysAllocator* system_;
  tally::daemon::WarmPages& warm_;
};

// Installed before main(): every later growth of the heap goes through it.
const bool installed = [] {
  // Never destroyed: tcmalloc may grow its heap while other statics are being destroyed.
  static auto& warm = *new tally::daemon::WarmPages(kWarmPieces);
  static HugePageSysAllocator allocator(MallocExtension::instance()->GetSystemAllocator(), warm);
  MallocExtension::instance()->SetSystemAllocator(&allocator);
  tally::daemon::install_heap_warm_pages(&warm);
  return true;
}();

}  // namespace
