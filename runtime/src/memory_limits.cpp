#include "trapeze/memory_limits.hpp"

#include <starpu.h>
#include <unistd.h>

#include <cstdio>

#include "trapeze/error.hpp"

namespace trapeze {

std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

std::string format_bytes(double bytes) {
  static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 6) bytes /= 1024, ++unit;
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, units[unit]);
  return text;
}

double starpu_handle_bytes() {
  return 3000.0 + 18.0 * STARPU_MAXNODES * STARPU_MAXNODES;
}

void check_fits_in_memory(double bytes, const std::string& what, const std::string& advice) {
  const std::uint64_t memory = physical_memory_bytes();
  if (memory == 0 || bytes <= static_cast<double>(memory)) return;
  throw InvalidArgument(what + " would take " + format_bytes(bytes) + ", more than this machine's " +
                        format_bytes(static_cast<double>(memory)) + " of memory; " + advice);
}

}  // namespace trapeze
