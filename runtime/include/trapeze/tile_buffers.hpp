#pragma once
// A tile's data on one memory node, as StarPU hands it to a task (the per-node
// structure of Trapeze's tile data interface, runtime/src/tile_interface.cpp).
// Plain values, so kernels read it without StarPU's headers.
//
// The layout depends on the node (seed 001: a layout per device, converted when
// data moves). In host memory a tile is one padded buffer (tile + ghost zone,
// every updated field), which CPU tasks update in place; on a GPU it is two
// padded buffers that the steps alternate between, and `current` says which one
// holds the latest step. A copy between nodes moves only the current buffer.
#include <cstddef>
#include <cstdint>

#include "trapeze/geometry.hpp"

namespace trapeze {

struct TileBuffers {
  int id;                  // StarPU's interface id (Runtime::tile_interface_id())
  std::uintptr_t ptr;      // first buffer on this node (0 until allocated)
  std::uintptr_t dev_handle;
  std::size_t offset;
  Index buffer_cells;      // elements in one padded buffer
  Index buffer_stride;     // elements from the first buffer to the second
  int element_size;        // bytes
  int buffers;             // 1 in host memory, 2 on a device
  int current;             // the buffer with the latest step

  template <typename T>
  T* buffer(int which) const {
    return reinterpret_cast<T*>(ptr) + static_cast<Index>(which) * buffer_stride;
  }
  template <typename T>
  T* latest() const {
    return buffer<T>(current);
  }
};

}  // namespace trapeze
