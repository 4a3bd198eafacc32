#pragma once
// The StarPU data of a tiled run: one handle per tile (its interior, all updated
// fields), one per tile for its read-only fields with their ghost zone (filled
// once, since they never change), and two versions of every halo piece (stage s
// writes one while stage s+1 of a slower neighbour may still read the other, so
// a write never waits on a far reader). A tile's handle holds two padded
// buffers (tile + ghost zone) that its steps alternate between.
#include <array>
#include <algorithm>
#include <string>
#include <vector>

#include "codelets/tile_program.hpp"
#include "trapeze/data_handle.hpp"
#include "trapeze/host_buffer.hpp"
#include "trapeze/grid.hpp"
#include "trapeze/halo_pieces.hpp"
#include "trapeze/stencil_shape.hpp"
#include "trapeze/tiling.hpp"

namespace trapeze {

template <typename T>
class TileData {
 public:
  TileData(const Tiling& tiling, const StencilShape& shape, int height, const Grid<T>& grid,
           int updated_fields, int constant_fields)
      : layout_(build_halo_layout(tiling, ghost_width(shape, height), grid.boundary().kind)) {
    const Extent ghost = ghost_width(shape, height);
    for (int t = 0; t < tiling.count(); ++t) {
      TileProgram p;
      p.tile = tiling.box(t);
      p.ghost = ghost;
      p.padded = p.tile.grown(ghost).extent();
      p.domain = grid.extent();
      p.boundary = grid.boundary();
      p.radius = shape.radius;
      p.updated_fields = updated_fields;
      p.constant_fields = constant_fields;
      p.constant_planes = grid.constant_planes();
      p.buffer_stride = buffer_stride(updated_fields * p.padded_cells());
      const TileHalo& halo = layout_.tiles[t];
      for (int i : halo.inputs) p.input_destinations.push_back(layout_.pieces[i].destination);
      for (int i : halo.self_wraps) p.self_wraps.push_back({layout_.pieces[i].source, layout_.pieces[i].destination});
      for (int i : halo.outputs) p.output_sources.push_back(layout_.pieces[i].source);
      programs_.push_back(std::move(p));
      names_.push_back("tile " + to_string(tiling.coordinates(t), tiling.dims()));
    }
    for (int t = 0; t < tiling.count(); ++t) {
      const TileProgram& p = programs_[t];
      tile_buffers_.emplace_back(static_cast<std::size_t>(2 * p.buffer_stride));
      T* buffers = tile_buffers_.back().data();
      // Both padded buffers start as the initial tile, so every page is touched
      // here rather than in the first timed step, and no cell is ever undefined.
      std::fill_n(buffers, p.buffer_stride, T{});
      scatter_tile(grid, p, buffers);
      std::copy_n(buffers, p.buffer_stride, buffers + p.buffer_stride);
      tile_handles_.push_back(DataHandle::vector(tile_buffers_.back().data(), tile_buffers_.back().size(), sizeof(T), true));
      if (constant_fields > 0) {
        constant_buffers_.emplace_back(
            static_cast<std::size_t>(constant_fields * p.constant_planes * p.padded_cells()));
        fill_constants(grid, p, constant_buffers_.back().data());
        constant_handles_.push_back(
            DataHandle::vector(constant_buffers_.back().data(), constant_buffers_.back().size(), sizeof(T), false));
      }
    }
    // Strips live in our own touched buffers rather than where StarPU would
    // allocate them on their first write: that first write would fault every
    // page inside a timed task (see host_buffer.hpp).
    for (const HaloPiece& piece : layout_.pieces) {
      const auto count = static_cast<std::size_t>(updated_fields * piece.source.cells());
      std::array<DataHandle, 2> versions;
      for (DataHandle& version : versions) {
        strip_buffers_.emplace_back(count);
        std::fill_n(strip_buffers_.back().data(), count, T{});
        version = DataHandle::vector(strip_buffers_.back().data(), count, sizeof(T), false);
      }
      strips_.push_back(std::move(versions));
    }
  }

  const TileProgram& program(int t) const { return programs_[t]; }
  const char* name(int t) const { return names_[t].c_str(); }
  starpu_data_handle_t tile_handle(int t) const { return tile_handles_.at(t).get(); }
  starpu_data_handle_t constant_handle(int t) const { return constant_handles_[t].get(); }
  const HaloLayout& layout() const { return layout_; }

