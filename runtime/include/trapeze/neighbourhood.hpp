#pragma once
// The view a point-update function gets of its surroundings. It is a handful of
// pointers and strides, so after inlining the compiler sees plain indexed loads
// and vectorises the innermost loop; it has no virtual calls and compiles for
// CUDA devices as well.
#include "trapeze/geometry.hpp"

#if defined(__CUDACC__)
#define TRAPEZE_HOST_DEVICE __host__ __device__
#else
#define TRAPEZE_HOST_DEVICE
#endif

namespace trapeze {

template <typename T>
struct Neighbourhood {
  const T* center;           // updated field 0 at this point
  Index stride_y;
  Index stride_z;
  Index field_stride;        // distance between two updated fields
  const T* constant_center;  // constant field 0 at this point (current plane)
  Index constant_field_stride;
  Index step;                // the time step being computed (0 for the first)
  // Read-only fields have strides of their own: a GPU kernel keeps the updated
  // fields of a block in shared memory while the constants stay in device memory.
  Index constant_stride_y;
  Index constant_stride_z;

  // Updated field 0 at offset (dx, dy, dz).
  TRAPEZE_HOST_DEVICE T operator()(Index dx, Index dy = 0, Index dz = 0) const {
    return center[dx + dy * stride_y + dz * stride_z];
  }
  TRAPEZE_HOST_DEVICE T field(int f, Index dx = 0, Index dy = 0, Index dz = 0) const {
    return center[f * field_stride + dx + dy * stride_y + dz * stride_z];
  }
  // Read-only field c (e.g. HotSpot's power map) at offset (dx, dy, dz).
  TRAPEZE_HOST_DEVICE T constant(int c, Index dx = 0, Index dy = 0, Index dz = 0) const {
    return constant_center[c * constant_field_stride + dx + dy * constant_stride_y + dz * constant_stride_z];
  }
};

}  // namespace trapeze
