#pragma once
// Runs a stencil over a grid in skewed slabs (trapeze/skewed_slabs.hpp): one
// StarPU task a slab a pass, each holding the slabs it touches, so StarPU's
// memory manager moves and evicts slabs as tasks need them and sequential
// consistency orders the tasks. No ghost zone exists and nothing is computed
// twice: a slab crosses to a device and back once a pass.
//
//   trapeze::Runtime runtime;
//   trapeze::SkewedRun run(runtime, Himeno{}, grid, trapeze::SkewedSlabs(256, 8, 32, 1));
//   run.advance(128);  // grid now holds step 128
//
// CPU workers only so far: the CUDA implementation of the task is the next
// step (docs/ARCHITECTURE.md, "Skewed slabs").
#include <starpu.h>

#include <algorithm>
#include <string>
#include <vector>

#include "codelets/cpu/skewed_cpu.hpp"
#include "codelets/skewed_args.hpp"
#include "trapeze/data_handle.hpp"
#include "trapeze/error.hpp"
#include "trapeze/grid.hpp"
#include "trapeze/host_buffer.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/skewed_reference.hpp"
#include "trapeze/skewed_slabs.hpp"
#include "trapeze/stencil.hpp"

namespace trapeze {

template <Stencil S>
class SkewedRun {
 public:
  using T = typename S::value_type;

  SkewedRun(Runtime& runtime, const S& stencil, Grid<T>& grid, const SkewedSlabs& slabs)
      : stencil_(stencil), grid_(grid), slabs_(slabs), geometry_(geometry_of(grid, slabs)) {
    (void)runtime;  // StarPU is up while it lives
    if (grid.boundary().kind == BoundaryKind::periodic) {
      throw InvalidArgument("skewed slabs need a boundary that does not wrap, got periodic");
    }
    if (grid.constant_planes() > 1) {
      throw InvalidArgument("skewed slabs do not take time-varying read-only fields (" +
                            std::to_string(grid.constant_planes()) + " planes)");
    }
    starpu_codelet_init(&codelet_);
    codelet_.cpu_funcs[0] = &skewed_task_cpu<S>;
    codelet_.cpu_funcs_name[0] = "skewed_task_cpu";
    codelet_.nbuffers = STARPU_VARIABLE_NBUFFERS;
    codelet_.name = "skewed";
  }
  SkewedRun(const SkewedRun&) = delete;
  SkewedRun& operator=(const SkewedRun&) = delete;

  // Advances the grid by `steps` steps from `first_step` (the step its values
  // hold), in passes of the slabs' height; returns with the grid holding the
  // result.
  void advance(Index steps, Index first_step = 0) {
    if (steps < 0) throw InvalidArgument("steps must be >= 0, got " + std::to_string(steps));
    if (first_step < 0) throw InvalidArgument("first step must be >= 0, got " + std::to_string(first_step));
    if (steps == 0) return;
    scatter(first_step);
    {
      std::vector<DataHandle> updated, read_only;
      for (int s = 0; s < slabs_.count(); ++s) {
        updated.push_back(DataHandle::vector(updated_homes_[s].data(), updated_homes_[s].size(), sizeof(T), true));
        if (geometry_.constant_fields > 0) {
          read_only.push_back(DataHandle::vector(constant_homes_[s].data(), constant_homes_[s].size(), sizeof(T), false));
        }
      }
      for (Index done = 0; done < steps; done += slabs_.height()) {
        const Index pass_steps = std::min(slabs_.height(), steps - done);
        for (int j = 0; j < slabs_.count(); ++j) submit(j, first_step + done, pass_steps, updated, read_only);
      }
      // Unregistering waits for the tasks and brings each slab home.
    }
    gather(first_step + steps);
  }

 private:
  static SkewedGeometry geometry_of(const Grid<T>& grid, const SkewedSlabs& slabs) {
    SkewedGeometry g;
    g.domain = grid.extent();
    g.radius = S::shape.radius;
    g.axis = reference::skewed_axis(grid.dims());
    if (slabs.planes() != g.domain[g.axis] || slabs.radius() != g.radius[g.axis]) {
      throw InvalidArgument("skewed slabs of " + std::to_string(slabs.planes()) + " planes and radius " +
                            std::to_string(slabs.radius()) + " do not match the grid's axis " +
                            std::to_string(g.axis) + " (" + std::to_string(g.domain[g.axis]) + " planes, radius " +
                            std::to_string(g.radius[g.axis]) + ")");
    }
    g.slab = slabs.slab();
    g.plane_row = g.domain[0] + 2 * g.radius[0];
    g.plane_cells = g.plane_row * (g.axis == 2 ? g.domain[1] + 2 * g.radius[1] : 1);
    g.updated_fields = grid.updated_count();
    g.constant_fields = grid.constant_count();
    g.boundary = grid.boundary();
    return g;
  }

