#pragma once
// The baseline a StarPU user would write by hand for one stencil, per step:
// the whole grid in two padded buffers (a ring of r cells holds the clamp
// boundary), cut into bands along the slowest dimension, registered band by
// band as StarPU vectors; step s submits one task per band that reads the
// bands b-1, b, b+1 of one buffer and writes band b of the other, computes its
// rows with the stencil's point update and refreshes the boundary ring of its
// rows. Every step is submitted up front; StarPU's data dependencies order
// them (no barrier). The same tiles as Trapeze's h = 1 (whole bands).
#include <starpu.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "trapeze/grid.hpp"
#include "trapeze/stencil.hpp"

namespace bench {

template <trapeze::Stencil S>
class StarpuByHand {
 public:
  using T = typename S::value_type;
  using Index = trapeze::Index;

  StarpuByHand(const S& stencil, const trapeze::Grid<T>& grid, int bands)
      : stencil_(stencil), n_(grid.extent()), planes_(grid.constant_planes()) {
    static_assert(trapeze::updated_fields_of<S> == 1, "one updated field");
    if (grid.boundary().kind != trapeze::BoundaryKind::clamp) throw std::invalid_argument("clamp boundary only");
    d_ = S::dims - 1;
    for (int e = 0; e < 3; ++e) padded_[e] = n_[e] + 2 * S::shape.radius[e];
    slice_ = 1;
    for (int e = 0; e < d_; ++e) slice_ *= padded_[e];
    cells_ = trapeze::cell_count(padded_);
    // Both buffers in one allocation, half a page apart modulo 4 KiB: as in
    // Trapeze's tiles, so a step's loads never alias its recent stores.
    const Index gap = (4096 - (cells_ * static_cast<Index>(sizeof(T))) % 4096 + 2048) % 4096 / static_cast<Index>(sizeof(T));
    storage_.assign(static_cast<std::size_t>(2 * cells_ + gap), T{});
    buffer_[0] = storage_.data();
    buffer_[1] = storage_.data() + cells_ + gap;
    place(grid.updated(0).data(), buffer_[0]);
    refresh_slices(buffer_[0], 0, padded_[d_]);
    if (trapeze::constant_fields_of<S> > 0) {
      constants_.assign(static_cast<std::size_t>(cells_ * planes_), T{});
      for (Index p = 0; p < planes_; ++p) {
        place(grid.constant(0).data() + p * grid.cells(), constants_.data() + p * cells_);
        refresh_slices(constants_.data() + p * cells_, 0, padded_[d_]);
      }
      starpu_vector_data_register(&constant_handle_, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(constants_.data()),
                                  static_cast<uint32_t>(constants_.size()), sizeof(T));
    }
    // Bands of interior slices; the first and last also hold the ring's slices.
    const Index r = S::shape.radius[d_], inner = n_[d_];
    bands = static_cast<int>(std::clamp<Index>(bands, 1, inner));
    for (int b = 0; b < bands; ++b) {
      const Index lo = r + inner * b / bands, hi = r + inner * (b + 1) / bands;
      band_lo_.push_back(lo);
      band_hi_.push_back(hi);
    }
    for (int which = 0; which < 2; ++which) {
      for (int b = 0; b < bands; ++b) {
        const Index first = b == 0 ? 0 : band_lo_[b], last = b == bands - 1 ? padded_[d_] : band_hi_[b];
        starpu_data_handle_t h = nullptr;
        starpu_vector_data_register(&h, STARPU_MAIN_RAM, reinterpret_cast<uintptr_t>(buffer_[which] + first * slice_),
                                    static_cast<uint32_t>((last - first) * slice_), sizeof(T));
        handles_[which].push_back(h);
      }
    }
    starpu_codelet_init(&codelet_);
    codelet_.cpu_funcs[0] = &StarpuByHand::band_step;
    codelet_.nbuffers = STARPU_VARIABLE_NBUFFERS;
    codelet_.name = "by_hand_step";
  }
  ~StarpuByHand() {
    starpu_task_wait_for_all();
    for (auto& list : handles_) {
      for (starpu_data_handle_t h : list) starpu_data_unregister(h);
    }
    if (constant_handle_) starpu_data_unregister(constant_handle_);
  }
  StarpuByHand(const StarpuByHand&) = delete;
  StarpuByHand& operator=(const StarpuByHand&) = delete;

