#pragma once
// The arguments of a skewed-slab task (trapeze/skewed_slabs.hpp, the
// schedule; trapeze/skewed_run.hpp, the run), shared by its CPU and CUDA
// implementations.
//
// A slab's buffers: its updated fields, one buffer a step parity ([field]
// [plane][padded plane] each), and its read-only fields ([field][plane]
// [padded plane]). Planes are padded by the radius in the axes the slab spans, not
// along the skewed axis.
//
// The planes a pass works on live in one ring window (SkewedRing), a data
// handle every task holds RW, so it stays on the device from task to task: a
// task copies into it only the slabs it touches that the ring does not hold
// (at the pass's first step, the start parity), and copies out only the
// slabs no later task of the pass reads (at its last step, the end parity);
// passes alternate direction, and a pass's last task leaves its slabs in the
// ring to the next (trapeze/skewed_slabs.hpp, skewed_schedule). Before,
// every task copied all the slabs it touched, both parities, into a scratch
// window and back: by count, for Himeno L in 2-plane slabs, about half again
// the bytes of its steps (docs/PERF.md, session 36). A task's buffers: the
// ring (RW; none where SkewedTaskArgs::ring points to it); the end-parity
// buffers of the slabs it copies out (RW, though overwritten: W stalled under
// caps; invalidated just before, so nothing stale is copied in:
// trapeze/skewed_run.hpp); the
// start-parity buffers of those it copies in (R; a lone slab copied in and
// out at one parity is one RW buffer); the read-only buffers of the slabs
// whose read-only fields it reads (R): every slab it touches where the
// stencil reads them at its cell only (constants_at_cell_only_of), else
// those it copies into the ring.
#include <utility>

#include "trapeze/boundary.hpp"
#include "trapeze/geometry.hpp"
#include "trapeze/leaning_planes.hpp"
#include "trapeze/neighbourhood.hpp"  // TRAPEZE_HOST_DEVICE

namespace trapeze {

// Most slabs one task on a GPU touches: the CUDA task's slab pointers travel
// to its kernels by value, in arrays of this size.
inline constexpr int skewed_max_slabs = 120;

// The ring window's slots. Plane p (from -r, the first plane beyond the
// domain's start) lives at slot (p + r) mod R, R being at least the planes a
// task touches plus r beyond each end. A stencil reads planes p - r .. p + r
// at one stride, so the first 2r slots have twins after the last (slot u and
// u + R hold the same plane): a plane whose slot is below r is read from its
// twin, and writes keep both.
struct SkewedRing {
  Index planes = 1;  // R
  Index radius = 1;  // r along the skewed axis

  TRAPEZE_HOST_DEVICE Index slots() const { return planes + 2 * radius; }
  TRAPEZE_HOST_DEVICE Index slot(Index plane) const { return (plane + radius) % planes; }
  // The slot from which planes plane - r .. plane + r lie at one stride.
  TRAPEZE_HOST_DEVICE Index read_slot(Index plane) const {
    const Index u = slot(plane);
    return u < radius ? u + planes : u;
  }
  // The other slot holding slot u's plane, or -1.
  TRAPEZE_HOST_DEVICE Index twin(Index u) const {
    return u < 2 * radius ? u + planes : (u >= planes ? u - planes : -1);
  }
};

struct SkewedGeometry {
  Extent domain;       // cells
  Extent radius;
  int axis = 2;        // the skewed (slowest) axis: 2 in 3-D, 1 in 2-D
  Index slab = 1;      // planes a slab (the last may have fewer)
  Index plane_row = 1;    // padded cells along x
  Index plane_cells = 1;  // padded cells of a plane
  int updated_fields = 1;
  int constant_fields = 0;
  bool window_constants = false;  // read-only fields in the ring too (read off their cell)
  Boundary boundary;
  SkewedRing ring;

  // The ring planes of slab s and the planes beyond the domain's ends next
  // to it: first, last.
  std::pair<Index, Index> ring_planes_of(int s) const {
    const Index first = s * slab, last = first + planes_of(s) - 1;
    return {first == 0 ? -ring.radius : first, last == planes() - 1 ? last + ring.radius : last};
  }
  Index ring_field_cells() const { return ring.slots() * plane_cells; }
  // Cells of the ring window: both parities of the updated fields, then
  // the read-only fields where the stencil reads them off its cell.
  Index ring_cells() const {
    return (2 * updated_fields + (window_constants ? constant_fields : 0)) * ring_field_cells();
  }

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
  int in_first, in_last;    // slabs it copies into the ring (none when last < first)
  int out_first, out_last;  // slabs it copies out of the ring
  int constants_first;      // the first slab whose read-only buffer it holds
  Index first_step;    // the pass's first step (its parity picks the buffers)
  Index steps;         // steps of this pass
  LeaningPlanes planes;  // the planes it updates, step by step: planes.at(t, domain planes)

  bool in_shares_out;       // one slab, copied in and out of one buffer (a pass of even steps)
  // The ring: buffer 0, or this memory where no handle holds it (one GPU
  // running the tasks in order on its stream, trapeze/skewed_run.hpp).
  typename S::value_type* ring;

  int out_count() const { return out_last >= out_first ? out_last - out_first + 1 : 0; }
  int in_count() const { return in_shares_out || in_last < in_first ? 0 : in_last - in_first + 1; }
  // The task's buffers of slab s's updated fields: the one it copies out
  // (end parity), the one it copies in (start parity).
  int first_slab_buffer() const { return ring ? 0 : 1; }
  int out_buffer(int s) const { return first_slab_buffer() + s - out_first; }
  int in_buffer(int s) const {
    return in_shares_out ? out_buffer(s) : first_slab_buffer() + out_count() + s - in_first;
  }
  int constant_buffer(int s) const { return first_slab_buffer() + out_count() + in_count() + s - constants_first; }
};

}  // namespace trapeze
