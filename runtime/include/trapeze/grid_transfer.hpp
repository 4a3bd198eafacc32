#pragma once
// Moving values between the user's grid and a run's tiles, one band of tiles
// per task, so bands go in parallel on every CPU worker; a band's slices are
// cut further over `threads` threads (trapeze/parallel_parts.hpp) when there
// are fewer bands than cores.
//
// Scatter (before the first stage): each tile's padded buffer gets its cells
// from the grid and a zero ghost zone; read-only fields get their ghost zone
// too, outside cells from the boundary. Then the band's range of the grid is
// given back to the system: from here the tiles are the values' only home.
// Gather (after the last stage): the tiles' cells go back into the grid, and
// the tiles' host pages are given back.
// A generated grid (Grid::generated) has no cells: scatter asks its row
// source for them, gather hands them to its row sink.
//
// Buffers: the band's tiles, then (with read-only fields) their constant tiles.
#include <starpu.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "codelets/cpu/box_copy.hpp"
#include "trapeze/grid.hpp"
#include "trapeze/parallel_parts.hpp"
#include "trapeze/tile_buffers.hpp"
#include "trapeze/tile_store.hpp"

namespace trapeze {

template <typename T>
struct BandTransferArgs {
  const TileStore<T>* store;
  Grid<T>* grid;
  int band;
  bool release;  // give pages back afterwards (the grid's on scatter, the tiles' on gather)
  int threads = 1;  // threads that copy the band's slices, each a contiguous part
  const std::vector<int>* cores;  // where the helper threads may run (the run's; empty: the worker's core)
};

namespace detail {

// Calls fn(offset in a field of the grid, offset in a padded buffer, length)
// per row of the tile, slices of the slowest dimension in [first, last) only.
// Calls fn(x, y, z, offset in a padded buffer, length) with the global
// coordinates of each row's first cell.
template <typename Fn>
void for_each_tile_row_at(const TileLayout& p, Index first, Index last, Fn fn) {
  const Extent e = p.tile_extent();
  const Strides s = Strides::of(p.padded);
  const int d = p.dims - 1;
  Extent lo{0, 0, 0}, hi = e;
  if (last >= 0) lo[d] = first - p.tile.lo[d], hi[d] = last - p.tile.lo[d];
  for (Index z = lo[2]; z < hi[2]; ++z) {
    for (Index y = lo[1]; y < hi[1]; ++y) {
      fn(p.tile.lo[0], p.tile.lo[1] + y, p.tile.lo[2] + z, s.offset(p.ghost[0], p.ghost[1] + y, p.ghost[2] + z), e[0]);
    }
  }
}

template <typename T, typename Fn>
void for_each_tile_row(const TileLayout& p, const Grid<T>& grid, Fn fn, Index first = 0, Index last = -1) {
  for_each_tile_row_at(p, first, last, [&](Index x, Index y, Index z, Index at_tile, Index length) {
    fn(grid.linear(x, y, z), at_tile, length);
  });
}

// Slices of the slowest dimension moved between two page releases: the
// memory held twice while a band moves is about this much per worker.
template <typename T>
Index slices_per_release(const Grid<T>& grid) {
  Index slice_bytes = static_cast<Index>(sizeof(T)) * grid.updated_count();
  for (int e = 0; e < grid.dims() - 1; ++e) slice_bytes *= grid.extent()[e];
  return std::max<Index>(1, (Index{16} << 20) / slice_bytes);
}

// Elements of a padded buffer's first field before slice `slice` (global) of the slowest dimension.
inline Index padded_offset_of_slice(const TileLayout& p, Index slice) {
  const int d = p.dims - 1;
  Index per_slice = 1;
  for (int e = 0; e < d; ++e) per_slice *= p.padded[e];
  return (slice - p.tile.lo[d] + p.ghost[d]) * per_slice;
}

// Slices [a, b) of a padded buffer's slowest dimension (padded coordinates):
// the tile's cells from the grid, ghost cells T{}. Each page of the buffer is
// touched by the slab that holds it only: zeroing the whole ghost zone first
// would touch every page of the tile at once (a ghost cell lies at both ends
// of every row), before the grid could give any of its pages back.
template <typename T>
void fill_padded_slab(const TileLayout& p, const Grid<T>& grid, T* padded, Index a, Index b) {
  const int d = p.dims - 1;
  const Extent& n = p.padded;
  const Box inside = p.interior();
  Box slab{{0, 0, 0}, n};
  slab.lo[d] = a, slab.hi[d] = b;
  const GridRows<T>* rows = grid.is_generated() ? &grid.rows() : nullptr;
  for (int f = 0; f < p.updated_fields; ++f) {
    T* field = padded + f * p.padded_cells();
    const T* source = rows ? nullptr : grid.updated(f).data();
    for (Index z = slab.lo[2]; z < slab.hi[2]; ++z) {
      for (Index y = slab.lo[1]; y < slab.hi[1]; ++y) {
        T* row = field + n[0] * (y + n[1] * z);
        const Index x0 = slab.lo[0], x1 = slab.hi[0];
        const bool interior_row = y >= inside.lo[1] && y < inside.hi[1] && z >= inside.lo[2] && z < inside.hi[2];
        if (!interior_row) {
          std::fill(row + x0, row + x1, T{});
          continue;
        }
        const Index copy_lo = std::clamp(inside.lo[0], x0, x1), copy_hi = std::clamp(inside.hi[0], copy_lo, x1);
        std::fill(row + x0, row + copy_lo, T{});
        if (copy_hi > copy_lo) {
          const Index gx = p.tile.lo[0] + copy_lo - p.ghost[0], gy = p.tile.lo[1] + y - p.ghost[1],
                      gz = p.tile.lo[2] + z - p.ghost[2];
          if (rows) {
            rows->initial(f, gx, gy, gz, copy_hi - copy_lo, row + copy_lo);
          } else {
            std::memcpy(row + copy_lo, source + grid.linear(gx, gy, gz), static_cast<std::size_t>(copy_hi - copy_lo) * sizeof(T));
          }
        }
        std::fill(row + copy_hi, row + x1, T{});
      }
    }
  }
}

// Read-only fields with their ghost zone, out-of-domain cells set by the boundary.
template <typename T>
void fill_constants(const Grid<T>& grid, const TileLayout& p, T* out) {
  const Extent& n = grid.extent();
  const Index padded_cells = p.padded_cells();
  const bool constant_boundary = p.boundary.kind == BoundaryKind::constant;
  const GridRows<T>* rows = grid.is_generated() ? &grid.rows() : nullptr;
  for (int c = 0; c < grid.constant_count(); ++c) {
    for (Index plane = 0; plane < p.constant_planes; ++plane) {
      const T* source = rows ? nullptr : grid.constant(c).data() + plane * grid.cells();
      const int field = grid.updated_count() + c * static_cast<int>(p.constant_planes) + static_cast<int>(plane);
      // `count` cells of this plane from (x, y, z) along x.
      auto copy_cells = [&](Index x, Index y, Index z, Index count, T* cells_out) {
        if (rows) {
          rows->initial(field, x, y, z, count, cells_out);
        } else {
          std::copy_n(source + grid.linear(x, y, z), count, cells_out);
        }
      };
      T* destination = out + (c * p.constant_planes + plane) * padded_cells;
      for (Index z = 0; z < p.padded[2]; ++z) {
        for (Index y = 0; y < p.padded[1]; ++y) {
          const Index gy = p.tile.lo[1] - p.ghost[1] + y, gz = p.tile.lo[2] - p.ghost[2] + z;
          const bool row_outside = gy < 0 || gy >= n[1] || gz < 0 || gz >= n[2];
          const Index sy = boundary_source(gy, n[1], p.boundary.kind), sz = boundary_source(gz, n[2], p.boundary.kind);
          T* row = destination + p.padded[0] * (y + p.padded[1] * z);
          const Index x0 = p.tile.lo[0] - p.ghost[0];  // global x of the row's first cell
          const T value = static_cast<T>(p.boundary.value);
          // The part of the row inside the domain in x is one contiguous copy
          // (a cell at a time took seconds for PathFinder's 200 planes); the
          // cells left and right of it lie outside the domain in x.
          const Index inside_lo = std::clamp<Index>(-x0, 0, p.padded[0]);
          const Index inside_hi = std::clamp<Index>(n[0] - x0, inside_lo, p.padded[0]);
          auto outside_cell = [&](Index x) {
            if (constant_boundary) {
              row[x] = value;
            } else {
              copy_cells(boundary_source(x0 + x, n[0], p.boundary.kind), sy, sz, 1, row + x);
            }
          };
          for (Index x = 0; x < inside_lo; ++x) outside_cell(x);
          if (row_outside && constant_boundary) {
            std::fill(row + inside_lo, row + inside_hi, value);
          } else if (inside_hi > inside_lo) {
            copy_cells(x0 + inside_lo, sy, sz, inside_hi - inside_lo, row + inside_lo);
          }
          for (Index x = inside_hi; x < p.padded[0]; ++x) outside_cell(x);
        }
      }
    }
  }
}

// Cells of one field of the grid in slices [lo, hi) of the slowest dimension: [first, first + count).
template <typename T>
std::pair<std::size_t, std::size_t> slice_range(const Grid<T>& grid, Index lo, Index hi) {
  const int d = grid.dims() - 1;
  Index slice = 1;
  for (int e = 0; e < d; ++e) slice *= grid.extent()[e];
  if (hi <= lo) return {0, 0};
  return {static_cast<std::size_t>(lo * slice), static_cast<std::size_t>((hi - lo) * slice)};
}

}  // namespace detail

// Slices go in order, every tile of the band at once, so the grid's pages are
// given back a few megabytes behind the copy rather than after the band.
template <typename T>
void scatter_band_cpu(void* buffers[], void* cl_arg) {
  BandTransferArgs<T> args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const TileStore<T>& store = *args.store;
  Grid<T>& grid = *args.grid;
  const Band& band = store.bands()[args.band];
  const int tiles = static_cast<int>(band.tiles.size());
  const Index step = detail::slices_per_release(grid);
  run_parts_in_parallel(band.lo, band.hi, args.threads, [&](Index part_lo, Index part_hi) {
    for (Index first = part_lo; first < part_hi; first += step) {
      const Index last = std::min(first + step, part_hi);
      for (int i = 0; i < tiles; ++i) {
        const TileLayout& p = store.layout(band.tiles[i]);
        const int d = p.dims - 1;
        // The band's first and last slabs take the ghost slices beyond them.
        const Index a = first == band.lo ? 0 : first - p.tile.lo[d] + p.ghost[d];
        const Index b = last == band.hi ? p.padded[d] : last - p.tile.lo[d] + p.ghost[d];
        detail::fill_padded_slab(p, grid, static_cast<TileBuffers*>(buffers[i])->latest<T>(), a, b);
      }
      // Only whole pages inside the slab go: a page shared with a neighbouring part stays.
      if (args.release && !grid.is_generated()) {
        const auto [offset, count] = detail::slice_range(grid, first, last);
        for (int f = 0; f < grid.updated_count(); ++f) grid.updated(f).release(offset, count);
      }
    }
  }, *args.cores);
  if (grid.constant_count() == 0) return;
  for (int i = 0; i < tiles; ++i) {
    detail::fill_constants(grid, store.layout(band.tiles[i]), reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffers[tiles + i])));
  }
  if (!args.release || grid.is_generated()) return;
  // Other bands read this band's read-only cells within a ghost width of its
  // edges (their ghost zones): only the rest of the band may go now.
  const Index ghost = store.layout(band.tiles.front()).ghost[grid.dims() - 1];
  const auto [inner_offset, inner_count] = detail::slice_range(grid, band.lo + ghost, band.hi - ghost);
  for (int c = 0; c < grid.constant_count(); ++c) {
    for (Index plane = 0; plane < grid.constant_planes(); ++plane) {
      grid.constant(c).release(static_cast<std::size_t>(plane * grid.cells()) + inner_offset, inner_count);
    }
  }
}

