#pragma once
// Seed 004's hybrid row/diagonal-major layout of a wavefront tile, in the
// shape the GPU codelet sweeps it (codelets/cuda/wavefront_peerwave_kernel.cuh):
// the tile's rows are cut into bands of 32 lanes x `lane_rows` rows, lane k
// owning rows k * lane_rows .. k * lane_rows + lane_rows - 1 of its band, and
// at step s of its band lane k computes column s - k. Bands follow one
// another as rows do in row-major order; inside a band the cells go by step
// (the band's anti-diagonals), then by the lane's row, then by lane:
//
//     index(r, c) = (band * columns + (c + lane) mod columns) * 32 * lane_rows
//                   + lane_row * 32 + lane
//
// so at every step the 32 lanes of a warp read or write 32 neighbouring
// cells for each of their rows: whole cache lines, where row-major
// addresses sit a row apart per lane (32 lines a step). Lane k works from
// step k to step columns + k - 1, so the step is taken modulo the band's
// columns: the cells a lane makes past the last slot fill the slots its
// first k idle steps left. Every slot holds 32 x lane_rows cells and none is
// wasted but the padding of a last band shorter than 32 x lane_rows rows (the
// seed: "all diagonals in hyper-tiles have the same length").
//
// The index map is the definition; the CPU conversions below are the
// reference the GPU kernels (codelets/cuda/banded_layout_kernels.cuh) must
// equal bit for bit.
#include <cstring>

#include "trapeze/geometry.hpp"
#include "trapeze/neighbourhood.hpp"  // TRAPEZE_HOST_DEVICE

namespace trapeze {

inline constexpr int banded_lanes = 32;

struct BandedLayout {
  Index rows = 0;
  Index columns = 0;
  int lane_rows = 1;

  TRAPEZE_HOST_DEVICE Index band_rows() const { return banded_lanes * static_cast<Index>(lane_rows); }
  TRAPEZE_HOST_DEVICE Index bands() const { return (rows + band_rows() - 1) / band_rows(); }
  // Cells a banded copy holds: whole bands (a short last band padded).
  TRAPEZE_HOST_DEVICE Index cells() const { return bands() * band_rows() * columns; }

  // The slot of step s (0 <= s < columns + 31) among a band's columns.
  TRAPEZE_HOST_DEVICE Index slot(Index s) const {
    if (s >= columns) s -= columns;
    return s >= columns ? s % columns : s;  // only tiles narrower than 32 columns wrap twice
  }
  TRAPEZE_HOST_DEVICE Index index(Index r, Index c) const {
    const Index band = r / band_rows();
    const Index in_band = r - band * band_rows();
    const Index lane = in_band / lane_rows;
    const Index lane_row = in_band - lane * lane_rows;
    return (band * columns + slot(c + lane)) * band_rows() + lane_row * banded_lanes + lane;
  }
};

// Copies a rows x columns tile stored row-major with rows `ld` elements apart
// into `banded` (layout.cells() elements; padding slots are left as they are),
// and back. Element-wise copies of whole objects (std::memcpy), so any
// trivially copyable cell type goes through unchanged.
template <typename T>
void to_banded(const T* row_major, Index ld, const BandedLayout& layout, T* banded) {
  for (Index r = 0; r < layout.rows; ++r) {
    for (Index c = 0; c < layout.columns; ++c) std::memcpy(&banded[layout.index(r, c)], &row_major[r * ld + c], sizeof(T));
  }
}

template <typename T>
void from_banded(const T* banded, const BandedLayout& layout, T* row_major, Index ld) {
  for (Index r = 0; r < layout.rows; ++r) {
    for (Index c = 0; c < layout.columns; ++c) std::memcpy(&row_major[r * ld + c], &banded[layout.index(r, c)], sizeof(T));
  }
}

}  // namespace trapeze
