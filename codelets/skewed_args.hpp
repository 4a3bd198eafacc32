#pragma once
// The arguments of a skewed-slab task (trapeze/skewed_slabs.hpp, the
// schedule; trapeze/skewed_run.hpp, the run), shared by its CPU and CUDA
// implementations.
//
// A slab's buffers: its updated fields, both step parities ([parity][field]
// [plane][padded plane], RW), and its read-only fields ([field][plane]
// [padded plane], R). Planes are padded by the radius in the axes the slab
// spans, not along the skewed axis. A task's buffers: the updated buffers of
// the slabs it touches, in order, then their read-only buffers.
#include "trapeze/boundary.hpp"
#include "trapeze/geometry.hpp"

namespace trapeze {

// Most slabs one task on a GPU touches: the CUDA task's slab pointers travel
// to its kernels by value, in arrays of this size.
inline constexpr int skewed_max_slabs = 120;

struct SkewedGeometry {
  Extent domain;       // cells
  Extent radius;
  int axis = 2;        // the skewed (slowest) axis: 2 in 3-D, 1 in 2-D
  Index slab = 1;      // planes a slab (the last may have fewer)
  Index plane_row = 1;    // padded cells along x
  Index plane_cells = 1;  // padded cells of a plane
  int updated_fields = 1;
  int constant_fields = 0;
  Boundary boundary;

  Index planes() const { return domain[axis]; }
  Index planes_of(int slab_index) const {
    const Index first = slab_index * slab;
    return (first + slab <= planes() ? slab : planes() - first);
  }
};

template <typename S>
struct SkewedTaskArgs {
  const SkewedGeometry* geometry;
  const S* stencil;
  int first_slab;      // the slabs the task touches, first..last
  int last_slab;
  int writes_until;    // the last slab it writes (the next one it only reads)
  Index first_step;    // the pass's first step (its parity picks the buffers)
  Index steps;         // steps of this pass
  // Planes of its step t: [max(0, first - lean (t-1)), last - lean (t-1)],
  // the last task's top staying at the domain's last plane.
  Index first;
  Index last;
  Index lean;          // the radius along the axis
  bool lean_top;       // false for the last slab's task
};

}  // namespace trapeze
