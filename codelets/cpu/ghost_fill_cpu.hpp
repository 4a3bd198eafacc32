#pragma once
// Out of core, a tile's ghost zone is filled in host memory, from its
// neighbours' tiles there, before the tile goes up for its stage (seed 003's
// chunk with its halo, read from the host's copy of the domain). The stage
// then reads no strips: no halo piece has to wait on the GPU for a whole
// pass until its reader comes, so a GPU capped to a quarter of the domain
// holds only the tiles in flight. Buffers of a ghost-fill task: the tile
// (RW, Trapeze's tile interface), then each neighbour it reads (R, tile
// interface), in GhostFillArgs::sources' `buffer` order.
#include <starpu.h>

#include <vector>

#include "box_copy.hpp"
#include "trapeze/tile_buffers.hpp"
#include "trapeze/tile_layout.hpp"

namespace trapeze {

// One halo piece read straight from its producer's tile.
struct GhostSource {
  int buffer;                 // the producer's buffer in the task
  const TileLayout* producer;
  Box source;                 // in the producer tile's local coordinates
  Box destination;            // in the consumer's padded coordinates
};

struct GhostFillArgs {
  const TileLayout* layout;
  const std::vector<GhostSource>* sources;
};

template <typename T>
void fill_ghost_from_neighbours_cpu(void* buffers[], void* cl_arg) {
  GhostFillArgs args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const TileLayout& p = *args.layout;
  T* tile = static_cast<TileBuffers*>(buffers[0])->latest<T>();
  const BufferView tile_view{p.padded, p.padded_cells()};
  for (const GhostSource& s : *args.sources) {
    const TileLayout& q = *s.producer;
    const T* from = static_cast<TileBuffers*>(buffers[s.buffer])->latest<T>();
    copy_box(from, BufferView{q.padded, q.padded_cells()}, s.source.shifted(q.ghost), tile, tile_view,
             s.destination.lo, p.updated_fields);
  }
}

}  // namespace trapeze