  // Submits `steps` steps; wait() blocks until they are done.
  void submit(Index steps) {
    for (Index k = 0; k < steps; ++k, ++step_) {
      const int from = static_cast<int>(step_ & 1);
      for (int b = 0; b < static_cast<int>(band_lo_.size()); ++b) {
        std::vector<starpu_data_descr> data;
        for (int nb : {b - 1, b, b + 1}) {
          if (nb >= 0 && nb < static_cast<int>(band_lo_.size())) data.push_back({handles_[from][nb], STARPU_R});
        }
        data.push_back({handles_[1 - from][b], STARPU_W});
        if (constant_handle_) data.push_back({constant_handle_, STARPU_R});
        Args args{this, b, from, step_};
        const int rc = starpu_task_insert(&codelet_, STARPU_VALUE, &args, sizeof args, STARPU_DATA_MODE_ARRAY, data.data(),
                                          static_cast<int>(data.size()), 0);
        if (rc != 0) throw std::runtime_error("starpu_task_insert failed: " + std::to_string(rc));
      }
    }
  }
  void wait() const { starpu_task_wait_for_all(); }

  // The interior of the latest buffer, in the grid's layout.
  std::vector<T> result() const {
    std::vector<T> out(static_cast<std::size_t>(trapeze::cell_count(n_)));
    const T* latest = buffer_[step_ & 1];
    for (Index z = 0; z < n_[2]; ++z) {
      for (Index y = 0; y < n_[1]; ++y) {
        std::copy_n(latest + offset(S::shape.radius[0], y + S::shape.radius[1], z + S::shape.radius[2]), n_[0],
                    out.data() + n_[0] * (y + n_[1] * z));
      }
    }
    return out;
  }

 private:
  struct Args {
    StarpuByHand* self;
    int band;
    int from;
    Index step;
  };

  Index offset(Index x, Index y, Index z) const { return x + padded_[0] * (y + padded_[1] * z); }

  void place(const T* cells, T* padded) const {
    for (Index z = 0; z < n_[2]; ++z) {
      for (Index y = 0; y < n_[1]; ++y) {
        std::copy_n(cells + n_[0] * (y + n_[1] * z), n_[0],
                    padded + offset(S::shape.radius[0], y + S::shape.radius[1], z + S::shape.radius[2]));
      }
    }
  }

  // The ring of slices [first, last): interior slices first, since the ring's
  // own slices copy them whole (their x-ends included).
  void refresh_slices(T* buffer, Index first, Index last) const {
    const Index inner_lo = S::shape.radius[d_], inner_hi = inner_lo + n_[d_];
    // In 1-D an interior slice is a cell: nothing of it is ring.
    if (d_ > 0) {
      for (Index s = std::max(first, inner_lo); s < std::min(last, inner_hi); ++s) refresh_boundary(buffer, s);
    }
    for (Index s = first; s < last; ++s) {
      if (s < inner_lo || s >= inner_hi) refresh_boundary(buffer, s);
    }
  }

