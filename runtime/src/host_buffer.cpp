#include "trapeze/host_buffer.hpp"

#include <starpu.h>
#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <new>

namespace trapeze {

namespace {

constexpr std::size_t huge_page = std::size_t{2} << 20;
constexpr std::size_t cache_line = 64;

std::size_t rounded_size(std::size_t bytes) {
  const std::size_t align = bytes >= huge_page ? huge_page : cache_line;
  return (bytes + align - 1) / align * align;
}

// Pinning needs a device to pin for; without one each call would try (and
// fail) to start CUDA.
bool pinning_wanted() { return starpu_is_initialized() && starpu_cuda_worker_get_count() > 0; }

}  // namespace

HostAllocation allocate_host_bytes(std::size_t bytes, bool pin) {
  const std::size_t size = rounded_size(bytes);
  void* p = std::aligned_alloc(bytes >= huge_page ? huge_page : cache_line, size);
  if (!p) throw std::bad_alloc();
  // Advice only: where transparent huge pages are off, 4 KiB pages still work.
  if (bytes >= huge_page) madvise(p, size, MADV_HUGEPAGE);
  // Without pinning, StarPU's CUDA copies of this buffer would be synchronous.
  const bool pinned = pin && pinning_wanted() && starpu_memory_pin(p, size) == 0;
  return {p, pinned};
}

void free_host_bytes(const HostAllocation& allocation, std::size_t bytes) {
  if (allocation.pinned) starpu_memory_unpin(allocation.data, rounded_size(bytes));
  std::free(allocation.data);
}

std::size_t release_host_pages(const HostAllocation& allocation, std::size_t offset, std::size_t bytes) {
  if (!allocation.data || allocation.pinned || bytes == 0) return 0;
  const auto base = reinterpret_cast<std::uintptr_t>(allocation.data);
  // Buffers under 2 MiB are not 2 MiB aligned: nothing of theirs is released.
  if (base % huge_page != 0) return 0;
  const std::uintptr_t first = (base + offset + huge_page - 1) / huge_page * huge_page;
  const std::uintptr_t last = (base + offset + bytes) / huge_page * huge_page;
  if (last <= first) return 0;
  if (madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED) != 0) return 0;
  return last - first;
}

}  // namespace trapeze
