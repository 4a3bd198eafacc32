#pragma once
// Trapeze's StarPU data interface for tiles: one padded buffer in host memory,
// two on a GPU (see tile_buffers.hpp), so a CPU task updates a tile in place
// while a GPU kernel reads one buffer and writes the other, and a tile that
// crosses PCIe moves one buffer's bytes. StarPU moves, caches and evicts it
// like any of its own interfaces.
#include <starpu.h>

#include "trapeze/tile_buffers.hpp"

namespace trapeze {

// The operations StarPU calls; one table per Runtime (its interface id is
// handed out by StarPU at start-up).
struct TileInterfaceOps {
  starpu_data_interface_ops ops{};
  starpu_data_copy_methods copy_methods{};
  TileInterfaceOps();
};

// Registers a tile whose host buffer (home, in main RAM) holds `buffer_cells`
// elements of `element_size` bytes; `home` null lets StarPU allocate it.
starpu_data_handle_t register_tile(TileInterfaceOps& ops, void* home, Index buffer_cells, int element_size);

// Elements from a device's first padded buffer to its second: the buffer
// rounded up to 256 bytes, so both start aligned for vector loads.
Index device_buffer_stride(Index buffer_cells, int element_size);

}  // namespace trapeze
