#pragma once
// One time step of a stencil over a box of a padded buffer, on a CPU core. The
// innermost loop is over x with unit stride, so it vectorises once the update
// function is inlined.
#include "codelets/tile_program.hpp"
#include "trapeze/stencil.hpp"

namespace trapeze {

template <Stencil S>
void sweep_cpu(const S& stencil, const typename S::value_type* __restrict in,
               typename S::value_type* __restrict out, const typename S::value_type* constants,
               const Extent& padded, Index constant_field_stride, const Box& region, Index step) {
  using T = typename S::value_type;
  const Strides s = Strides::of(padded);
  const Index field_stride = cell_count(padded);
  for (Index z = region.lo[2]; z < region.hi[2]; ++z) {
    for (Index y = region.lo[1]; y < region.hi[1]; ++y) {
      const Index row = s.offset(0, y, z);
      const T* in_row = in + row;
      T* out_row = out + row;
      const T* constant_row = constants ? constants + row : nullptr;
      for (Index x = region.lo[0]; x < region.hi[0]; ++x) {
        const Neighbourhood<T> at{in_row + x,
                                  s.y,
                                  s.z,
                                  field_stride,
                                  constant_row ? constant_row + x : nullptr,
                                  constant_field_stride,
                                  step};
        apply_update(stencil, at, out_row + x, field_stride);
      }
    }
  }
}

}  // namespace trapeze
