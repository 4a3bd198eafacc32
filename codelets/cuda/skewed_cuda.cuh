#pragma once
// The CUDA implementation of a skewed-slab task (codelets/skewed_args.hpp),
// on the task's StarPU stream (STARPU_CUDA_ASYNC). As on the CPU
// (codelets/cpu/skewed_cpu.hpp): the slabs new to the ring window are copied
// in, the task's leaning range advances step by step, one launch a step, and
// the finished slabs are copied out. Read-only fields that the stencil reads
// only at its cell (constants_at_cell_only_of) stay where they are, in the
// slabs; others live in the ring too. Every write to a ring slot with a twin
// writes the twin as well, in the same thread.
#include <cuda_runtime.h>
#include <starpu.h>

#include <algorithm>

#include "cuda_check.cuh"
#include "../skewed_args.hpp"
#include "trapeze/stencil.hpp"

namespace trapeze::cuda {

// The read-only buffers of the slabs a task touches, where the stencil reads
// them in their slabs.
template <typename T>
struct SkewedSlabPointers {
  const T* constants[skewed_max_slabs];
};

// SkewedGeometry resolved to its axis: kernels that index a struct's arrays
// by a value known only at run time copy the struct into local memory, per
// thread (104 bytes of stack in every skewed kernel before this).
struct SkewedKernelGeometry {
  long long planes, slab, plane_row, plane_cells;
  long long nx, ny, rx, ry;  // ny 1 and ry 0 in 2-D, where planes are rows
  long long rz;              // the radius along the skewed axis
  long long ring;            // the ring's slots before the twins (SkewedRing::planes)
  bool constant_boundary;
  double boundary_value;

  static SkewedKernelGeometry of(const SkewedGeometry& g) {
    const bool has_y = g.axis == 2;
    return {g.planes(),
            g.slab,
            g.plane_row,
            g.plane_cells,
            g.domain[0],
            has_y ? g.domain[1] : 1,
            g.radius[0],
            has_y ? g.radius[1] : 0,
            g.radius[g.axis],
            g.ring.planes,
            g.boundary.kind == BoundaryKind::constant,
            g.boundary.value};
  }
  __device__ long long slot(long long plane) const { return (plane + rz) % ring; }
  __device__ long long twin(long long u) const { return u < 2 * rz ? u + ring : (u >= ring ? u - ring : -1); }
};

// Stores v at cell `offset` of ring slot u of a field, and at u's twin.
template <typename T>
__device__ inline void ring_store(T* field, const SkewedKernelGeometry& g, long long u, long long offset, T v) {
  field[u * g.plane_cells + offset] = v;
  const long long t = g.twin(u);
  if (t >= 0) field[t * g.plane_cells + offset] = v;
}

// Where plane `plane` (global) of a read-only field lives in its slab, and
// how far apart its slab's buffers are.
struct SkewedPlace {
  int slab;          // index among the slabs of the task's read-only buffers
  long long offset;  // cells from the slab buffer's start to the plane in buffer 0
  long long stride;  // cells between two of the slab's field buffers
};

__device__ inline SkewedPlace skewed_place(const SkewedKernelGeometry& g, int first_slab, long long plane) {
  const long long slab = plane / g.slab;
  const long long first = slab * g.slab;
  const long long planes = min(g.slab, g.planes - first);
  return {static_cast<int>(slab - first_slab), (plane - first) * g.plane_cells, planes * g.plane_cells};
}

// One slab's field buffers into the ring (to_ring) or out of it. Grid: x over
// a plane's cells, y over the slab's planes, z over the fields; `home` is the
// slab's first buffer copied, `ring` the ring's, `field_cells` apart.
template <typename T>
__global__ void skewed_copy(T* home, T* ring, SkewedKernelGeometry g, long long first_plane, long long planes,
                            long long field_cells, bool to_ring) {
  const long long cell = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (cell >= g.plane_cells) return;
  const long long p = blockIdx.y;
  T* slab = home + (blockIdx.z * planes + p) * g.plane_cells + cell;
  T* field = ring + blockIdx.z * field_cells;
  const long long u = g.slot(first_plane + p);
  if (to_ring) ring_store(field, g, u, cell, *slab);
  else *slab = field[u * g.plane_cells + cell];
}

// The ring of in-domain planes: grid x over a plane's ring cells, y over the
// planes from `first_plane`, z over fields (each `field_cells` apart).
template <typename T>
__global__ void skewed_ring(T* window, SkewedKernelGeometry g, long long first_plane, long long field_cells) {
  const long long rx = g.rx, nx = g.nx, ry = g.ry, ny = g.ny;
  const long long row = g.plane_row;
  const long long band = ry * row;  // cells of the rows above (and below) the domain
  const long long ring = 2 * band + ny * 2 * rx;
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i >= ring) return;
  long long x, y;
  if (i < band) {
    y = i / row, x = i % row;
  } else if (i < 2 * band) {
    y = ny + ry + (i - band) / row, x = (i - band) % row;
  } else {
    const long long j = i - 2 * band;
    y = ry + j / (2 * rx);
    const long long side = j % (2 * rx);
    x = side < rx ? side : nx + side;
  }
  T* field = window + blockIdx.z * field_cells;
  const long long u = g.slot(first_plane + blockIdx.y);
  const long long sy = min(max(y, ry), ny + ry - 1), sx = min(max(x, rx), nx + rx - 1);
  const T v = g.constant_boundary ? static_cast<T>(g.boundary_value) : field[u * g.plane_cells + sy * row + sx];
  ring_store(field, g, u, y * row + x, v);
}

