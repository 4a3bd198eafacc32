#pragma once
// The CPU implementation of a trapezoid stage (seed 000, section 3): fill the
// tile's ghost zone of width r*h from its neighbours' strips, advance h steps
// in place, and publish the strips its neighbours read next stage. Buffers as
// in codelets/stage_args.hpp.
#include <starpu.h>

#include "boundary_fill.hpp"
#include "box_copy.hpp"
#include "sweep_in_place.hpp"
#include "../stage_args.hpp"
#include "trapeze/tile_buffers.hpp"

namespace trapeze {

template <typename T>
void publish_strips_cpu(const T* padded, const TileLayout& p, void* buffers[], int first_buffer) {
  const BufferView padded_view{p.padded, p.padded_cells()};
  for (std::size_t i = 0; i < p.output_sources.size(); ++i) {
    const Box& source = p.output_sources[i];
    T* strip = reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffers[first_buffer + i]));
    copy_box(padded, padded_view, source.shifted(p.ghost), strip, BufferView{source.extent(), source.cells()},
             {0, 0, 0}, p.updated_fields);
  }
}

template <Stencil S>
void stage_cpu(void* buffers[], void* cl_arg) {
  using T = typename S::value_type;
  StageArgs<S> args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const TileLayout& p = *args.layout;
  const int fields = p.updated_fields;
  const Index padded_cells = p.padded_cells();

  T* tile = static_cast<TileBuffers*>(buffers[0])->latest<T>();
  int buffer = 1;
  const T* constants = nullptr;
  if (p.constant_fields > 0) constants = reinterpret_cast<const T*>(STARPU_VECTOR_GET_PTR(buffers[buffer++]));
  T* chunks = reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffers[buffer++]));

  // Ghost zone: incoming strips, periodic self-wraps, then the boundary.
  const BufferView padded_view{p.padded, padded_cells};
  for (const Box& destination : p.input_destinations) {
    const T* strip = reinterpret_cast<const T*>(STARPU_VECTOR_GET_PTR(buffers[buffer++]));
    const Extent e = destination.extent();
    copy_box(strip, BufferView{e, cell_count(e)}, Box{{0, 0, 0}, e}, tile, padded_view, destination.lo, fields);
  }
  for (const WrapCopy& wrap : p.self_wraps) {
    copy_box(tile, padded_view, wrap.source.shifted(p.ghost), tile, padded_view, wrap.destination.lo, fields);
  }
  fill_boundary(tile, p, fields, trapezoid_region(p, args.mode, 1).grown(p.radius));

  const Index constant_field_stride = p.constant_planes * padded_cells;
  for (int k = 1; k <= args.steps; ++k) {
    const Index step = args.first_step + k - 1;
    const T* plane = constants ? constants + (p.constant_planes > 1 ? step : 0) * padded_cells : nullptr;
    sweep_in_place(*args.stencil, tile, plane, constant_field_stride, p, trapezoid_region(p, args.mode, k), step,
                   chunks);
    // Outside cells are read only by the steps of this stage: none after the last.
    if (k < args.steps) fill_boundary(tile, p, fields, trapezoid_region(p, args.mode, k + 1).grown(p.radius));
  }
  if (args.publish) publish_strips_cpu(tile, p, buffers, buffer);
}

// Before the first stage: publish the initial strips. Buffers: tile (R), outgoing strips (W)...
template <typename T>
void publish_cpu(void* buffers[], void* cl_arg) {
  PublishArgs args;
  starpu_codelet_unpack_args(cl_arg, &args);
  publish_strips_cpu(static_cast<TileBuffers*>(buffers[0])->latest<T>(), *args.layout, buffers, 1);
}

}  // namespace trapeze