  // Cell (x, y) of a padded plane; the plane's place along the axis is apart.
  Index padded_at(Index x, Index y) const {
    return (x + geometry_.radius[0]) + geometry_.plane_row * (geometry_.axis == 2 ? y + geometry_.radius[1] : 0);
  }

  // Calls visit(slab, plane within it, grid index of the plane's row y's first cell, padded index) for every row.
  template <typename Visit>
  void for_each_row(Visit visit) const {
    const Index rows = geometry_.axis == 2 ? geometry_.domain[1] : 1;
    for (int s = 0; s < slabs_.count(); ++s) {
      for (Index p = 0; p < geometry_.planes_of(s); ++p) {
        const Index plane = s * geometry_.slab + p;
        for (Index y = 0; y < rows; ++y) {
          const Index grid_row = geometry_.axis == 2 ? grid_.linear(0, y, plane) : grid_.linear(0, plane, 0);
          visit(s, p, grid_row, padded_at(0, y));
        }
      }
    }
  }

  void scatter(Index first_step) {
    const SkewedGeometry& g = geometry_;
    updated_homes_.clear();
    constant_homes_.clear();
    for (int s = 0; s < slabs_.count(); ++s) {
      const std::size_t cells = static_cast<std::size_t>(g.planes_of(s) * g.plane_cells);
      updated_homes_.emplace_back(2 * g.updated_fields * cells);
      std::fill_n(updated_homes_.back().data(), updated_homes_.back().size(), T{});
      if (g.constant_fields > 0) constant_homes_.emplace_back(g.constant_fields * cells);
    }
    const Index nx = g.domain[0];
    for_each_row([&](int s, Index p, Index grid_row, Index padded) {
      const Index planes = g.planes_of(s);
      for (int f = 0; f < g.updated_fields; ++f) {
        T* home = updated_homes_[s].data() + (((first_step % 2) * g.updated_fields + f) * planes + p) * g.plane_cells;
        std::copy_n(grid_.updated(f).data() + grid_row, nx, home + padded);
      }
      for (int c = 0; c < g.constant_fields; ++c) {
        T* home = constant_homes_[s].data() + (c * planes + p) * g.plane_cells;
        std::copy_n(grid_.constant(c).data() + grid_row, nx, home + padded);
      }
    });
  }

  void gather(Index last_step) {
    const SkewedGeometry& g = geometry_;
    const Index nx = g.domain[0];
    for_each_row([&](int s, Index p, Index grid_row, Index padded) {
      const Index planes = g.planes_of(s);
      for (int f = 0; f < g.updated_fields; ++f) {
        const T* home = updated_homes_[s].data() + (((last_step % 2) * g.updated_fields + f) * planes + p) * g.plane_cells;
        std::copy_n(home + padded, nx, grid_.updated(f).data() + grid_row);
      }
    });
    updated_homes_.clear();
    constant_homes_.clear();
  }

  void submit(int j, Index first_step, Index steps, const std::vector<DataHandle>& updated,
              const std::vector<DataHandle>& read_only) {
    const auto [first_slab, last_slab] = slabs_.touched(j, steps);
    const PlaneRange range = slabs_.updated(j, 1);
    SkewedTaskArgs<S> args{&geometry_, &stencil_, first_slab, last_slab, j, first_step, steps,
                           range.first, range.last, slabs_.radius(), j < slabs_.count() - 1};
    std::vector<starpu_data_descr> data;
    for (int s = first_slab; s <= last_slab; ++s) {
      data.push_back({updated[s].get(), s <= j ? STARPU_RW : STARPU_R});
    }
    for (int s = first_slab; s <= last_slab && !read_only.empty(); ++s) data.push_back({read_only[s].get(), STARPU_R});
    const int rc = starpu_task_insert(&codelet_, STARPU_VALUE, &args, sizeof args, STARPU_DATA_MODE_ARRAY, data.data(),
                                      static_cast<int>(data.size()), STARPU_NAME, "skewed", 0);
    if (rc != 0) throw RuntimeError("starpu_task_insert", rc);
  }

  S stencil_;
  Grid<T>& grid_;
  SkewedSlabs slabs_;
  SkewedGeometry geometry_;
  starpu_codelet codelet_{};
  std::vector<HostBuffer<T>> updated_homes_, constant_homes_;
};

}  // namespace trapeze
