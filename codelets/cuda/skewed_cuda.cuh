#pragma once
// The CUDA implementation of a skewed-slab task (codelets/skewed_args.hpp),
// on the task's StarPU stream (STARPU_CUDA_ASYNC). As on the CPU
// (codelets/cpu/skewed_cpu.hpp), the updated fields of the touched slabs are
// copied into one window of contiguous planes (the task's scratch buffer,
// last of its buffers), advanced step by step over the task's leaning range,
// and copied back. Read-only fields that the stencil reads only at its cell
// (constants_at_cell_only_of) stay where they are, in the slabs: the window
// holds only what a step's neighbourhood needs contiguous, so the device
// memory a task adds stays small beside the slabs StarPU keeps resident.
// Other read-only fields are copied into the window too.
#include <cuda_runtime.h>
#include <starpu.h>

#include <algorithm>

#include "cuda_check.cuh"
#include "../skewed_args.hpp"
#include "trapeze/stencil.hpp"

namespace trapeze::cuda {

template <typename T>
struct SkewedSlabPointers {
  T* updated[skewed_max_slabs];
  const T* constants[skewed_max_slabs];
};

// SkewedGeometry resolved to its axis: kernels that index a struct's arrays
// by a value known only at run time copy the struct into local memory, per
// thread (104 bytes of stack in every skewed kernel before this).
struct SkewedKernelGeometry {
  long long planes, slab, plane_row, plane_cells;
  long long nx, ny, rx, ry;  // ny 1 and ry 0 in 2-D, where planes are rows
  long long rz;              // the radius along the skewed axis
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
            g.boundary.kind == BoundaryKind::constant,
            g.boundary.value};
  }
};

// Where plane `plane` (global) of field buffer `b` (parity * fields + field)
// lives in its slab, and how far apart its slab's buffers are.
struct SkewedPlace {
  int slab;          // index among the touched slabs
  long long offset;  // cells from the slab buffer's start to the plane in buffer 0
  long long stride;  // cells between two of the slab's field buffers
};

__device__ inline SkewedPlace skewed_place(const SkewedKernelGeometry& g, int first_slab, long long plane) {
  const long long slab = plane / g.slab;
  const long long first = slab * g.slab;
  const long long planes = min(g.slab, g.planes - first);
  return {static_cast<int>(slab - first_slab), (plane - first) * g.plane_cells, planes * g.plane_cells};
}

// to_window: slabs -> window, else window -> slabs. Grid: x over a plane's
// cells, y over the window's in-domain planes [first_plane, ...], z over the
// field buffers.
template <typename T>
__global__ void skewed_copy(SkewedSlabPointers<T> slabs, T* window, SkewedKernelGeometry g, int first_slab,
                            long long window_first, long long first_plane, long long field_cells, bool to_window) {
  const long long cell = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (cell >= g.plane_cells) return;
  const long long plane = first_plane + blockIdx.y;
  const int buffer = blockIdx.z;
  const SkewedPlace place = skewed_place(g, first_slab, plane);
  T* home = slabs.updated[place.slab] + buffer * place.stride + place.offset + cell;
  T* near = window + buffer * field_cells + (plane - window_first) * g.plane_cells + cell;
  if (to_window) *near = *home;
  else *home = *near;
}

template <typename T>
__global__ void skewed_copy_constants(SkewedSlabPointers<T> slabs, T* window, SkewedKernelGeometry g, int first_slab,
                                      long long window_first, long long first_plane, long long field_cells) {
  const long long cell = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (cell >= g.plane_cells) return;
  const long long plane = first_plane + blockIdx.y;
  const SkewedPlace place = skewed_place(g, first_slab, plane);
  window[blockIdx.z * field_cells + (plane - window_first) * g.plane_cells + cell] =
      slabs.constants[place.slab][blockIdx.z * place.stride + place.offset + cell];
}

// The ring of in-domain planes: grid x over a plane's ring cells, y over the
// planes from `first_plane`, z over fields (each `field_cells` apart).
template <typename T>
__global__ void skewed_ring(T* window, SkewedKernelGeometry g, long long window_first, long long first_plane,
                            long long field_cells) {
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
  T* plane = window + blockIdx.z * field_cells + (first_plane + blockIdx.y - window_first) * g.plane_cells;
  const long long sy = min(max(y, ry), ny + ry - 1), sx = min(max(x, rx), nx + rx - 1);
  plane[y * row + x] = g.constant_boundary ? static_cast<T>(g.boundary_value) : plane[sy * row + sx];
}

