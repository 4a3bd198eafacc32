#pragma once
// The CPU codelet of a trapezoid stage (seed 000, section 3): fill the tile's
// ghost zone of width r*h from its neighbours' strips, advance h steps, and
// publish the strips its neighbours read next stage.
//
// Buffers, in order: tile (RW, two padded buffers), [constant padded tile (R)],
// incoming strips (R)..., outgoing strips (W)...
#include <starpu.h>

#include <utility>

#include "codelets/boundary_fill.hpp"
#include "codelets/box_copy.hpp"
#include "codelets/stencil_sweep_cpu.hpp"
#include "codelets/tile_program.hpp"

namespace trapeze {

// Where step k (1-based) of a stage computes, in padded coordinates, clipped to
// the domain in non-periodic dimensions (outside cells come from the boundary).
inline Box trapezoid_region(const TileProgram& p, TrapezoidMode mode, int k) {
  Box region;
  for (int d = 0; d < max_dims; ++d) {
    // shrink: the cells still valid after k steps; full: every cell whose
    // stencil stays inside the buffer (seed 000's "compute as if the tile
    // does not shrink, commit the valid part").
    const Index inset = mode == TrapezoidMode::shrink ? p.radius[d] * k : p.radius[d];
    region.lo[d] = inset;
    region.hi[d] = p.padded[d] - inset;
    if (p.boundary.kind != BoundaryKind::periodic) {
      const Index first_inside = p.ghost[d] - p.tile.lo[d];
      region.lo[d] = std::max(region.lo[d], first_inside);
      region.hi[d] = std::min(region.hi[d], first_inside + p.domain[d]);
    }
  }
  return region;
}

template <typename T>
void publish_strips(const T* padded, const TileProgram& p, void* buffers[], int first_buffer) {
  const BufferView padded_view{p.padded, p.padded_cells()};
  for (std::size_t i = 0; i < p.output_sources.size(); ++i) {
    const Box& source = p.output_sources[i];
    T* strip = reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffers[first_buffer + i]));
    copy_box(padded, padded_view, source.shifted(p.ghost), strip, BufferView{source.extent(), source.cells()},
             {0, 0, 0}, p.updated_fields);
  }
}

// The tile's data is two padded buffers (tile + ghost zone, every updated field):
// a stage reads the current one, and its steps alternate between the two, so
// no step copies the tile; only the ghost zone is gathered, from the strips.
template <Stencil S>
void trapezoid_cpu(void* buffers[], void* cl_arg) {
  using T = typename S::value_type;
  StageArgs<S> args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const TileProgram& p = *args.program;
  const int fields = p.updated_fields;
  const Index padded_cells = p.padded_cells();

  T* tile = reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffers[0]));
  T* current = tile + args.current * p.buffer_stride;
  T* next = tile + (1 - args.current) * p.buffer_stride;
  int buffer = 1;
  const T* constants = nullptr;
  if (p.constant_fields > 0) constants = reinterpret_cast<const T*>(STARPU_VECTOR_GET_PTR(buffers[buffer++]));

  // Ghost zone: incoming strips, periodic self-wraps, then the boundary.
  const BufferView padded_view{p.padded, padded_cells};
  for (const Box& destination : p.input_destinations) {
    const T* strip = reinterpret_cast<const T*>(STARPU_VECTOR_GET_PTR(buffers[buffer++]));
    const Extent e = destination.extent();
    copy_box(strip, BufferView{e, cell_count(e)}, Box{{0, 0, 0}, e}, current, padded_view, destination.lo,
             fields);
  }
  for (const WrapCopy& wrap : p.self_wraps) {
    copy_box(current, padded_view, wrap.source.shifted(p.ghost), current, padded_view, wrap.destination.lo, fields);
  }
  fill_boundary(current, p, fields, trapezoid_region(p, args.mode, 1).grown(p.radius));

  const Index constant_field_stride = p.constant_planes * padded_cells;
  for (int k = 1; k <= args.steps; ++k) {
    const Index step = args.first_step + k - 1;
    const T* plane = constants ? constants + (p.constant_planes > 1 ? step : 0) * padded_cells : nullptr;
    sweep_cpu(*args.stencil, current, next, plane, p.padded, constant_field_stride,
              trapezoid_region(p, args.mode, k), step);
    // Outside cells are read only by the steps of this stage: none after the last.
    if (k < args.steps) fill_boundary(next, p, fields, trapezoid_region(p, args.mode, k + 1).grown(p.radius));
    std::swap(current, next);
  }
  if (args.publish) publish_strips(current, p, buffers, buffer);
}

// Before the first stage: publish the initial strips. Buffers: tile (R), outgoing strips (W)...
template <typename T>
void publish_cpu(void* buffers[], void* cl_arg) {
  PublishArgs args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const TileProgram& p = *args.program;
  const T* tile = reinterpret_cast<const T*>(STARPU_VECTOR_GET_PTR(buffers[0]));
  publish_strips(tile + args.current * p.buffer_stride, p, buffers, 1);
}

}  // namespace trapeze