// Whole planes beyond the domain's ends, from the edge plane or the constant.
template <typename T>
__global__ void skewed_beyond(T* window, SkewedKernelGeometry g, long long first_plane, long long field_cells) {
  const long long cell = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (cell >= g.plane_cells) return;
  const long long plane = first_plane + blockIdx.y;
  const long long edge = min(max(plane, 0LL), g.planes - 1);
  T* field = window + blockIdx.z * field_cells;
  const T v = g.constant_boundary ? static_cast<T>(g.boundary_value) : field[g.slot(edge) * g.plane_cells + cell];
  ring_store(field, g, g.slot(plane), cell, v);
}

// One step over planes [first_plane, ...], the first at ring slot
// `first_slot`: grid x over a row's cells, y over the rows, z over the planes.
template <Stencil S>
__global__ void skewed_step(S stencil, const typename S::value_type* in, typename S::value_type* out,
                            SkewedSlabPointers<typename S::value_type> slabs, const typename S::value_type* window_constants,
                            SkewedKernelGeometry g, int constants_first, long long first_plane, long long first_slot,
                            long long field_cells, long long step) {
  using T = typename S::value_type;
  const long long x = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (x >= g.nx) return;
  const long long y = blockIdx.y, plane = first_plane + blockIdx.z;
  long long u = first_slot + blockIdx.z;
  if (u >= g.ring) u -= g.ring;
  const long long q = u < g.rz ? u + g.ring : u;  // planes q - r .. q + r at one stride
  const long long in_plane = (y + g.ry) * g.plane_row + g.rx + x;
  const long long at = q * g.plane_cells + in_plane;
  const T* constants = nullptr;
  long long constant_stride = field_cells;
  if (window_constants) {
    constants = window_constants + at;
  } else if (constant_fields_of<S> > 0) {
    const SkewedPlace place = skewed_place(g, constants_first, plane);
    constants = slabs.constants[place.slab] + place.offset + in_plane;
    constant_stride = place.stride;
  }
  const Neighbourhood<T> view{in + at, g.plane_row, g.plane_cells, field_cells, constants, constant_stride, step,
                              g.plane_row, g.plane_cells};
  apply_update(stencil, view, out + at, field_cells);
  T value[updated_fields_of<S>];
  for (int f = 0; f < updated_fields_of<S>; ++f) value[f] = out[f * field_cells + at];
  const long long twin = g.twin(q);
  if (twin >= 0) {
    for (int f = 0; f < updated_fields_of<S>; ++f) out[f * field_cells + twin * g.plane_cells + in_plane] = value[f];
  }
  // A clamped boundary's ring (and the planes beyond the domain's ends) copy
  // the cells at the domain's edge: the edge cell's thread writes its new
  // value there too, so every plane of a parity keeps a ring that matches
  // its cells and no step needs a launch to fill it (a constant ring, filled
  // when its slab enters the ring, never changes).
  if (g.constant_boundary) return;
  const long long dx_lo = x == 0 ? -g.rx : 0, dx_hi = x == g.nx - 1 ? g.rx : 0;
  const long long dy_lo = y == 0 ? -g.ry : 0, dy_hi = y == g.ny - 1 ? g.ry : 0;
  const long long dz_lo = plane == 0 ? -g.rz : 0, dz_hi = plane == g.planes - 1 ? g.rz : 0;
  if (dx_lo == 0 && dx_hi == 0 && dy_lo == 0 && dy_hi == 0 && dz_lo == 0 && dz_hi == 0) return;
  for (long long dz = dz_lo; dz <= dz_hi; ++dz) {
    for (long long dy = dy_lo; dy <= dy_hi; ++dy) {
      for (long long dx = dx_lo; dx <= dx_hi; ++dx) {
        if (dx == 0 && dy == 0 && dz == 0) continue;
        for (int f = 0; f < updated_fields_of<S>; ++f) {
          ring_store(out + f * field_cells, g, q + dz, in_plane + dy * g.plane_row + dx, value[f]);
        }
      }
    }
  }
}