// Whole planes beyond the domain's ends, from the edge plane or the constant.
template <typename T>
__global__ void skewed_beyond(T* window, SkewedKernelGeometry g, long long window_first, long long first_plane,
                              long long field_cells) {
  const long long cell = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (cell >= g.plane_cells) return;
  const long long plane = first_plane + blockIdx.y;
  const long long edge = min(max(plane, 0LL), g.planes - 1);
  T* field = window + blockIdx.z * field_cells;
  field[(plane - window_first) * g.plane_cells + cell] =
      g.constant_boundary ? static_cast<T>(g.boundary_value) : field[(edge - window_first) * g.plane_cells + cell];
}

// One step over planes [first_plane, ...]: grid x over a row's cells, y over
// the rows, z over the planes.
template <Stencil S>
__global__ void skewed_step(S stencil, const typename S::value_type* in, typename S::value_type* out,
                            SkewedSlabPointers<typename S::value_type> slabs, const typename S::value_type* window_constants,
                            SkewedKernelGeometry g, int first_slab, long long window_first, long long window_last,
                            long long first_plane, long long field_cells, long long step) {
  using T = typename S::value_type;
  const long long x = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (x >= g.nx) return;
  const long long y = blockIdx.y, plane = first_plane + blockIdx.z;
  const long long in_plane = (y + g.ry) * g.plane_row + g.rx + x;
  const long long at = (plane - window_first) * g.plane_cells + in_plane;
  const T* constants = nullptr;
  long long constant_stride = field_cells;
  if (window_constants) {
    constants = window_constants + at;
  } else if (constant_fields_of<S> > 0) {
    const SkewedPlace place = skewed_place(g, first_slab, plane);
    constants = slabs.constants[place.slab] + place.offset + in_plane;
    constant_stride = place.stride;
  }
  const Neighbourhood<T> view{in + at, g.plane_row, g.plane_cells, field_cells, constants, constant_stride, step,
                              g.plane_row, g.plane_cells};
  apply_update(stencil, view, out + at, field_cells);
  // A clamped boundary's ring (and the planes beyond the domain's ends) copy
  // the cells at the domain's edge: the edge cell's thread writes its new
  // value there too, so every plane of a parity keeps a ring that matches
  // its cells and no step needs a launch to fill it (a constant ring, filled
  // once a task, never changes).
  if (g.constant_boundary) return;
  const long long dx_lo = x == 0 ? -g.rx : 0, dx_hi = x == g.nx - 1 ? g.rx : 0;
  const long long dy_lo = y == 0 ? -g.ry : 0, dy_hi = y == g.ny - 1 ? g.ry : 0;
  const long long dz_lo = plane == 0 ? max(-g.rz, window_first - plane) : 0;
  const long long dz_hi = plane == g.planes - 1 ? min(g.rz, window_last - plane) : 0;
  if (dx_lo == 0 && dx_hi == 0 && dy_lo == 0 && dy_hi == 0 && dz_lo == 0 && dz_hi == 0) return;
  for (long long dz = dz_lo; dz <= dz_hi; ++dz) {
    for (long long dy = dy_lo; dy <= dy_hi; ++dy) {
      for (long long dx = dx_lo; dx <= dx_hi; ++dx) {
        if (dx == 0 && dy == 0 && dz == 0) continue;
        const long long mirror = at + dz * g.plane_cells + dy * g.plane_row + dx;
        for (int f = 0; f < updated_fields_of<S>; ++f) out[f * field_cells + mirror] = out[f * field_cells + at];
      }
    }
  }
}

// Device cells of a task's scratch buffer for a window of `planes` planes.
template <Stencil S>
constexpr long long skewed_scratch_cells(long long planes, long long plane_cells) {
  const long long fields = 2LL * updated_fields_of<S> + (constants_at_cell_only_of<S> ? 0 : constant_fields_of<S>);
  return fields * planes * plane_cells;
}