  void append_inputs(int t, int version, std::vector<starpu_data_descr>& data) const {
    for (int i : layout_.tiles[t].inputs) data.push_back({strips_[i][version].get(), STARPU_R});
  }
  void append_outputs(int t, int version, std::vector<starpu_data_descr>& data) const {
    for (int i : layout_.tiles[t].outputs) data.push_back({strips_[i][version].get(), STARPU_W});
  }

 private:
  // Calls fn(field, offset in the grid's field, offset in one padded buffer, length)
  // for each row of the tile.
  template <typename Fn>
  static void for_each_row(const TileProgram& p, const Grid<T>& grid, Fn fn) {
    const Extent e = p.tile_extent();
    const Strides s = Strides::of(p.padded);
    for (int f = 0; f < grid.updated_count(); ++f) {
      for (Index z = 0; z < e[2]; ++z) {
        for (Index y = 0; y < e[1]; ++y) {
          fn(f, grid.linear(p.tile.lo[0], p.tile.lo[1] + y, p.tile.lo[2] + z),
             f * p.padded_cells() + s.offset(p.ghost[0], p.ghost[1] + y, p.ghost[2] + z), e[0]);
        }
      }
    }
  }

  // A step reads one padded buffer and writes the other at the same offsets.
  // Were the two a whole number of 4 KiB pages apart plus a few bytes (as with
  // a plain back-to-back layout), a load would match the low 12 address bits
  // of a store made a few cells earlier, and the core would stall it as if it
  // depended on that store ("4K aliasing"). Half a page apart, no store in
  // flight aliases: jacobi2d 4096^2, h=1, tile 4096x1024, one worker went from
  // 3.55 to 3.82 GCUPS (medians of 5 runs).
  static Index buffer_stride(Index cells) {
    constexpr Index page = 4096, half_page = 2048;
    const Index bytes = cells * static_cast<Index>(sizeof(T));
    return ((bytes + page - 1) / page * page + half_page) / static_cast<Index>(sizeof(T));
  }

  static void scatter_tile(const Grid<T>& grid, const TileProgram& p, T* tile) {
    for_each_row(p, grid, [&](int f, Index at_grid, Index at_tile, Index length) {
      std::copy_n(grid.updated(f).data() + at_grid, length, tile + at_tile);
    });
  }

  // Read-only fields with their ghost zone, out-of-domain cells set by the boundary.
  static void fill_constants(const Grid<T>& grid, const TileProgram& p, T* out) {
    const Extent& n = grid.extent();
    const Index padded_cells = p.padded_cells();
    const bool constant_boundary = p.boundary.kind == BoundaryKind::constant;
    for (int c = 0; c < grid.constant_count(); ++c) {
      for (Index plane = 0; plane < p.constant_planes; ++plane) {
        const T* source = grid.constant(c).data() + plane * grid.cells();
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
              return constant_boundary ? value : source[grid.linear(boundary_source(x0 + x, n[0], p.boundary.kind), sy, sz)];
            };
            for (Index x = 0; x < inside_lo; ++x) row[x] = outside_cell(x);
            if (row_outside && constant_boundary) {
              std::fill(row + inside_lo, row + inside_hi, value);
            } else if (inside_hi > inside_lo) {
              std::copy_n(source + grid.linear(x0 + inside_lo, sy, sz), inside_hi - inside_lo, row + inside_lo);
            }
            for (Index x = inside_hi; x < p.padded[0]; ++x) row[x] = outside_cell(x);
          }
        }
      }
    }
  }

  HaloLayout layout_;
  std::vector<TileProgram> programs_;
  std::vector<std::string> names_;
  std::vector<HostBuffer<T>> tile_buffers_;
  std::vector<HostBuffer<T>> constant_buffers_;
  std::vector<HostBuffer<T>> strip_buffers_;
  // Handles are declared after the buffers they point into, so they unregister first.
  std::vector<DataHandle> tile_handles_;
  std::vector<DataHandle> constant_handles_;
  std::vector<std::array<DataHandle, 2>> strips_;
};

}  // namespace trapeze