  // The clamp ring of slowest-dimension slice s (padded coordinates): x ends of
  // its rows, then (3-D) its y-ring rows, then, for the ring's own slices, a
  // copy of the nearest interior slice. Corners take the corner cell's value.
  void refresh_boundary(T* buffer, Index s) const {
    const Index rx = S::shape.radius[0], ry = S::shape.radius[1], rd = S::shape.radius[d_];
    const Index inner_lo = rd, inner_hi = rd + n_[d_];
    if (s < inner_lo || s >= inner_hi) {
      const Index source = s < inner_lo ? inner_lo : inner_hi - 1;
      std::copy_n(buffer + source * slice_, slice_, buffer + s * slice_);
      return;
    }
    auto fix_row = [&](T* row) {
      for (Index x = 0; x < rx; ++x) row[x] = row[rx];
      for (Index x = rx + n_[0]; x < padded_[0]; ++x) row[x] = row[rx + n_[0] - 1];
    };
    if (d_ == 0) return;  // 1-D: the ring is the slices above
    const Index rows = d_ == 1 ? 1 : padded_[1];
    T* base = buffer + s * slice_;
    for (Index y = d_ == 1 ? 0 : ry; y < (d_ == 1 ? 1 : ry + n_[1]); ++y) fix_row(base + (d_ == 1 ? 0 : y * padded_[0]));
    if (d_ == 2) {
      for (Index y = 0; y < ry; ++y) std::copy_n(base + ry * padded_[0], padded_[0], base + y * padded_[0]);
      for (Index y = ry + n_[1]; y < rows; ++y) std::copy_n(base + (ry + n_[1] - 1) * padded_[0], padded_[0], base + y * padded_[0]);
    }
  }

  // One row, in a function of its own with restrict parameters so the
  // compiler vectorises it as it would a careful hand-written loop.
  static void row_step(const S stencil, const T* __restrict in_row, T* __restrict out_row, const T* constant_row,
                       Index x0, Index x1, Index sy, Index sz, Index cells, Index constant_stride, Index step) {
    for (Index x = x0; x < x1; ++x) {
      const trapeze::Neighbourhood<T> at{in_row + x, sy, sz, cells, constant_row ? constant_row + x : nullptr,
                                         constant_stride, step, sy, sz};
      trapeze::apply_update(stencil, at, out_row + x, cells);
    }
  }

  static void band_step(void* buffers[], void* cl_arg) {
    Args args;
    starpu_codelet_unpack_args(cl_arg, &args);
    StarpuByHand& self = *args.self;
    const T* in = self.buffer_[args.from];
    T* out = self.buffer_[1 - args.from];
    (void)buffers;  // the bands are views of the two whole buffers
    const Index plane = self.planes_ > 1 ? args.step : 0;
    const T* constants = self.constants_.empty() ? nullptr : self.constants_.data() + plane * self.cells_;
    const auto& p = self.padded_;
    const Index sy = p[0], sz = p[0] * p[1];
    trapeze::Box box{{S::shape.radius[0], S::shape.radius[1], S::shape.radius[2]},
                     {S::shape.radius[0] + self.n_[0], S::shape.radius[1] + self.n_[1], S::shape.radius[2] + self.n_[2]}};
    box.lo[self.d_] = self.band_lo_[args.band];
    box.hi[self.d_] = self.band_hi_[args.band];
    const S stencil = self.stencil_;
    const Index cells = self.cells_, constant_stride = self.planes_ * self.cells_, step = args.step;
    for (Index z = box.lo[2]; z < box.hi[2]; ++z) {
      for (Index y = box.lo[1]; y < box.hi[1]; ++y) {
        const Index row = y * sy + z * sz;
        row_step(stencil, in + row, out + row, constants ? constants + row : nullptr, box.lo[0], box.hi[0], sy, sz, cells,
                 constant_stride, step);
      }
    }
    const int last = static_cast<int>(self.band_lo_.size()) - 1;
    const Index first = args.band == 0 ? 0 : self.band_lo_[args.band];
    const Index end = args.band == last ? p[self.d_] : self.band_hi_[args.band];
    self.refresh_slices(out, first, end);
  }

  S stencil_;
  trapeze::Extent n_;
  Index planes_;
  int d_ = 0;
  trapeze::Extent padded_{1, 1, 1};
  Index slice_ = 1, cells_ = 1;
  std::vector<T> storage_;
  T* buffer_[2] = {nullptr, nullptr};
  std::vector<T> constants_;
  std::vector<Index> band_lo_, band_hi_;
  std::vector<starpu_data_handle_t> handles_[2];
  starpu_data_handle_t constant_handle_ = nullptr;
  starpu_codelet codelet_{};
  Index step_ = 0;
};

}  // namespace bench
