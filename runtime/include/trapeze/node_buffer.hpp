#pragma once
// RAII owner of memory on a StarPU memory node that no data handle holds,
// counted in what StarPU may use there (STARPU_LIMIT_CUDA_MEM and alike):
// StarPU makes room for it by evicting handles' copies, and leaves it alone.
#include <starpu.h>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace trapeze {

class NodeBuffer {
 public:
  NodeBuffer() = default;
  // `bytes` on memory node `node`; empty() when StarPU could not make room.
  NodeBuffer(unsigned node, std::size_t bytes)
      : node_(node), bytes_(bytes), address_(starpu_malloc_on_node_flags(node, bytes, STARPU_MALLOC_COUNT)) {}
  ~NodeBuffer() { reset(); }
  NodeBuffer(NodeBuffer&& other) noexcept
      : node_(other.node_), bytes_(other.bytes_), address_(std::exchange(other.address_, 0)) {}
  NodeBuffer& operator=(NodeBuffer&& other) noexcept {
    if (this != &other) {
      reset();
      node_ = other.node_;
      bytes_ = other.bytes_;
      address_ = std::exchange(other.address_, 0);
    }
    return *this;
  }
  NodeBuffer(const NodeBuffer&) = delete;
  NodeBuffer& operator=(const NodeBuffer&) = delete;

  bool empty() const { return address_ == 0; }
  void* get() const { return reinterpret_cast<void*>(address_); }

 private:
  void reset() {
    if (address_ != 0) starpu_free_on_node_flags(node_, std::exchange(address_, 0), bytes_, STARPU_MALLOC_COUNT);
  }

  unsigned node_ = 0;
  std::size_t bytes_ = 0;
  std::uintptr_t address_ = 0;
};

}  // namespace trapeze
