#pragma once
// Trapeze's StarPU data interface for tiles: one padded buffer in host memory,
// two on a GPU (see tile_buffers.hpp), so a CPU task updates a tile in place
// while a GPU kernel reads one buffer and writes the other, and a tile that
// crosses PCIe moves one buffer's bytes. StarPU moves, caches and evicts it
// like any of its own interfaces.
#include <starpu.h>

#include "trapeze/tile_buffers.hpp"

namespace trapeze {

// The operations StarPU calls; one table per Runtime, with the interface id
// of the process (tile_interface_id()).
struct TileInterfaceOps {
  starpu_data_interface_ops ops{};
  starpu_data_copy_methods copy_methods{};
  int id = 0;  // the same as ops.interfaceid, kept as an int: ids past StarPU's enum are not enum values
  TileInterfaceOps();
};

// The tile interface's StarPU id, the same for every Runtime of the process.
// StarPU hands out ids from a counter that outlives starpu_shutdown(), but
// rebuilds its table of them with 16 entries in each session and grows it by
// one doubling per registration at most: an id taken per session wrote past
// that table in the 17th session of a process (heap corruption, then
// "realloc(): invalid next size"). So the id is taken once, like StarPU's
// counter: the one process-wide value in Trapeze, and it never changes.
int tile_interface_id();

// Registers a tile whose host buffer (home, in main RAM) holds `buffer_cells`
// elements of `element_size` bytes; `home` null lets StarPU allocate it.
starpu_data_handle_t register_tile(TileInterfaceOps& ops, void* home, Index buffer_cells, int element_size);

// Elements from a device's first padded buffer to its second: the buffer
// rounded up to 256 bytes, so both start aligned for vector loads.
Index device_buffer_stride(Index buffer_cells, int element_size);

}  // namespace trapeze