template <Stencil S>
void skewed_task_cuda(void* buffers[], void* cl_arg) {
  using T = typename S::value_type;
  SkewedTaskArgs<S> args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const SkewedGeometry& g = *args.geometry;
  const SkewedKernelGeometry kg = SkewedKernelGeometry::of(g);
  cudaStream_t stream = starpu_cuda_get_local_stream();
  const long long n = g.planes(), pc = g.plane_cells, field = g.ring_field_cells();
  const int fields = g.updated_fields, constants = g.constant_fields;
  const auto buffer = [&](int index) { return reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffers[index])); };
  T* window = args.ring ? args.ring : buffer(0);
  T* window_constants = g.window_constants ? window + 2 * fields * field : nullptr;
  SkewedSlabPointers<T> pointers{};
  if (constants > 0 && !g.window_constants) {
    const int slabs = args.last_slab - args.first_slab + 1;
    if (slabs > skewed_max_slabs) {
      std::fprintf(stderr, "trapeze: a skewed task touches %d slabs, more than %d\n", slabs, skewed_max_slabs);
      std::abort();
    }
    for (int i = 0; i < slabs; ++i) pointers.constants[i] = buffer(args.constant_buffer(args.first_slab + i));
  }
  const int start = static_cast<int>(args.first_step % 2), end = static_cast<int>((args.first_step + args.steps) % 2);
  const unsigned cell_blocks = static_cast<unsigned>((pc + 255) / 256);

  const long long rx = g.radius[0];
  const long long ry = g.axis == 2 ? g.radius[1] : 0, ny = g.axis == 2 ? g.domain[1] : 1;
  const long long ring_cells = 2 * ry * g.plane_row + ny * 2 * rx;
  const unsigned ring_blocks = static_cast<unsigned>((ring_cells + 255) / 256);
  // The cells outside the domain of ring planes [from, to] of `count` fields from `base`.
  auto fill_ring = [&](T* base, int count, long long from, long long to) {
    const long long inside_from = std::max(from, 0LL), inside_to = std::min(to, n - 1);
    if (ring_cells > 0 && inside_to >= inside_from) {
      skewed_ring<<<dim3(ring_blocks, static_cast<unsigned>(inside_to - inside_from + 1), count), 256, 0, stream>>>(
          base, kg, inside_from, field);
      TRAPEZE_CUDA_CHECK_LAUNCH("skewed_ring");
    }
    for (const auto [lo, hi] : {std::pair{from, std::min(to, -1LL)}, std::pair{std::max(from, n), to}}) {
      if (hi < lo) continue;
      skewed_beyond<<<dim3(cell_blocks, static_cast<unsigned>(hi - lo + 1), count), 256, 0, stream>>>(base, kg, lo,
                                                                                                       field);
      TRAPEZE_CUDA_CHECK_LAUNCH("skewed_beyond");
    }
  };
  // The new slabs at the pass's first step (and their read-only fields where
  // the ring holds them), then the cells outside the domain of their planes
  // in both parities: a constant boundary's never change; a clamped one's
  // follow the steps (skewed_step).
  for (int s = args.in_first; s <= args.in_last; ++s) {
    const long long planes = g.planes_of(s);
    skewed_copy<<<dim3(cell_blocks, static_cast<unsigned>(planes), fields), 256, 0, stream>>>(
        buffer(args.in_buffer(s)), window + start * fields * field, kg,
        s * g.slab, planes, field, true);
    TRAPEZE_CUDA_CHECK_LAUNCH("skewed_copy in");
    if (window_constants) {
      skewed_copy<<<dim3(cell_blocks, static_cast<unsigned>(planes), constants), 256, 0, stream>>>(
          buffer(args.constant_buffer(s)), window_constants, kg, s * g.slab, planes, field, true);
      TRAPEZE_CUDA_CHECK_LAUNCH("skewed_copy constants");
    }
  }
  if (args.in_last >= args.in_first) {
    const long long from = g.ring_planes_of(args.in_first).first, to = g.ring_planes_of(args.in_last).second;
    fill_ring(window, 2 * fields, from, to);
    if (window_constants) fill_ring(window_constants, constants, from, to);
  }

  const unsigned row_blocks = static_cast<unsigned>((g.domain[0] + 127) / 128);
  for (Index t = 1; t <= args.steps; ++t) {
    const auto [lo, hi] = args.planes.at(t, n);
    if (hi < lo) continue;
    const long long step = args.first_step + t - 1;
    T* in = window + (step % 2) * fields * field;
    T* out = window + ((step + 1) % 2) * fields * field;
    skewed_step<<<dim3(row_blocks, static_cast<unsigned>(ny), static_cast<unsigned>(hi - lo + 1)), 128, 0, stream>>>(
        *args.stencil, in, out, pointers, window_constants, kg, args.first_slab, lo, g.ring.slot(lo), field, step);
    TRAPEZE_CUDA_CHECK_LAUNCH("skewed_step");
  }

  for (int s = args.out_first; s <= args.out_last; ++s) {
    const long long planes = g.planes_of(s);
    skewed_copy<<<dim3(cell_blocks, static_cast<unsigned>(planes), fields), 256, 0, stream>>>(
        buffer(args.out_buffer(s)), window + end * fields * field, kg, s * g.slab,
        planes, field, false);
    TRAPEZE_CUDA_CHECK_LAUNCH("skewed_copy out");
  }
}

}  // namespace trapeze::cuda
