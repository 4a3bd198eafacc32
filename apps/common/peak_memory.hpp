#pragma once
// The process's peak resident memory, for the --json line: what a run cost in
// RAM, StarPU's task structures included.
#include <sys/resource.h>

#include <cstdint>

namespace apps {

inline std::int64_t peak_resident_bytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return -1;
  return static_cast<std::int64_t>(usage.ru_maxrss) * 1024;  // Linux reports kilobytes
}

}  // namespace apps