// Slices go in order, the tiles' host pages given back a few megabytes behind the copy.
template <typename T>
void gather_band_cpu(void* buffers[], void* cl_arg) {
  BandTransferArgs<T> args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const TileStore<T>& store = *args.store;
  Grid<T>& grid = *args.grid;
  const Band& band = store.bands()[args.band];
  const int tiles = static_cast<int>(band.tiles.size());
  const Index step = detail::slices_per_release(grid);
  run_parts_in_parallel(band.lo, band.hi, args.threads, [&](Index part_lo, Index part_hi) {
    // Per tile, where the part's next page release starts: never before the
    // part's own first cell, so a page shared with the part before it (still
    // being read there) stays until the whole buffer goes below.
    std::vector<std::size_t> released(static_cast<std::size_t>(tiles));
    for (int i = 0; i < tiles; ++i) {
      released[static_cast<std::size_t>(i)] =
          static_cast<std::size_t>(detail::padded_offset_of_slice(store.layout(band.tiles[i]), part_lo));
    }
    const std::vector<std::size_t> part_start = released;
    for (Index first = part_lo; first < part_hi; first += step) {
      const Index last = std::min(first + step, part_hi);
      for (int i = 0; i < tiles; ++i) {
        const int t = band.tiles[i];
        const TileLayout& p = store.layout(t);
        const T* padded = static_cast<TileBuffers*>(buffers[i])->latest<T>();
        for (int f = 0; f < p.updated_fields; ++f) {
          if (grid.is_generated()) {
            detail::for_each_tile_row_at(p, first, last, [&](Index x, Index y, Index z, Index at_tile, Index length) {
              grid.rows().final(f, x, y, z, length, padded + f * p.padded_cells() + at_tile);
            });
            continue;
          }
          detail::for_each_tile_row(
              p, grid,
              [&](Index at_grid, Index at_tile, Index length) {
                std::memcpy(grid.updated(f).data() + at_grid, padded + f * p.padded_cells() + at_tile,
                            static_cast<std::size_t>(length) * sizeof(T));
              },
              first, last);
        }
        // Fields after the first are still to be read: only single-field tiles go early.
        if (args.release && p.updated_fields == 1) {
          // From the page the previous release stopped in: a page across that
          // boundary goes now that all of it is copied.
          constexpr std::size_t page_cells = (std::size_t{2} << 20) / sizeof(T);
          const auto u = static_cast<std::size_t>(i);
          const auto done = static_cast<std::size_t>(detail::padded_offset_of_slice(p, last));
          const std::size_t from = std::max(part_start[u], released[u] / page_cells * page_cells);
          store.tile_buffer(t).release(from, done - from);
          released[u] = done;
        }
      }
    }
  }, *args.cores);
  for (int i = 0; i < tiles; ++i) {
    const int t = band.tiles[i];
    const TileLayout& p = store.layout(t);
    if (p.constant_fields > 0 && !grid.is_generated()) {  // read-only: a generated grid's sink takes the updated fields only
      const T* constants = reinterpret_cast<const T*>(STARPU_VECTOR_GET_PTR(buffers[tiles + i]));
      for (int c = 0; c < p.constant_fields; ++c) {
        for (Index plane = 0; plane < p.constant_planes; ++plane) {
          const T* source = constants + (c * p.constant_planes + plane) * p.padded_cells();
          T* destination = grid.constant(c).data() + plane * grid.cells();
          detail::for_each_tile_row(p, grid, [&](Index at_grid, Index at_tile, Index length) {
            std::memcpy(destination + at_grid, source + at_tile, static_cast<std::size_t>(length) * sizeof(T));
          });
        }
      }
    }
    if (args.release) {
      store.tile_buffer(t).release(0, store.tile_buffer(t).size());
      if (p.constant_fields > 0) store.constant_buffer(t).release(0, store.constant_buffer(t).size());
    }
  }
}

}  // namespace trapeze
