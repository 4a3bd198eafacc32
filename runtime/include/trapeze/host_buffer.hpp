#pragma once
// Host memory for tiles, strips and grid fields, owned (RAII).
#include <cstddef>
#include <utility>

namespace trapeze {

// `bytes` of host memory, 64-byte aligned; buffers of 2 MiB and more are
// 2 MiB aligned and advised onto transparent huge pages. With `pin`, the
// buffer is pinned for DMA when StarPU drives CUDA workers (so StarPU's copies
// of it are asynchronous).
// Why huge pages: a first touch of a 4 KiB page costs about 10 us in this kind
// of virtual machine (0.4 GB/s measured), which made a tile's first stage
// slower than all the others; on 2 MiB pages the same touch runs at ~15 GB/s.
struct HostAllocation {
  void* data = nullptr;
  bool pinned = false;
};
HostAllocation allocate_host_bytes(std::size_t bytes, bool pin = true);
void free_host_bytes(const HostAllocation& allocation, std::size_t bytes);

// Gives the physical pages of [data + offset, data + offset + bytes) back to the
// system while keeping the addresses (they read as zeros when touched again).
// Only whole 2 MiB pages inside the range go, so two callers releasing
// neighbouring ranges never release a page the other still reads; pinned
// memory is never released. Returns the bytes released.
std::size_t release_host_pages(const HostAllocation& allocation, std::size_t offset, std::size_t bytes);

template <typename T>
class HostBuffer {
 public:
  HostBuffer() = default;
  explicit HostBuffer(std::size_t count, bool pin = true)
      : allocation_(count > 0 ? allocate_host_bytes(count * sizeof(T), pin) : HostAllocation{}), count_(count) {}
  ~HostBuffer() {
    if (allocation_.data) free_host_bytes(allocation_, count_ * sizeof(T));
  }
  HostBuffer(HostBuffer&& o) noexcept
      : allocation_(std::exchange(o.allocation_, HostAllocation{})), count_(std::exchange(o.count_, 0)) {}
  HostBuffer& operator=(HostBuffer&& o) noexcept {
    if (this != &o) {
      this->~HostBuffer();
      allocation_ = std::exchange(o.allocation_, HostAllocation{});
      count_ = std::exchange(o.count_, 0);
    }
    return *this;
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;

  T* data() const { return static_cast<T*>(allocation_.data); }
  std::size_t size() const { return count_; }
  // Elements [first, first + count) may be dropped (see release_host_pages).
  std::size_t release(std::size_t first, std::size_t count) const {
    return release_host_pages(allocation_, first * sizeof(T), count * sizeof(T));
  }

 private:
  HostAllocation allocation_;
  std::size_t count_ = 0;
};

}  // namespace trapeze
