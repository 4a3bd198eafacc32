#pragma once
// The CPU codelet that brings a tile's latest value back into the user's grid.
// One task per tile, submitted by StencilRun::wait(): the copies run on every
// worker at once, and each starts as soon as its own tile's last stage ends
// while other tiles still compute (one thread copying 64 MB after the whole
// graph had finished cost jacobi2d 4096^2 about 6% of a 50-step run).
//
// Buffers: tile (R, two padded buffers).
#include <starpu.h>

#include "codelets/box_copy.hpp"
#include "codelets/tile_program.hpp"
#include "trapeze/grid.hpp"

namespace trapeze {

template <typename T>
struct GatherArgs {
  const TileProgram* program;
  Grid<T>* grid;  // tiles write disjoint boxes of it
  int current;    // which padded buffer holds the latest step
};

template <typename T>
void gather_cpu(void* buffers[], void* cl_arg) {
  GatherArgs<T> args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const TileProgram& p = *args.program;
  const T* tile = reinterpret_cast<const T*>(STARPU_VECTOR_GET_PTR(buffers[0]));
  const T* latest = tile + args.current * p.buffer_stride;
  const BufferView padded{p.padded, p.padded_cells()};
  const BufferView field{p.domain, 0};
  for (int f = 0; f < p.updated_fields; ++f) {
    copy_box(latest + f * p.padded_cells(), padded, p.interior(), args.grid->updated(f).data(), field, p.tile.lo, 1);
  }
}

}  // namespace trapeze