template <Stencil S>
void skewed_task_cuda(void* buffers[], void* cl_arg) {
  using T = typename S::value_type;
  SkewedTaskArgs<S> args;
  starpu_codelet_unpack_args(cl_arg, &args);
  const SkewedGeometry& g = *args.geometry;
  const SkewedKernelGeometry kg = SkewedKernelGeometry::of(g);
  cudaStream_t stream = starpu_cuda_get_local_stream();
  const long long n = g.planes(), r = g.radius[g.axis], pc = g.plane_cells;
  const int fields = g.updated_fields, constants = g.constant_fields;
  const int slabs = args.last_slab - args.first_slab + 1;
  if (slabs > skewed_max_slabs) {
    std::fprintf(stderr, "trapeze: a skewed task touches %d slabs, more than %d\n", slabs, skewed_max_slabs);
    std::abort();
  }
  SkewedSlabPointers<T> pointers{};
  for (int i = 0; i < slabs; ++i) {
    pointers.updated[i] = reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffers[i]));
    if (constants > 0) pointers.constants[i] = reinterpret_cast<const T*>(STARPU_VECTOR_GET_PTR(buffers[slabs + i]));
  }
  T* window = reinterpret_cast<T*>(STARPU_VECTOR_GET_PTR(buffers[slabs * (constants > 0 ? 2 : 1)]));
  const long long first_plane = static_cast<long long>(args.first_slab) * g.slab;
  const long long last_plane = static_cast<long long>(args.last_slab) * g.slab + g.planes_of(args.last_slab) - 1;
  const long long window_first = first_plane == 0 ? -r : first_plane;
  const long long window_last = last_plane == n - 1 ? n - 1 + r : last_plane;
  const long long field = (window_last - window_first + 1) * pc;
  const long long domain_planes = last_plane - first_plane + 1;
  const unsigned cell_blocks = static_cast<unsigned>((pc + 255) / 256);
  T* window_constants = constants_at_cell_only_of<S> || constants == 0 ? nullptr : window + 2 * fields * field;

  skewed_copy<<<dim3(cell_blocks, static_cast<unsigned>(domain_planes), 2 * fields), 256, 0, stream>>>(
      pointers, window, kg, args.first_slab, window_first, first_plane, field, true);
  TRAPEZE_CUDA_CHECK_LAUNCH("skewed_copy in");
  const long long rx = g.radius[0];
  const long long ry = g.axis == 2 ? g.radius[1] : 0, ny = g.axis == 2 ? g.domain[1] : 1;
  const long long ring_cells = 2 * ry * g.plane_row + ny * 2 * rx;
  const unsigned ring_blocks = static_cast<unsigned>((ring_cells + 255) / 256);
  // The ring of planes [from, to] of `count` fields from `base`.
  auto fill_ring = [&](T* base, int count, long long from, long long to) {
    from = std::max(from, window_first), to = std::min(to, window_last);
    const long long inside_from = std::max(from, 0LL), inside_to = std::min(to, n - 1);
    if (ring_cells > 0 && inside_to >= inside_from) {
      skewed_ring<<<dim3(ring_blocks, static_cast<unsigned>(inside_to - inside_from + 1), count), 256, 0, stream>>>(
          base, kg, window_first, inside_from, field);
      TRAPEZE_CUDA_CHECK_LAUNCH("skewed_ring");
    }
    for (const auto [lo, hi] : {std::pair{from, std::min(to, -1LL)}, std::pair{std::max(from, n), to}}) {
      if (hi < lo) continue;
      skewed_beyond<<<dim3(cell_blocks, static_cast<unsigned>(hi - lo + 1), count), 256, 0, stream>>>(
          base, kg, window_first, lo, field);
      TRAPEZE_CUDA_CHECK_LAUNCH("skewed_beyond");
    }
  };
  if (window_constants) {
    skewed_copy_constants<<<dim3(cell_blocks, static_cast<unsigned>(domain_planes), constants), 256, 0, stream>>>(
        pointers, window_constants, kg, args.first_slab, window_first, first_plane, field);
    TRAPEZE_CUDA_CHECK_LAUNCH("skewed_copy_constants");
    fill_ring(window_constants, constants, window_first, window_last);
  }

  // Both parities' rings once: the steps keep them (skewed_step).
  fill_ring(window, 2 * fields, window_first, window_last);
  const unsigned row_blocks = static_cast<unsigned>((g.domain[0] + 127) / 128);
  for (Index t = 1; t <= args.steps; ++t) {
    const long long lo = std::max<long long>(0, args.first - args.lean * (t - 1));
    const long long hi = args.lean_top ? args.last - args.lean * (t - 1) : args.last;
    if (hi < lo) continue;
    const long long step = args.first_step + t - 1;
    T* in = window + (step % 2) * fields * field;
    T* out = window + ((step + 1) % 2) * fields * field;
    skewed_step<<<dim3(row_blocks, static_cast<unsigned>(ny), static_cast<unsigned>(hi - lo + 1)), 128, 0, stream>>>(
        *args.stencil, in, out, pointers, window_constants, kg, args.first_slab, window_first, window_last, lo, field,
        step);
    TRAPEZE_CUDA_CHECK_LAUNCH("skewed_step");
  }

  const long long written = std::min<long long>(last_plane, static_cast<long long>(args.writes_until) * g.slab +
                                                                 g.planes_of(args.writes_until) - 1);
  skewed_copy<<<dim3(cell_blocks, static_cast<unsigned>(written - first_plane + 1), 2 * fields), 256, 0, stream>>>(
      pointers, window, kg, args.first_slab, window_first, first_plane, field, false);
  TRAPEZE_CUDA_CHECK_LAUNCH("skewed_copy out");
}

}  // namespace trapeze::cuda
