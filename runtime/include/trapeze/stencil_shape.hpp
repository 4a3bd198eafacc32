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
// in 3-D). Where 2-D or 3-D tiles of 4-byte cells run on GPUs, the x ghost
// zone grows by up to `multiple / 2 - 1` cells when that makes a tile
// `tile_width` wide (its padded row: width + 2 ghost) a multiple of
// `multiple` cells; no ghost can for an odd width. The wider ghost zone is
// filled like the rest (strips, wraps, the boundary), so the stage computes
// more valid columns beside tiles that have neighbours in x, and commits the
// same cells.
inline Extent ghost_for_rows_of(Index multiple, Extent ghost, Index tile_width, Index domain_width, bool periodic) {
  for (Index grown = ghost[0]; grown < ghost[0] + multiple / 2; ++grown) {
    if ((tile_width + 2 * grown) % multiple != 0) continue;
    if (periodic && grown > domain_width) break;  // a wrap would go round the domain twice
    ghost[0] = grown;
    break;
  }
  return ghost;
}

inline Extent ghost_for_rows_of_four(Extent ghost, Index tile_width, Index domain_width, bool periodic) {
  return ghost_for_rows_of(4, ghost, tile_width, domain_width, periodic);
}

// The ghost zone of GPU tiles: widened as above where a 16-byte single step
// exists (2-D and 3-D, 4-byte cells). 3-D rows a multiple of 16 cells (64
// bytes) where that adds at most a sixteenth of the tile's width: on the
// H200 (gpu_kernel_probe, jacobi3d 512^3, docs/PERF.md, 2026-11-29) the 3-D
// step reached 0.922 of the copy roofline on rows 528 cells apart (the ghost
// 8) against 0.844 on rows 516 apart (the ghost 2, a multiple of 4), and a
// by-hand kernel 0.902 on 528, 0.885-0.890 on rows on 128-byte lines (544,
// 576), 0.833 on 520 (not measured at other widths). 2-D tiles keep rows of
// 4: jacobi2d's 16-byte step ran at 0.920 of the roofline on rows 16388 and
// on rows 16400 apart alike (probe, H200), and through gpu_stencils rows of
// 16 made jacobi2d's plain loop and h = 1 0.97x as fast (2026-11-29,
// session 44).
inline Extent gpu_tile_ghost(Extent ghost, int dims, std::size_t cell_bytes, Index tile_width, Index domain_width,
                             bool periodic) {
  if (dims < 2 || cell_bytes != 4) return ghost;
  if (dims == 3) {
    const Extent sixteen = ghost_for_rows_of(16, ghost, tile_width, domain_width, periodic);
    if ((tile_width + 2 * sixteen[0]) % 16 == 0 && 2 * (sixteen[0] - ghost[0]) <= tile_width / 16) return sixteen;
  }
  return ghost_for_rows_of_four(ghost, tile_width, domain_width, periodic);
}

}  // namespace trapeze
