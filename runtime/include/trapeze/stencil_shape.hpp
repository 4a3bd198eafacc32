#pragma once
// The shape of a stencil: how far a point looks per dimension, and whether it
// reads only along the axes (star) or the whole box (box, e.g. Game of Life).
#include <cstddef>

#include "trapeze/geometry.hpp"

namespace trapeze {

enum class ShapeKind { star, box };

struct StencilShape {
  Extent radius{0, 0, 0};
  ShapeKind kind = ShapeKind::star;
};

// Width of the ghost zone a trapezoid of height h needs: r*h per dimension
// (seed 000, section 3: ghost zone width = HaloWidth * h).
inline constexpr Extent ghost_width(const StencilShape& shape, int height) {
  return {shape.radius[0] * height, shape.radius[1] * height, shape.radius[2] * height};
}

// Rows a multiple of 4 cells long let a GPU's single step move 16 bytes a
// load and a store (codelets/cuda/vector_step_kernel.cuh: 0.99 of the copy
// bandwidth against 0.87 for the scalar step, H100; vector_plane_kernel.cuh
// in 3-D). Where 2-D or 3-D tiles of 4-byte cells run on GPUs, the x ghost zone grows by one cell when that
// makes a tile `tile_width` wide (its padded row: width + 2 ghost) such a row;
// no ghost can for an odd width. The wider ghost zone is filled like the rest
// (strips, wraps, the boundary), so the stage computes one more valid column
// each side and commits the same cells.
inline Extent ghost_for_rows_of_four(Extent ghost, Index tile_width, Index domain_width, bool periodic) {
  if ((tile_width + 2 * ghost[0]) % 4 == 0 || (tile_width + 2 * (ghost[0] + 1)) % 4 != 0) return ghost;
  if (periodic && ghost[0] + 1 > domain_width) return ghost;  // a wrap would go round the domain twice
  ghost[0] += 1;
  return ghost;
}

// The ghost zone of GPU tiles: widened as above where a 16-byte single step
// exists (2-D and 3-D, 4-byte cells).
inline Extent gpu_tile_ghost(Extent ghost, int dims, std::size_t cell_bytes, Index tile_width, Index domain_width,
                             bool periodic) {
  if (dims < 2 || cell_bytes != 4) return ghost;
  return ghost_for_rows_of_four(ghost, tile_width, domain_width, periodic);
}

}  // namespace trapeze
