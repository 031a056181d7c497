// The memory a server uses, read from /proc, so that tallyd and its peers are compared alike.
#pragma once

namespace tally::bench {

// MiB of memory held by process `pid` and its descendants: the resident set (VmRSS) of a single
// process, or the proportional set sizes (Pss, shared pages divided among their sharers) summed
// over a process tree — PostgreSQL runs one process per connection over shared buffers, and
// summing their RSS would count the shared buffers once per process. -1 when `pid` is gone.
double server_memory_mib(long pid);

}  // namespace tally::bench
