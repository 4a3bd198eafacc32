// The kernels alone, without the runtime: the single-step kernels (registers
// for 1-D and 2-D, planes streamed through shared memory for 3-D) and the
// trapezoid kernel under several tuning policies (codelets/cuda/kernel_policy.hpp)
// for jacobi2d 16384^2 and jacobi3d 512^3 float and life 16384^2, launched
// back to back on one buffer pair; the defaults also with a device
// synchronisation after each launch (the plain loop's barrier). This is the
// evidence behind the policies the codelets use: each variant's cell updates
// per second as a fraction of the single-step roofline (copy bandwidth / 8 B
// per cell, life 2 B), median over interleaved rounds (every variant once per
// round), with the spread. A table last. docs/PERF.md keeps the sweeps that
// chose the defaults; this list is the last one.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "codelets/cuda/stage_cuda.cuh"
#include "gpu_plain_loop.hpp"
#include "gpu_timing.cuh"
#include "stencils/hotspot.hpp"
#include "stencils/jacobi2d.hpp"
#include "stencils/jacobi3d.hpp"
#include "stencils/life.hpp"

namespace {

using trapeze::cuda::KernelPolicy;
using trapeze::cuda::LaunchGeometry;
using trapeze::cuda::PlaneStreamPolicy;
using trapeze::cuda::PlaneTrapezoidPolicy;
using trapeze::cuda::StreamPolicy;

struct Domain {
  int n[3];
  int radius[3];
  // Row pitch in cells (0: n[0] + 2 * radius[0]) and cells skipped before the
  // buffer's first: with a pitch of 32 cells and lead = 32 - radius[0], every
  // row's first interior cell starts a 128-byte line (float).
  int pitch = 0;
  int lead = 0;
  int row_pitch() const { return pitch > 0 ? pitch : n[0] + 2 * radius[0]; }
  long long padded_cells() const {
    return static_cast<long long>(row_pitch()) * (n[1] + 2 * radius[1]) * (n[2] + 2 * radius[2]);
  }
  long long elements() const { return padded_cells() + lead; }
  // The domain with rows aligned to 128 bytes of `element_bytes` cells.
  Domain aligned(int element_bytes) const {
    Domain a = *this;
    const int line = 128 / element_bytes;
    a.pitch = (n[0] + 2 * radius[0] + line - 1) / line * line;
    a.lead = line - radius[0];
    return a;
  }
  long long cells() const { return static_cast<long long>(n[0]) * n[1] * n[2]; }
  LaunchGeometry geometry(int k) const {
    LaunchGeometry g{};
    for (int d = 0; d < 3; ++d) {
      g.padded[d] = d == 0 ? row_pitch() : n[d] + 2 * radius[d];
      g.inside_lo[d] = g.region_lo[d] = radius[d];
      g.inside_hi[d] = g.region_hi[d] = radius[d] + n[d];
      g.radius[d] = radius[d];
    }
    g.padded_cells = padded_cells();
    g.steps = k;
    g.boundary = static_cast<int>(trapeze::BoundaryKind::clamp);
    g.constant_planes = 1;
    return g;
  }
};

struct Variant {
  std::string stencil, kernel, policy;
  int k;
  long long cells;
  std::function<void(const void*, void*)> launch;
  std::vector<double> fractions;  // of the roofline, one per round
  double roofline = 0;            // cell updates per second
  bool synchronise = false;       // a device synchronisation after each launch (the plain loop's barrier)
  bool check_against_default = false;  // its output must equal the set's first variant's, bit for bit
  std::string check = "";              // "equal" or what differed
  double cell_bytes = 8;               // one step's bytes per cell: the roofline's divisor
  long long elements = 0;              // cells its buffers need (0: the set's domain's)
};

// A variant on the domain with rows aligned to 128 bytes: its buffers'
// pointers start `lead` cells in. (Its output is laid out differently, so it
// is not compared with the default's; the kernel is the same.)
template <typename T>
Variant on_aligned_rows(Variant v, const Domain& aligned) {
  const int lead = aligned.lead;
  v.launch = [launch = v.launch, lead](const void* in, void* out) {
    launch(static_cast<const T*>(in) + lead, static_cast<T*>(out) + lead);
  };
  v.policy += " aligned";
  v.elements = aligned.elements();
  v.check_against_default = false;
  return v;
}

// HotSpot reading its power map from device memory at every step, as the
// kernels did before `constants_at_cell_only` (the probe's comparison).
struct HotspotPowerFromMemory : apps::Hotspot {
  static constexpr bool constants_at_cell_only = false;
};

template <typename S, typename Policy>
Variant single_step(const char* stencil, const char* policy, const Domain& domain) {
  const LaunchGeometry g = domain.geometry(1);
  using T = typename S::value_type;
  return {stencil, "single-step", policy, 1, domain.cells(), [g](const void* in, void* out) {
            trapeze::cuda::launch_register_step<S, Policy>(S{}, static_cast<const T*>(in), static_cast<T*>(out), nullptr,
                                                           g, T{}, nullptr);
          }};
}

// The ceiling a kernel can reach on the same buffers: a plain copy of the
// padded domain, one float a thread or four (float4) (ordinary or
// evict-first stores (st.global.cs) made no difference, 2026-11-27). Its
// fraction is of the copy bandwidth cudaMemcpy reached.
template <bool Float4>
__global__ void copy_kernel(const float* __restrict__ in, float* __restrict__ out, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if constexpr (Float4) {
    if (i < n / 4) reinterpret_cast<float4*>(out)[i] = reinterpret_cast<const float4*>(in)[i];
  } else {
    if (i < n) out[i] = in[i];
  }
}

template <bool Float4>
Variant copy_variant(const char* policy, const Domain& domain) {
  const long long n = domain.padded_cells() / 4 * 4;
  Variant v{"jacobi2d", "copy", policy, 1, n, [n](const void* in, void* out) {
              const long long items = Float4 ? n / 4 : n;
              copy_kernel<Float4><<<static_cast<unsigned>((items + 255) / 256), 256>>>(
                  static_cast<const float*>(in), static_cast<float*>(out), n);
              TRAPEZE_CUDA_CHECK(cudaGetLastError());
            }};
  return v;
}

// What 16-byte accesses would buy the single step: jacobi2d by hand, four
// cells a thread in float4 loads and stores, the x-neighbours across a float4
// from the next lanes (shuffles), on rows aligned as Domain::aligned makes
// them (the tiles' rows are not: a float4 needs a row pitch that is a
// multiple of 4 and an interior that starts a 16-byte boundary). Throughput
// only: it reads the ghost ring as it is, without the boundary rule, and
// assumes the domain's width is a multiple of 4 x 32 x blockDim.
template <int Rows>
__global__ void __launch_bounds__(128) jacobi2d_float4_step(const float* __restrict__ in, float* __restrict__ out,
                                                            LaunchGeometry g) {
  const unsigned lane = threadIdx.x & 31u;
  const int x = g.region_lo[0] + 4 * static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y0 = g.region_lo[1] + static_cast<int>(blockIdx.y) * Rows;
  const long long pitch = g.padded[0];
  float4 row[Rows + 2];
#pragma unroll
  for (int j = 0; j < Rows + 2; ++j) row[j] = *reinterpret_cast<const float4*>(in + (y0 - 1 + j) * pitch + x);
#pragma unroll
  for (int j = 1; j <= Rows; ++j) {
    const long long at = (y0 - 1 + j) * pitch + x;
    float left = __shfl_up_sync(0xffffffffu, row[j].w, 1), right = __shfl_down_sync(0xffffffffu, row[j].x, 1);
    if (lane == 0) left = in[at - 1];
    if (lane == 31) right = in[at + 4];
    const float4 c = row[j], u = row[j - 1], d = row[j + 1];
    float4 o;
    o.x = 0.2f * (c.x + left + c.y + u.x + d.x);
    o.y = 0.2f * (c.y + c.x + c.z + u.y + d.y);
    o.z = 0.2f * (c.z + c.y + c.w + u.z + d.z);
    o.w = 0.2f * (c.w + c.z + right + u.w + d.w);
    *reinterpret_cast<float4*>(out + at) = o;
  }
}

template <int Rows>
Variant float4_step_variant(const char* policy, const Domain& aligned) {
  const LaunchGeometry g = aligned.geometry(1);
  Variant v{"jacobi2d", "float4-step", policy, 1, aligned.cells(), [g, aligned](const void* in, void* out) {
              const dim3 grid(static_cast<unsigned>(aligned.n[0] / 4 / 128), static_cast<unsigned>(aligned.n[1] / Rows));
              jacobi2d_float4_step<Rows><<<grid, 128>>>(static_cast<const float*>(in), static_cast<float*>(out), g);
              TRAPEZE_CUDA_CHECK(cudaGetLastError());
            }};
  return on_aligned_rows<float>(v, aligned);
}

// jacobi3d by hand in float4s, a thread's `Rows` rows over `Planes` planes
// at once: every load of its window (planes z0 - 1 .. z0 + Planes of its
// rows, and the rows above and below in its planes) issued before any
// arithmetic, so a thread reads (Planes + 2) * Rows + 2 * Planes groups for
// Rows * Planes, where walking one plane reads 3 * Rows + 2 for Rows. Does
// reading less through L2 without walking lift the H200's 3-D step (0.79)
// toward its walking copy (0.94 over 4 planes)? Throughput only, as
// jacobi2d_float4_step: no boundary rule, the domain 512 cells across.
template <int Rows, int Planes>
__global__ void __launch_bounds__(128) jacobi3d_float4_planes(const float* __restrict__ in, float* __restrict__ out,
                                                              LaunchGeometry g) {
  const unsigned lane = threadIdx.x & 31u;
  const int x = g.region_lo[0] + 4 * static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int y0 = g.region_lo[1] + static_cast<int>(blockIdx.y) * Rows;
  const int z0 = g.region_lo[2] + static_cast<int>(blockIdx.z) * Planes;
  const long long pitch = g.padded[0], plane = pitch * g.padded[1];
  const auto at = [&](int y, int z) { return static_cast<long long>(z) * plane + y * pitch + x; };
  float4 c[Planes + 2][Rows], up[Planes], down[Planes];
#pragma unroll
  for (int p = 0; p < Planes + 2; ++p) {
#pragma unroll
    for (int j = 0; j < Rows; ++j) c[p][j] = *reinterpret_cast<const float4*>(in + at(y0 + j, z0 - 1 + p));
  }
#pragma unroll
  for (int p = 0; p < Planes; ++p) {
    up[p] = *reinterpret_cast<const float4*>(in + at(y0 - 1, z0 + p));
    down[p] = *reinterpret_cast<const float4*>(in + at(y0 + Rows, z0 + p));
  }
  constexpr float w = 1.0f / 7.0f;
#pragma unroll
  for (int p = 0; p < Planes; ++p) {
#pragma unroll
    for (int j = 0; j < Rows; ++j) {
      const long long here = at(y0 + j, z0 + p);
      const float4 m = c[p + 1][j], n = j == 0 ? up[p] : c[p + 1][j - 1], s = j == Rows - 1 ? down[p] : c[p + 1][j + 1];
      const float4 b = c[p][j], f = c[p + 2][j];
      float left = __shfl_up_sync(0xffffffffu, m.w, 1), right = __shfl_down_sync(0xffffffffu, m.x, 1);
      if (lane == 0) left = in[here - 1];
      if (lane == 31) right = in[here + 4];
      float4 o;
      o.x = w * (m.x + left + m.y + n.x + s.x + b.x + f.x);
      o.y = w * (m.y + m.x + m.z + n.y + s.y + b.y + f.y);
      o.z = w * (m.z + m.y + m.w + n.z + s.z + b.z + f.z);
      o.w = w * (m.w + m.z + right + n.w + s.w + b.w + f.w);
      *reinterpret_cast<float4*>(out + here) = o;
    }
  }
}

// On `domain`'s rows: aligned ones (Domain::aligned: a lead puts every
// row's interior on a 128-byte line), or rows whose x ghost is 4 cells wide
// (520 apart, every group 16-byte aligned), 8 (528, a multiple of 64 bytes)
// or 32 (576, on 128-byte lines). Does the by-hand kernel's lead over the
// runtime's (0.89 against 0.84, tiles' rows 516 apart) need aligned rows? (On
// the H200, 2026-11-29: 0.83 on 520, 0.90 on 528, 0.885 on 576.)
template <int Rows, int Planes>
Variant float4_planes_variant(const char* policy, const Domain& domain) {
  const LaunchGeometry g = domain.geometry(1);
  Variant v{"jacobi3d", "float4-planes", policy, 1, domain.cells(), [g, domain](const void* in, void* out) {
              const dim3 grid(static_cast<unsigned>(domain.n[0] / 4 / 128), static_cast<unsigned>(domain.n[1] / Rows),
                              static_cast<unsigned>(domain.n[2] / Planes));
              jacobi3d_float4_planes<Rows, Planes><<<grid, 128>>>(static_cast<const float*>(in), static_cast<float*>(out), g);
              TRAPEZE_CUDA_CHECK(cudaGetLastError());
            }};
  if (domain.lead > 0) return on_aligned_rows<float>(v, domain);
  v.elements = domain.elements();
  return v;
}

// The runtime's 16-byte single step (vector_step_kernel.cuh) through its
// launcher, on rows whose pitch is a multiple of 4 cells (the buffers' start
// aligned; the interior need not be).
template <typename S, int Rows = trapeze::cuda::default_vector_step_rows<S>>
Variant vector_step(const char* stencil, const Domain& domain, const char* policy = "rows a multiple of 4 apart",
                    int pitch = 0) {
  using T = typename S::value_type;
  Domain pitched = domain.aligned(sizeof(T));  // rows on 128-byte lines unless `pitch` cells apart
  pitched.lead = 0;
  if (pitch > 0) pitched.pitch = pitch;
  const LaunchGeometry g = pitched.geometry(1);
  Variant v{stencil, "vector-step", policy, 1, pitched.cells(), [g](const void* in, void* out) {
              if (!trapeze::cuda::vector_step_fits(g, static_cast<const T*>(in), static_cast<const T*>(out))) {
                std::fprintf(stderr, "gpu_kernel_probe: the aligned domain does not fit the 16-byte step\n");
                std::exit(1);
              }
              trapeze::cuda::launch_vector_step<S, Rows>(S{}, static_cast<const T*>(in), static_cast<T*>(out), nullptr, g, T{},
                                                         nullptr);
            }};
  v.elements = pitched.elements();
  return v;
}

// The ceiling of a 3-D step walking z: a float4 copy with the 16-byte 3-D
// step's threads (a warp's 32 groups across x, a thread's row walked over
// `Planes` planes of z; threads_y rows a block), on rows a multiple of 4
// cells apart. Its fraction is of the copy bandwidth cudaMemcpy reached.
template <int ThreadsY, int Planes>
__global__ void __launch_bounds__(32 * ThreadsY) copy_planes_kernel(const float* __restrict__ in, float* __restrict__ out,
                                                                     LaunchGeometry g) {
  const int groups = g.padded[0] / 4;
  const int group = static_cast<int>(blockIdx.x) * 32 + static_cast<int>(threadIdx.x);
  const int y = static_cast<int>(blockIdx.y) * ThreadsY + static_cast<int>(threadIdx.y);
  const int z0 = static_cast<int>(blockIdx.z) * Planes;
  if (group >= groups || y >= g.padded[1]) return;
  const long long plane = static_cast<long long>(g.padded[0]) * g.padded[1];
  const long long at = static_cast<long long>(y) * g.padded[0] + 4 * group;
  for (int z = z0; z < min(z0 + Planes, g.padded[2]); ++z) {
    *reinterpret_cast<float4*>(out + z * plane + at) = *reinterpret_cast<const float4*>(in + z * plane + at);
  }
}

template <int ThreadsY, int Planes>
Variant copy_planes_variant(const char* policy, const Domain& pitched) {
  const LaunchGeometry g = pitched.geometry(1);
  Variant v{"jacobi3d", "copy-planes", policy, 1, pitched.padded_cells(), [g](const void* in, void* out) {
              const dim3 grid(static_cast<unsigned>((g.padded[0] / 4 + 31) / 32),
                              static_cast<unsigned>((g.padded[1] + ThreadsY - 1) / ThreadsY),
                              static_cast<unsigned>((g.padded[2] + Planes - 1) / Planes));
              copy_planes_kernel<ThreadsY, Planes><<<grid, dim3(32, ThreadsY)>>>(static_cast<const float*>(in),
                                                                                static_cast<float*>(out), g);
              TRAPEZE_CUDA_CHECK(cudaGetLastError());
            }};
  v.elements = pitched.elements();
  return v;
}

// The 16-byte 3-D single step (vector_plane_kernel.cuh) under a policy, on
// rows a multiple of 4 cells apart (`pitched`: the tiles' rows, 2 + 512 + 2),
// in bands of `band` rows of blocks (0: the launch's own choice).
template <typename S, typename Policy>
Variant vector_plane(const char* stencil, const char* policy, const Domain& pitched, int band = 0) {
  using T = typename S::value_type;
  const LaunchGeometry g = pitched.geometry(1);
  Variant v{stencil, "vector-plane", policy, 1, pitched.cells(), [g, band](const void* in, void* out) {
              trapeze::cuda::launch_vector_plane<S, Policy>(S{}, static_cast<const T*>(in), static_cast<T*>(out), nullptr,
                                                            g, T{}, nullptr, band);
            }};
  v.elements = pitched.elements();
  return v;
}

// Two launches from the same random input into copies of it (the cells a
// launch does not commit keep the input's values): cells of the padded
// buffers that differ (0: bit for bit).
template <typename T, typename Launch, typename Other>
long long launches_differ(const Domain& pitched, unsigned seed, Launch launch, Other other_launch) {
  const auto count = static_cast<std::size_t>(pitched.elements());
  std::vector<T> host(count), a(count), b(count);
  std::mt19937 engine(seed);
  for (auto& v : host) v = std::uniform_real_distribution<T>(0, 1)(engine);
  bench::DeviceBuffer<T> input(count), one(count), other(count);
  TRAPEZE_CUDA_CHECK(cudaMemcpy(input.data, host.data(), count * sizeof(T), cudaMemcpyHostToDevice));
  TRAPEZE_CUDA_CHECK(cudaMemcpy(one.data, host.data(), count * sizeof(T), cudaMemcpyHostToDevice));
  TRAPEZE_CUDA_CHECK(cudaMemcpy(other.data, host.data(), count * sizeof(T), cudaMemcpyHostToDevice));
  launch(input.data, one.data);
  other_launch(input.data, other.data);
  TRAPEZE_CUDA_CHECK(cudaMemcpy(a.data(), one.data, count * sizeof(T), cudaMemcpyDeviceToHost));
  TRAPEZE_CUDA_CHECK(cudaMemcpy(b.data(), other.data, count * sizeof(T), cudaMemcpyDeviceToHost));
  long long differing = 0;
  for (std::size_t i = 0; i < count; ++i) differing += std::memcmp(&a[i], &b[i], sizeof(T)) != 0;
  return differing;
}

// The 16-byte 3-D step against the register-streaming one on the same
// pitched buffers under a boundary.
template <typename S, typename Policy>
long long vector_plane_differences(const Domain& pitched, trapeze::BoundaryKind boundary, int band = 0) {
  using T = typename S::value_type;
  LaunchGeometry g = pitched.geometry(1);
  g.boundary = static_cast<int>(boundary);
  const T outside = 0.375f;
  return launches_differ<T>(
      pitched, 13,
      [&](const T* in, T* out) {
        trapeze::cuda::launch_vector_plane<S, Policy>(S{}, in, out, nullptr, g, outside, nullptr, band);
      },
      [&](const T* in, T* out) { trapeze::cuda::launch_plane_register<S>(S{}, in, out, nullptr, g, outside, nullptr); });
}

// The 16-byte 3-D trapezoid (vector_trapezoid_kernel.cuh) under a policy, K
// steps a launch, on rows a multiple of 4 cells apart.
template <typename S, typename Policy, int K>
Variant vector_trapezoid(const char* stencil, const char* policy, const Domain& pitched) {
  using T = typename S::value_type;
  const LaunchGeometry g = pitched.geometry(K);
  Variant v{stencil, "vec-trapezoid", policy, K, pitched.cells(), [g](const void* in, void* out) {
              trapeze::cuda::launch_vector_trapezoid_k<S, Policy, K>(S{}, static_cast<const T*>(in), static_cast<T*>(out),
                                                                     g, T{}, nullptr);
            }};
  v.elements = pitched.elements();
  return v;
}

// A K-step launch against the scalar register trapezoid (itself checked
// against k single steps above and in the GPU tests) on the same buffers
// under a boundary. Periodic: the domain is the whole buffer, as the runtime
// makes it, and the ghost must be at least K wide.
template <typename S, int K, typename Launch>
long long against_register_trapezoid(const Domain& pitched, trapeze::BoundaryKind boundary, unsigned seed, Launch launch,
                                     const S& stencil = S{}, const typename S::value_type* constants = nullptr) {
  using T = typename S::value_type;
  LaunchGeometry g = pitched.geometry(K);
  g.boundary = static_cast<int>(boundary);
  if (boundary == trapeze::BoundaryKind::periodic) {
    for (int d = 0; d < 3; ++d) g.inside_lo[d] = 0, g.inside_hi[d] = g.padded[d];
  }
  const T outside = 0.375f;
  using Scalar = trapeze::cuda::RegisterTrapezoidPolicyOf<S>;
  return launches_differ<T>(
      pitched, seed, [&](const T* in, T* out) { launch(in, out, g, outside); },
      [&](const T* in, T* out) {
        trapeze::cuda::launch_register_trapezoid_k<S, Scalar, K>(stencil, in, out, constants, g, outside, nullptr);
      });
}

// The 16-byte 3-D trapezoid against it.
template <typename S, typename Policy, int K>
long long vector_trapezoid_differences(const Domain& pitched, trapeze::BoundaryKind boundary) {
  using T = typename S::value_type;
  return against_register_trapezoid<S, K>(pitched, boundary, 17, [](const T* in, T* out, const LaunchGeometry& g, T outside) {
    trapeze::cuda::launch_vector_trapezoid_k<S, Policy, K>(S{}, in, out, g, outside, nullptr);
  });
}

// The 16-byte 2-D trapezoid (row_vector_trapezoid_kernel.cuh) under a
// policy, K steps a launch, on rows a multiple of 4 cells apart.
template <typename S, typename Policy, int K>
Variant row_vector_trapezoid(const char* stencil, const char* policy, const Domain& pitched) {
  using T = typename S::value_type;
  const LaunchGeometry g = pitched.geometry(K);
  Variant v{stencil, "row-vec-trapezoid", policy, K, pitched.cells(), [g](const void* in, void* out) {
              trapeze::cuda::launch_row_vector_trapezoid_k<S, Policy, K>(S{}, static_cast<const T*>(in),
                                                                         static_cast<T*>(out), nullptr, g, T{}, nullptr);
            }};
  v.elements = pitched.elements();
  return v;
}

// The 16-byte 2-D trapezoid against it.
template <typename S, typename Policy, int K>
long long row_vector_trapezoid_differences(const Domain& pitched, trapeze::BoundaryKind boundary) {
  using T = typename S::value_type;
  return against_register_trapezoid<S, K>(pitched, boundary, 19, [](const T* in, T* out, const LaunchGeometry& g, T outside) {
    trapeze::cuda::launch_row_vector_trapezoid_k<S, Policy, K>(S{}, in, out, nullptr, g, outside, nullptr);
  });
}

// HotSpot through the 16-byte 2-D trapezoid, its power map (random, the
// pitched domain's cells) read at each step: throughput, and the cells that
// differ from the register trapezoid (power in registers) under a boundary.
template <typename Policy, int K>
Variant hotspot_row_vector_trapezoid(const char* policy, const Domain& pitched, const float* power) {
  const LaunchGeometry g = pitched.geometry(K);
  const apps::Hotspot stencil{apps::Hotspot::for_grid(pitched.n[1], pitched.n[0])};
  Variant v{"hotspot", "row-vec-trapezoid", policy, K, pitched.cells(), [g, stencil, power](const void* in, void* out) {
              trapeze::cuda::launch_row_vector_trapezoid_k<apps::Hotspot, Policy, K>(
                  stencil, static_cast<const float*>(in), static_cast<float*>(out), power, g, 0.0f, nullptr);
            }};
  v.elements = pitched.elements();
  v.check_against_default = false;
  v.cell_bytes = 12;
  return v;
}
template <typename Policy, int K>
long long hotspot_row_vector_differences(const Domain& pitched, trapeze::BoundaryKind boundary) {
  const apps::Hotspot stencil{apps::Hotspot::for_grid(pitched.n[1], pitched.n[0])};
  const auto count = static_cast<std::size_t>(pitched.elements());
  std::vector<float> host(count);
  std::mt19937 engine(23);
  for (auto& v : host) v = std::uniform_real_distribution<float>(0.0f, 1.0f)(engine);
  bench::DeviceBuffer<float> power(count);
  TRAPEZE_CUDA_CHECK(cudaMemcpy(power.data, host.data(), count * sizeof(float), cudaMemcpyHostToDevice));
  const float* p = power.data;
  return against_register_trapezoid<apps::Hotspot, K>(
      pitched, boundary, 29,
      [&](const float* in, float* out, const LaunchGeometry& g, float outside) {
        trapeze::cuda::launch_row_vector_trapezoid_k<apps::Hotspot, Policy, K>(stencil, in, out, p, g, outside, nullptr);
      },
      stencil, p);
}

template <typename S, typename Policy>
Variant plane_stream(const char* stencil, const char* policy, const Domain& domain) {
  const LaunchGeometry g = domain.geometry(1);
  using T = typename S::value_type;
  return {stencil, "plane-stream", policy, 1, domain.cells(), [g](const void* in, void* out) {
            trapeze::cuda::launch_plane_stream<S, Policy>(S{}, static_cast<const T*>(in), static_cast<T*>(out), nullptr,
                                                          g, T{}, nullptr);
          }};
}

template <typename S, typename Policy>
Variant plane_register(const char* stencil, const char* policy, const Domain& domain) {
  const LaunchGeometry g = domain.geometry(1);
  using T = typename S::value_type;
  Variant v{stencil, "plane-register", policy, 1, domain.cells(), [g](const void* in, void* out) {
              trapeze::cuda::launch_plane_register<S, Policy>(S{}, static_cast<const T*>(in), static_cast<T*>(out),
                                                              nullptr, g, T{}, nullptr);
            }};
  v.check_against_default = true;
  return v;
}

template <typename S, typename Policy>
Variant plane_trapezoid(const char* stencil, const char* policy, const Domain& domain, int k) {
  const LaunchGeometry g = domain.geometry(k);
  using T = typename S::value_type;
  return {stencil, "plane-trapezoid", policy, k, domain.cells(), [g](const void* in, void* out) {
            trapeze::cuda::launch_plane_trapezoid<S, Policy>(S{}, static_cast<const T*>(in), static_cast<T*>(out), nullptr,
                                                             g, T{}, nullptr);
          }};
}

template <typename S, typename Policy, int K>
Variant register_trapezoid(const char* stencil, const char* policy, const Domain& domain) {
  const LaunchGeometry g = domain.geometry(K);
  using T = typename S::value_type;
  Variant v{stencil, "reg-trapezoid", policy, K, domain.cells(), [g](const void* in, void* out) {
              trapeze::cuda::launch_register_trapezoid_k<S, Policy, K>(S{}, static_cast<const T*>(in), static_cast<T*>(out),
                                                                       nullptr, g, T{}, nullptr);
            }};
  v.check_against_default = true;
  return v;
}

// HotSpot with its power map: the single step, and the register trapezoid
// with the power map in registers or read from device memory every step.
template <typename S>
Variant hotspot_variant(const char* kernel, const char* policy, const Domain& domain, int k, const float* power) {
  const LaunchGeometry g = domain.geometry(k);
  const S stencil{apps::Hotspot::for_grid(domain.n[1], domain.n[0])};
  Variant v{"hotspot", kernel, policy, k, domain.cells(), [g, stencil, power, k](const void* in, void* out) {
              const auto* from = static_cast<const float*>(in);
              auto* to = static_cast<float*>(out);
              using P = trapeze::cuda::RegisterTrapezoidPolicyOf<S>;
              if (k == 1) trapeze::cuda::launch_single_step(stencil, from, to, power, g, 0.0f, nullptr);
              else if (k == 8) trapeze::cuda::launch_register_trapezoid_k<S, P, 8>(stencil, from, to, power, g, 0.0f, nullptr);
              else if (k == 12) trapeze::cuda::launch_register_trapezoid_k<S, P, 12>(stencil, from, to, power, g, 0.0f, nullptr);
              else trapeze::cuda::launch_register_trapezoid_k<S, P, 16>(stencil, from, to, power, g, 0.0f, nullptr);
            }};
  v.check_against_default = k > 1;
  v.cell_bytes = 12;
  return v;
}

// HotSpot through the runtime's 16-byte 2-D single step (the power map its
// constant field), `Rows` rows a thread, on rows a multiple of 4 apart.
// Throughput only; `power` holds the pitched domain's cells.
template <int Rows>
Variant hotspot_vector_step(const char* policy, const Domain& domain, const float* power) {
  Domain pitched = domain.aligned(sizeof(float));
  pitched.lead = 0;
  const LaunchGeometry g = pitched.geometry(1);
  const apps::Hotspot stencil{apps::Hotspot::for_grid(domain.n[1], domain.n[0])};
  Variant v{"hotspot", "vector-step", policy, 1, pitched.cells(), [g, stencil, power](const void* in, void* out) {
              trapeze::cuda::launch_vector_step<apps::Hotspot, Rows>(stencil, static_cast<const float*>(in),
                                                                     static_cast<float*>(out), power, g, 0.0f, nullptr);
            }};
  v.elements = pitched.elements();
  v.check_against_default = false;
  v.cell_bytes = 12;
  return v;
}

template <typename S, typename Policy>
Variant trapezoid(const char* stencil, const char* policy, const Domain& domain, int k) {
  const LaunchGeometry g = domain.geometry(k);
  using T = typename S::value_type;
  return {stencil, "trapezoid", policy, k, domain.cells(), [g](const void* in, void* out) {
            trapeze::cuda::launch_trapezoid_kernel<S, Policy>(S{}, static_cast<const T*>(in), static_cast<T*>(out),
                                                              nullptr, g, T{}, nullptr);
          }};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) {
    std::fprintf(stderr, "gpu_kernel_probe: unexpected argument '%s' (it takes none)\n", argv[1]);
    return 2;
  }
  using J2 = apps::Jacobi2D<float>;
  using J3 = apps::Jacobi3D<float>;
  const Domain square{{16384, 16384, 1}, {1, 1, 0}};
  const Domain cube{{512, 512, 512}, {1, 1, 1}};
  const double bandwidth = bench::device_copy_bandwidth();
  const double roofline = bandwidth / 8.0;  // cell updates per second

  using L = apps::Life;
  std::vector<Variant> variants2, variants3, variants_life;
  // The default kernels; 2-D and life for reference.
  variants2.push_back(single_step<J2, trapeze::cuda::StreamPolicyOf<J2>>("jacobi2d", "default", square));
  variants2.push_back(trapezoid<J2, trapeze::cuda::PolicyOf<J2>>("jacobi2d", "default", square, 8));
  // 2-D register trapezoid: a row of threads_x cells across walks y.
  using RT2 = trapeze::cuda::RegisterTrapezoidPolicyOf<J2>;
  variants2.push_back(register_trapezoid<J2, RT2, 4>("jacobi2d", "default (t256 p256 b2 a2)", square));
  variants2.push_back(register_trapezoid<J2, RT2, 8>("jacobi2d", "default (t256 p256 b2 a2)", square));
  variants2.push_back(register_trapezoid<J2, RT2, 12>("jacobi2d", "default (t256 p256 b2 a2)", square));
  variants2.push_back(register_trapezoid<J2, RT2, 16>("jacobi2d", "default (t256 p256 b2 a2)", square));
  variants2.push_back(register_trapezoid<J2, PlaneStreamPolicy<128, 1, 1, 256, 4, 2>, 8>("jacobi2d", "t128 p256 b4 a2", square));
  variants2.push_back(register_trapezoid<J2, PlaneStreamPolicy<512, 1, 1, 256, 1, 2>, 8>("jacobi2d", "t512 p256 b1 a2", square));
  variants2.push_back(register_trapezoid<J2, PlaneStreamPolicy<512, 1, 1, 256, 1, 2>, 16>("jacobi2d", "t512 p256 b1 a2", square));
  variants2.push_back(register_trapezoid<J2, PlaneStreamPolicy<256, 1, 1, 512, 2, 2>, 8>("jacobi2d", "t256 p512 b2 a2", square));
  variants2.push_back(register_trapezoid<J2, PlaneStreamPolicy<256, 1, 1, 128, 2, 2>, 8>("jacobi2d", "t256 p128 b2 a2", square));
  variants2.push_back(register_trapezoid<J2, PlaneStreamPolicy<256, 1, 1, 256, 4, 2>, 8>("jacobi2d", "t256 p256 b4 a2", square));
  // The 16-byte 2-D trapezoid (session 44) on the tiles' rows (16388 apart):
  // a warp of 4-cell groups walks y on its own, no shared memory.
  const Domain square_tiles{{16384, 16384, 1}, {2, 1, 0}};
  using trapeze::cuda::RowVectorTrapezoidPolicy;
  using RV2 = trapeze::cuda::RowVectorTrapezoidDefaultPolicy::type;
  variants2.push_back(row_vector_trapezoid<J2, RV2, 2>("jacobi2d", "default", square_tiles));
  variants2.push_back(row_vector_trapezoid<J2, RV2, 4>("jacobi2d", "default", square_tiles));
  variants2.push_back(row_vector_trapezoid<J2, RV2, 6>("jacobi2d", "default", square_tiles));
  variants2.push_back(row_vector_trapezoid<J2, RV2, 8>("jacobi2d", "default", square_tiles));
  variants2.push_back(row_vector_trapezoid<J2, RowVectorTrapezoidPolicy<8, 256, 2, 2>, 12>("jacobi2d", "w8 p256 b2 a2", square_tiles));
  variants2.push_back(row_vector_trapezoid<J2, RowVectorTrapezoidPolicy<8, 256, 1, 2>, 16>("jacobi2d", "w8 p256 b1 a2", square_tiles));
  variants2.push_back(row_vector_trapezoid<J2, RowVectorTrapezoidPolicy<4, 256, 4, 2>, 8>("jacobi2d", "w4 p256 b4 a2", square_tiles));
  variants2.push_back(row_vector_trapezoid<J2, RowVectorTrapezoidPolicy<8, 512, 2, 2>, 8>("jacobi2d", "w8 p512 b2 a2", square_tiles));
  variants2.push_back(row_vector_trapezoid<J2, RowVectorTrapezoidPolicy<8, 128, 2, 2>, 8>("jacobi2d", "w8 p128 b2 a2", square_tiles));
  variants2.push_back(row_vector_trapezoid<J2, RowVectorTrapezoidPolicy<8, 256, 2, 1>, 8>("jacobi2d", "w8 p256 b2 a1", square_tiles));
  variants2.push_back(row_vector_trapezoid<J2, RowVectorTrapezoidPolicy<8, 256, 2, 3>, 8>("jacobi2d", "w8 p256 b2 a3", square_tiles));
  variants2.push_back(row_vector_trapezoid<J2, RowVectorTrapezoidPolicy<8, 256, 1, 2>, 8>("jacobi2d", "w8 p256 b1 a2", square_tiles));
  variants2.push_back(row_vector_trapezoid<J2, RowVectorTrapezoidPolicy<8, 256, 2, 2>, 8>("jacobi2d", "w8 p256 b2 a2", square_tiles));
  variants2.push_back(row_vector_trapezoid<J2, RowVectorTrapezoidPolicy<4, 256, 4, 1>, 8>("jacobi2d", "w4 p256 b4 a1", square_tiles));
  variants2.push_back(row_vector_trapezoid<J2, RowVectorTrapezoidPolicy<2, 256, 8, 2>, 8>("jacobi2d", "w2 p256 b8 a2", square_tiles));
  variants2.push_back(row_vector_trapezoid<J2, RowVectorTrapezoidPolicy<4, 128, 4, 2>, 8>("jacobi2d", "w4 p128 b4 a2", square_tiles));
  variants2.push_back(row_vector_trapezoid<J2, RowVectorTrapezoidPolicy<8, 256, 2, 2>, 6>("jacobi2d", "w8 p256 b2 a2", square_tiles));
  variants2.push_back(row_vector_trapezoid<J2, RowVectorTrapezoidPolicy<4, 256, 4, 2>, 6>("jacobi2d", "w4 p256 b4 a2", square_tiles));
  // Plain copies of the same buffers (the ceiling), and the 16-byte single
  // step the runtime takes where rows are a multiple of 4 cells apart.
  variants2.push_back(copy_variant<false>("1 float a thread", square));
  variants2.push_back(copy_variant<true>("float4 a thread", square));
  variants2.push_back(vector_step<J2>("jacobi2d", square, "default (rows 4)"));
  // Rows a thread: each loads its rows and the two beside them, so more rows
  // read less through L2 (the H200's L2 is the H100's, its DRAM 1.4x faster).
  variants2.push_back(vector_step<J2, 1>("jacobi2d", square, "rows 1"));
  variants2.push_back(vector_step<J2, 2>("jacobi2d", square, "rows 2"));
  variants2.push_back(vector_step<J2, 8>("jacobi2d", square, "rows 8"));
  // The rows above are 16416 cells apart (on 128-byte lines); GPU tiles of
  // 16384 have them 16388 apart (the ghost 2), and would have them 16400
  // apart with rows of 16 cells (the ghost 8), as 3-D tiles do since
  // 2026-11-29 (0.844 on 516, 0.926 on 528 for jacobi3d 512^3). On the
  // H200 (session 44): 16416 0.927, 16388 0.920, 16400 0.920: 2-D tiles
  // keep rows of 4.
  variants2.push_back(vector_step<J2>("jacobi2d", square, "default (rows 4), rows 16388 apart", 16388));
  variants2.push_back(vector_step<J2>("jacobi2d", square, "default (rows 4), rows 16400 apart", 16400));
  variants2.push_back(float4_step_variant<1>("by hand, 1 row a thread", square.aligned(sizeof(float))));
  variants2.push_back(float4_step_variant<2>("by hand, 2 rows a thread", square.aligned(sizeof(float))));
  variants2.push_back(float4_step_variant<4>("by hand, 4 rows a thread", square.aligned(sizeof(float))));
  variants2.push_back(float4_step_variant<8>("by hand, 8 rows a thread", square.aligned(sizeof(float))));
  // The single step on rows aligned to 128 bytes (the tiles' rows are not:
  // their interior starts `radius` cells into a row of n + 2r).
  const Domain square_aligned = square.aligned(sizeof(float));
  variants2.push_back(on_aligned_rows<float>(single_step<J2, trapeze::cuda::StreamPolicyOf<J2>>("jacobi2d", "default", square_aligned), square_aligned));
  variants2.push_back(on_aligned_rows<float>(single_step<J2, StreamPolicy<128, 2, 1, 2, 8>>("jacobi2d", "t128x2 c2 b8", square_aligned), square_aligned));
  variants2.push_back(on_aligned_rows<float>(single_step<J2, StreamPolicy<64, 4, 1, 2, 8>>("jacobi2d", "t64x4 c2 b8", square_aligned), square_aligned));
  variants2.push_back(on_aligned_rows<float>(single_step<J2, StreamPolicy<32, 4, 1, 4, 16>>("jacobi2d", "t32x4 c4 b16", square_aligned), square_aligned));
  variants2.push_back(on_aligned_rows<float>(trapezoid<J2, trapeze::cuda::PolicyOf<J2>>("jacobi2d", "default", square_aligned, 8), square_aligned));
  variants2.push_back(on_aligned_rows<float>(register_trapezoid<J2, RT2, 8>("jacobi2d", "default (t256 p256 b2 a2)", square_aligned), square_aligned));
  // Life: the single step (the reference of the checks) and the box
  // trapezoid in shared memory. (A register trapezoid for 2-D box stencils,
  // each step's 3x3 window in registers, ran at 0.19-0.22 of the roofline
  // against the box trapezoid's 0.355: docs/PERF.md, 2026-11-25.)
  variants_life.push_back(single_step<L, trapeze::cuda::StreamPolicyOf<L>>("life", "default", square));
  variants_life.push_back(trapezoid<L, trapeze::cuda::PolicyOf<L>>("life", "default", square, 6));
  variants_life.push_back(trapezoid<L, trapeze::cuda::PolicyOf<L>>("life", "default", square, 8));
  // HotSpot: its power map in registers (constants_at_cell_only) or read from memory each step.
  const auto power_cells =
      static_cast<std::size_t>(std::max(square.padded_cells(), square.aligned(sizeof(float)).padded_cells()));
  bench::DeviceBuffer<float> power(power_cells);
  {
    std::vector<float> host(power_cells);
    std::mt19937 engine(5);
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    for (auto& v : host) v = uniform(engine);
    TRAPEZE_CUDA_CHECK(cudaMemcpy(power.data, host.data(), power_cells * sizeof(float), cudaMemcpyHostToDevice));
  }
  std::vector<Variant> variants_hotspot;
  variants_hotspot.push_back(hotspot_variant<apps::Hotspot>("single-step", "default", square, 1, power.data));
  variants_hotspot.push_back(hotspot_vector_step<2>("rows 2", square, power.data));
  variants_hotspot.push_back(hotspot_vector_step<4>("rows 4", square, power.data));
  for (int k : {8, 12, 16}) {
    variants_hotspot.push_back(hotspot_variant<apps::Hotspot>("reg-trapezoid", "power in registers", square, k, power.data));
    variants_hotspot.push_back(hotspot_variant<HotspotPowerFromMemory>("reg-trapezoid", "power from memory", square, k, power.data));
  }
  // The 16-byte 2-D trapezoid with the power map read a group a step (not
  // yet taken by the runtime), on the tiles' rows (16388 apart).
  {
    const Domain square_tiles{{16384, 16384, 1}, {2, 1, 0}};
    using RV = trapeze::cuda::RowVectorTrapezoidDefaultPolicy::type;
    variants_hotspot.push_back(hotspot_row_vector_trapezoid<RV, 4>("default, power from memory", square_tiles, power.data));
    variants_hotspot.push_back(hotspot_row_vector_trapezoid<RV, 6>("default, power from memory", square_tiles, power.data));
    variants_hotspot.push_back(hotspot_row_vector_trapezoid<RV, 8>("default, power from memory", square_tiles, power.data));
    // The default spills at k = 6 and 8 here (ptxas: 60 and 200 bytes under 128 registers).
    using trapeze::cuda::RowVectorTrapezoidPolicy;
    variants_hotspot.push_back(hotspot_row_vector_trapezoid<RowVectorTrapezoidPolicy<8, 256, 1, 2>, 8>("w8 p256 b1 a2, power from memory", square_tiles, power.data));
    variants_hotspot.push_back(hotspot_row_vector_trapezoid<RowVectorTrapezoidPolicy<8, 256, 2, 1>, 8>("w8 p256 b2 a1, power from memory", square_tiles, power.data));
    variants_hotspot.push_back(hotspot_row_vector_trapezoid<RowVectorTrapezoidPolicy<8, 256, 1, 2>, 6>("w8 p256 b1 a2, power from memory", square_tiles, power.data));
  }
  // 3-D: the single step, the box trapezoid, and the plane trapezoid's box and threads against k.
  variants3.push_back(plane_stream<J3, trapeze::cuda::PlaneStreamPolicyOf<J3>>("jacobi3d", "default", cube));
  // 3-D single step with the z-neighbours in registers (plane_register_kernel.cuh):
  // threads x, threads y, rows per thread, planes per block, blocks per multiprocessor.
  variants3.push_back(plane_register<J3, PlaneStreamPolicy<64, 2, 8, 64, 4>>("jacobi3d", "t64x2 r8 p64 b4", cube));
  variants3.push_back(plane_register<J3, PlaneStreamPolicy<64, 2, 8, 64, 4, 2>>("jacobi3d", "t64x2 r8 p64 b4 a2", cube));
  variants3.push_back(plane_register<J3, PlaneStreamPolicy<64, 8, 4, 64, 1, 2>>("jacobi3d", "t64x8 r4 p64 b1 a2", cube));
  variants3.push_back(plane_register<J3, PlaneStreamPolicy<128, 2, 4, 64, 4, 2>>("jacobi3d", "t128x2 r4 p64 b4 a2", cube));
  variants3.push_back(plane_register<J3, PlaneStreamPolicy<128, 2, 4, 128, 4, 2>>("jacobi3d", "t128x2 r4 p128 b4 a2", cube));
  variants3.push_back(plane_register<J3, PlaneStreamPolicy<128, 2, 8, 64, 2, 1>>("jacobi3d", "t128x2 r8 p64 b2 a1", cube));
  variants3.push_back(plane_register<J3, PlaneStreamPolicy<128, 4, 2, 64, 4, 2>>("jacobi3d", "t128x4 r2 p64 b4 a2", cube));
  variants3.push_back(plane_register<J3, PlaneStreamPolicy<256, 1, 4, 64, 4, 2>>("jacobi3d", "t256x1 r4 p64 b4 a2", cube));
  variants3.push_back(plane_register<J3, PlaneStreamPolicy<256, 2, 2, 64, 4, 2>>("jacobi3d", "t256x2 r2 p64 b4 a2", cube));
  variants3.push_back(plane_register<J3, PlaneStreamPolicy<256, 1, 8, 64, 2, 1>>("jacobi3d", "t256x1 r8 p64 b2 a1", cube));
  variants3.push_back(plane_register<J3, PlaneStreamPolicy<512, 1, 4, 64, 2, 2>>("jacobi3d", "t512x1 r4 p64 b2 a2", cube));
  variants3.push_back(plane_trapezoid<J3, PlaneTrapezoidPolicy<64, 16, 64, 4, 64>>("jacobi3d", "64x16 t64x4 (default)", cube, 2));
  // The 16-byte 3-D step: warps across x, threads across y, rows a thread,
  // planes a block, blocks per multiprocessor; rows 516 cells apart (the
  // tiles' ghost widened to 2, as StencilRun does on GPUs).
  Domain cube_pitched = cube;
  cube_pitched.pitch = 516;
  using trapeze::cuda::VectorPlanePolicy;
  // Walking 1 plane (no queue: 3 planes loaded at once, the caches serve the
  // z-neighbours) up to 16.
  const auto vp_on = [&](auto policy, const char* name, const Domain& rows) {
    variants3.push_back(vector_plane<J3, decltype(policy)>("jacobi3d", name, rows));
  };
  const auto vp = [&](auto policy, const char* name) { vp_on(policy, name, cube_pitched); };
  vp(VectorPlanePolicy<1, 4, 2, 1>{}, "w1x4 r2 p1");
  vp(VectorPlanePolicy<1, 8, 2, 1>{}, "w1x8 r2 p1");
  vp(VectorPlanePolicy<1, 2, 2, 1>{}, "w1x2 r2 p1");
  vp(VectorPlanePolicy<1, 4, 3, 1>{}, "w1x4 r3 p1");
  vp(VectorPlanePolicy<1, 4, 4, 1>{}, "w1x4 r4 p1");
  vp(VectorPlanePolicy<1, 2, 4, 1>{}, "w1x2 r4 p1");
  vp(VectorPlanePolicy<1, 8, 2, 1, 2>{}, "w1x8 r2 p1 b2");
  vp(VectorPlanePolicy<1, 4, 2, 1, 4>{}, "w1x4 r2 p1 b4");
  vp(VectorPlanePolicy<2, 2, 2, 1>{}, "w2x2 r2 p1");
  vp(VectorPlanePolicy<1, 4, 2, 2>{}, "w1x4 r2 p2");
  vp(VectorPlanePolicy<1, 4, 1, 2, 4>{}, "w1x4 r1 p2 b4");
  vp(VectorPlanePolicy<1, 8, 1, 1>{}, "w1x8 r1 p1");
  vp(VectorPlanePolicy<1, 16, 1, 1>{}, "w1x16 r1 p1");
  vp(VectorPlanePolicy<1, 4, 1, 4, 4>{}, "w1x4 r1 p4 b4");
  vp(VectorPlanePolicy<1, 4, 2, 16>{}, "w1x4 r2 p16");
  // More warps a multiprocessor: registers capped by blocks a multiprocessor.
  vp(VectorPlanePolicy<1, 4, 2, 1, 12>{}, "w1x4 r2 p1 b12");
  vp(VectorPlanePolicy<1, 8, 2, 1, 6>{}, "w1x8 r2 p1 b6");
  vp(VectorPlanePolicy<1, 4, 2, 1, 16>{}, "w1x4 r2 p1 b16");
  vp(VectorPlanePolicy<1, 4, 1, 1, 16>{}, "w1x4 r1 p1 b16");
  vp(VectorPlanePolicy<1, 4, 3, 1, 12>{}, "w1x4 r3 p1 b12");
  vp(VectorPlanePolicy<1, 2, 2, 1, 20>{}, "w1x2 r2 p1 b20");
  // A thread's whole window loaded at once (rows x planes, no walk).
  vp(VectorPlanePolicy<1, 4, 4, 4, 1, true>{}, "w1x4 r4 p4 window");
  vp(VectorPlanePolicy<1, 2, 4, 4, 1, true>{}, "w1x2 r4 p4 window");
  vp(VectorPlanePolicy<1, 4, 2, 4, 1, true>{}, "w1x4 r2 p4 window");
  vp(VectorPlanePolicy<1, 4, 4, 2, 1, true>{}, "w1x4 r4 p2 window");
  vp(VectorPlanePolicy<1, 4, 3, 4, 1, true>{}, "w1x4 r3 p4 window");
  vp(VectorPlanePolicy<1, 4, 2, 8, 1, true>{}, "w1x4 r2 p8 window");
  vp(VectorPlanePolicy<1, 4, 4, 3, 1, true>{}, "w1x4 r4 p3 window");
  // On rows 528 cells apart (the x ghost 8; GPU tiles 512 wide since
  // 2026-11-29, stencil_shape.hpp's gpu_tile_ghost) and 576 (32).
  const Domain cube_sixteens{{512, 512, 512}, {8, 1, 1}}, cube_lines{{512, 512, 512}, {32, 1, 1}};
  vp_on(VectorPlanePolicy<1, 4, 3, 4, 1, true>{}, "w1x4 r3 p4 window, rows 528 apart", cube_sixteens);
  vp_on(VectorPlanePolicy<1, 4, 4, 4, 1, true>{}, "w1x4 r4 p4 window, rows 528 apart", cube_sixteens);
  vp_on(VectorPlanePolicy<1, 4, 2, 1>{}, "w1x4 r2 p1, rows 528 apart", cube_sixteens);
  vp_on(VectorPlanePolicy<1, 4, 3, 4, 1, true>{}, "w1x4 r3 p4 window, rows 576 apart", cube_lines);
  // The launch in bands of rows of blocks, each band through all its plane
  // groups (plane_bands.hpp), at 512^3, 1024^3 and 1536^3 (rows 528, 1040
  // and 1552 apart: the tiles' at those sides), where the planes a group
  // shares with the next are read again a whole group of planes later in
  // plain order (11, 43 and 96 MB of traffic, against a 50 MB L2). A band of
  // all rows of blocks is the plain order; "auto" is the launch's choice.
  using Window34 = VectorPlanePolicy<1, 4, 3, 4, 1, true>;
  const auto band_on = [&](int band, const char* name, const Domain& rows) {
    variants3.push_back(vector_plane<J3, Window34>("jacobi3d", name, rows, band));
  };
  band_on(1 << 20, "w1x4 r3 p4 window band all, rows 528 apart", cube_sixteens);
  band_on(8, "w1x4 r3 p4 window band 8, rows 528 apart", cube_sixteens);
  band_on(24, "w1x4 r3 p4 window band 24, rows 528 apart", cube_sixteens);
  band_on(0, "w1x4 r3 p4 window band auto, rows 528 apart", cube_sixteens);
  const Domain cube_1024{{1024, 1024, 1024}, {8, 1, 1}}, cube_1536{{1536, 1536, 1536}, {8, 1, 1}};
  for (const int band : {1 << 20, 16, 24, 32, 43, 0}) {
    const std::string which = band == 0 ? "auto" : band == 1 << 20 ? "all" : std::to_string(band);
    band_on(band, ("w1x4 r3 p4 window band " + which + ", 1024^3").c_str(), cube_1024);
    band_on(band, ("w1x4 r3 p4 window band " + which + ", 1536^3").c_str(), cube_1536);
  }
  // Ceilings: a float4 copy walking z as the 16-byte step does, and one plane a thread.
  variants3.push_back(copy_planes_variant<8, 32>("float4, 32 planes a thread", cube_pitched));
  variants3.push_back(copy_planes_variant<8, 1>("float4, 1 plane a thread", cube_pitched));
  variants3.push_back(copy_planes_variant<8, 4>("float4, 4 planes a thread", cube_pitched));
  variants3.push_back(copy_planes_variant<8, 8>("float4, 8 planes a thread", cube_pitched));
  variants3.push_back(copy_planes_variant<8, 128>("float4, 128 planes a thread", cube_pitched));
  variants3.push_back(copy_planes_variant<8, 520>("float4, every plane a thread", cube_pitched));
  variants3.push_back(plane_register<J3, trapeze::cuda::PlaneRegisterPolicyOf<J3>>("jacobi3d", "default, rows 516 apart", cube_pitched));
  variants3.back().check_against_default = false;
  variants3.back().elements = cube_pitched.elements();
  const Domain cube_aligned = cube.aligned(sizeof(float));
  // By hand, a thread's rows over several planes at once (rows x planes).
  variants3.push_back(float4_planes_variant<2, 1>("by hand, 2 rows x 1 plane", cube_aligned));
  variants3.push_back(float4_planes_variant<4, 1>("by hand, 4 rows x 1 plane", cube_aligned));
  variants3.push_back(float4_planes_variant<1, 4>("by hand, 1 row x 4 planes", cube_aligned));
  variants3.push_back(float4_planes_variant<2, 2>("by hand, 2 rows x 2 planes", cube_aligned));
  variants3.push_back(float4_planes_variant<2, 4>("by hand, 2 rows x 4 planes", cube_aligned));
  variants3.push_back(float4_planes_variant<4, 2>("by hand, 4 rows x 2 planes", cube_aligned));
  variants3.push_back(float4_planes_variant<4, 4>("by hand, 4 rows x 4 planes", cube_aligned));
  variants3.push_back(float4_planes_variant<2, 8>("by hand, 2 rows x 8 planes", cube_aligned));
  const Domain cube_ghost_4{{512, 512, 512}, {4, 1, 1}};
  variants3.push_back(float4_planes_variant<4, 4>("by hand, 4 rows x 4 planes, rows 520 apart", cube_ghost_4));
  variants3.push_back(float4_planes_variant<2, 4>("by hand, 2 rows x 4 planes, rows 520 apart", cube_ghost_4));
  variants3.push_back(float4_planes_variant<4, 4>("by hand, 4 rows x 4 planes, rows 528 apart", cube_sixteens));
  variants3.push_back(float4_planes_variant<4, 4>("by hand, 4 rows x 4 planes, rows 576 apart", cube_lines));
  variants3.push_back(on_aligned_rows<float>(plane_register<J3, trapeze::cuda::PlaneRegisterPolicyOf<J3>>("jacobi3d", "default", cube_aligned), cube_aligned));
  variants3.push_back(on_aligned_rows<float>(plane_stream<J3, trapeze::cuda::PlaneStreamPolicyOf<J3>>("jacobi3d", "default", cube_aligned), cube_aligned));
  // The 3-D register trapezoid (plane_register_trapezoid_kernel.cuh): threads
  // x, threads y, rows per thread (box = threads x by threads y * rows),
  // planes per block, blocks per multiprocessor, input planes loaded ahead;
  // k steps per launch.
  using RT = trapeze::cuda::RegisterTrapezoidPolicyOf<J3>;
  variants3.push_back(register_trapezoid<J3, RT, 2>("jacobi3d", "default (t64x8 r4 p64 b1 a2)", cube));
  variants3.push_back(register_trapezoid<J3, RT, 3>("jacobi3d", "default (t64x8 r4 p64 b1 a2)", cube));
  variants3.push_back(register_trapezoid<J3, RT, 4>("jacobi3d", "default (t64x8 r4 p64 b1 a2)", cube));
  variants3.push_back(register_trapezoid<J3, RT, 5>("jacobi3d", "default (t64x8 r4 p64 b1 a2)", cube));
  variants3.push_back(register_trapezoid<J3, RT, 6>("jacobi3d", "default (t64x8 r4 p64 b1 a2)", cube));
  variants3.push_back(register_trapezoid<J3, PlaneStreamPolicy<32, 16, 2, 64, 2, 2>, 4>("jacobi3d", "t32x16 r2 p64 b2 a2", cube));
  variants3.push_back(register_trapezoid<J3, PlaneStreamPolicy<64, 8, 2, 64, 2, 2>, 3>("jacobi3d", "t64x8 r2 p64 b2 a2", cube));
  variants3.push_back(register_trapezoid<J3, PlaneStreamPolicy<32, 8, 4, 64, 2, 2>, 3>("jacobi3d", "t32x8 r4 p64 b2 a2", cube));

  // The 16-byte 3-D trapezoid: threads across y, rows a thread, planes a
  // block, blocks per multiprocessor; k steps a launch; against the scalar
  // register trapezoid on the same rows (516 cells apart).
  using trapeze::cuda::VectorTrapezoidPolicy;
  variants3.push_back(register_trapezoid<J3, RT, 3>("jacobi3d", "default, rows 516 apart", cube_pitched));
  variants3.back().check_against_default = false;
  variants3.back().elements = cube_pitched.elements();
  variants3.push_back(vector_trapezoid<J3, VectorTrapezoidPolicy<16, 2, 64>, 2>("jacobi3d", "t16 r2 p64", cube_pitched));
  variants3.push_back(vector_trapezoid<J3, VectorTrapezoidPolicy<16, 2, 64>, 3>("jacobi3d", "t16 r2 p64", cube_pitched));
  variants3.push_back(vector_trapezoid<J3, VectorTrapezoidPolicy<16, 2, 64>, 4>("jacobi3d", "t16 r2 p64", cube_pitched));
  // The same on rows 528 cells apart (3-D GPU tiles 512 wide since 2026-11-29).
  variants3.push_back(vector_trapezoid<J3, VectorTrapezoidPolicy<16, 2, 64>, 3>("jacobi3d", "t16 r2 p64, rows 528 apart", cube_sixteens));
  // Input planes ahead (a), the walk unrolled (u), other boxes.
  variants3.push_back(vector_trapezoid<J3, VectorTrapezoidPolicy<16, 2, 64, 1, 2>, 3>("jacobi3d", "t16 r2 p64 a2", cube_pitched));
  variants3.push_back(vector_trapezoid<J3, VectorTrapezoidPolicy<16, 2, 64, 1, 1, 2>, 3>("jacobi3d", "t16 r2 p64 u2", cube_pitched));
  variants3.push_back(vector_trapezoid<J3, VectorTrapezoidPolicy<16, 2, 32>, 3>("jacobi3d", "t16 r2 p32", cube_pitched));
  variants3.push_back(vector_trapezoid<J3, VectorTrapezoidPolicy<16, 2, 128>, 3>("jacobi3d", "t16 r2 p128", cube_pitched));
  variants3.push_back(vector_trapezoid<J3, VectorTrapezoidPolicy<8, 4, 64>, 3>("jacobi3d", "t8 r4 p64", cube_pitched));
  variants3.push_back(vector_trapezoid<J3, VectorTrapezoidPolicy<32, 1, 64>, 3>("jacobi3d", "t32 r1 p64", cube_pitched));

  // TRAPEZE_PROBE_ONLY=text[,text...] keeps the variants whose "stencil
  // kernel policy" holds one of the texts (and each set's first, the
  // reference); TRAPEZE_PROBE_ROUNDS=n.
  if (const char* only = std::getenv("TRAPEZE_PROBE_ONLY")) {
    std::vector<std::string> texts;
    for (std::string rest = only; !rest.empty();) {
      const auto comma = rest.find(',');
      texts.push_back(rest.substr(0, comma));
      rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    }
    for (auto* set : {&variants2, &variants_life, &variants_hotspot, &variants3}) {
      std::vector<Variant> kept{(*set)[0]};
      for (std::size_t i = 1; i < set->size(); ++i) {
        const std::string name = (*set)[i].stencil + " " + (*set)[i].kernel + " " + (*set)[i].policy;
        if (std::any_of(texts.begin(), texts.end(), [&](const std::string& t) { return !t.empty() && name.find(t) != std::string::npos; })) {
          kept.push_back((*set)[i]);
        }
      }
      *set = kept;
    }
  }
  int rounds = 5;
  if (const char* text = std::getenv("TRAPEZE_PROBE_ROUNDS")) {
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || value < 1 || value > 1000) {
      std::fprintf(stderr, "gpu_kernel_probe: TRAPEZE_PROBE_ROUNDS must be a whole number from 1 to 1000, got '%s'\n", text);
      return 2;
    }
    rounds = static_cast<int>(value);
  }
  for (auto* set : {&variants2, &variants_life, &variants_hotspot, &variants3}) {
    const Domain& domain = set == &variants3 ? cube : square;
    const bool bytes = set == &variants_life;
    long long most = domain.padded_cells();
    for (const Variant& v : *set) most = std::max(most, v.elements);
    const auto count = static_cast<std::size_t>(most);
    const std::size_t element = bytes ? 1 : sizeof(float);
    std::vector<unsigned char> host(count * element);
    std::mt19937 engine(7);
    if (bytes) {
      for (auto& v : host) v = static_cast<unsigned char>(engine() & 1u);
    } else {
      std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
      for (std::size_t i = 0; i < count; ++i) {
        const float v = uniform(engine);
        std::memcpy(host.data() + i * element, &v, element);
      }
    }
    bench::DeviceBuffer<unsigned char> a(host.size()), b(host.size());
    TRAPEZE_CUDA_CHECK(cudaMemcpy(a.data, host.data(), host.size(), cudaMemcpyHostToDevice));
    TRAPEZE_CUDA_CHECK(cudaMemcpy(b.data, host.data(), host.size(), cudaMemcpyHostToDevice));
    for (int round = 0; round < rounds; ++round) {
      std::fprintf(stderr, "%s: round %d of %d\n", (*set)[0].stencil.c_str(), round + 1, rounds);
      for (Variant& v : *set) {
        const int launches = std::max(2, 32 / v.k);
        v.launch(a.data, b.data);  // warm-up (and the kernel's attributes)
        bench::Event start, stop;
        TRAPEZE_CUDA_CHECK(cudaEventRecord(start.event));
        for (int l = 0; l < launches; ++l) {
          v.launch(l % 2 ? b.data : a.data, l % 2 ? a.data : b.data);
          if (v.synchronise) TRAPEZE_CUDA_CHECK(cudaDeviceSynchronize());
        }
        TRAPEZE_CUDA_CHECK(cudaEventRecord(stop.event));
        const double seconds = bench::seconds_between(start, stop);
        // Life moves 2 B per cell update, the jacobis 8 B, HotSpot 12 B: each against its own roofline.
        const double own_roofline = bandwidth / (bytes ? 2.0 : v.cell_bytes);
        v.fractions.push_back(static_cast<double>(v.cells) * v.k * launches / seconds / own_roofline);
        v.roofline = own_roofline;
      }
    }
  }
  // Each checked variant against its set's first (the default kernel): one
  // launch of each from the same input, outputs compared bit for bit.
  for (auto* set : {&variants2, &variants_life, &variants_hotspot, &variants3}) {
    const Domain& domain = set == &variants3 ? cube : square;
    const std::size_t bytes = static_cast<std::size_t>(domain.padded_cells()) * (set == &variants_life ? 1 : sizeof(float));
    std::vector<unsigned char> host(bytes);
    std::mt19937 engine(11);
    for (std::size_t i = 0; i + sizeof(float) <= bytes; i += sizeof(float)) {
      const float v = std::uniform_real_distribution<float>(0.0f, 1.0f)(engine);
      std::memcpy(host.data() + i, &v, sizeof v);
    }
    bench::DeviceBuffer<unsigned char> input(bytes), got(bytes);
    TRAPEZE_CUDA_CHECK(cudaMemcpy(input.data, host.data(), bytes, cudaMemcpyHostToDevice));
    // The set's first variant is a single step: k of its launches are what a
    // k-step variant must produce.
    std::vector<unsigned char> want(bytes), have(bytes);
    int expected_steps = 0;
    auto expect_steps = [&](int k) {
      if (k == expected_steps) return;
      bench::DeviceBuffer<unsigned char> a(bytes), b(bytes);
      TRAPEZE_CUDA_CHECK(cudaMemcpy(a.data, host.data(), bytes, cudaMemcpyHostToDevice));
      TRAPEZE_CUDA_CHECK(cudaMemcpy(b.data, host.data(), bytes, cudaMemcpyHostToDevice));
      for (int step = 0; step < k; ++step) (*set)[0].launch(step % 2 ? b.data : a.data, step % 2 ? a.data : b.data);
      TRAPEZE_CUDA_CHECK(cudaMemcpy(want.data(), k % 2 ? b.data : a.data, bytes, cudaMemcpyDeviceToHost));
      expected_steps = k;
    };
    for (Variant& v : *set) {
      if (!v.check_against_default) continue;
      expect_steps(v.k);
      TRAPEZE_CUDA_CHECK(cudaMemcpy(got.data, host.data(), bytes, cudaMemcpyHostToDevice));
      v.launch(input.data, got.data);
      TRAPEZE_CUDA_CHECK(cudaMemcpy(have.data(), got.data, bytes, cudaMemcpyDeviceToHost));
      std::size_t differing = 0;
      for (std::size_t i = 0; i < bytes; i += sizeof(float)) differing += std::memcmp(&want[i], &have[i], sizeof(float)) != 0;
      v.check = differing == 0 ? "equal" : std::to_string(differing) + " cells DIFFER";
    }
  }
  {
    Domain cube_pitched = cube;
    cube_pitched.pitch = 516;
    Domain odd{{257, 131, 67}, {1, 1, 1}};  // blocks cut by every edge, rows 260 apart
    odd.pitch = 260;
    using trapeze::BoundaryKind;
    using Default = trapeze::cuda::VectorPlaneDefaultPolicy::type;
    using Wide = trapeze::cuda::VectorPlanePolicy<2, 4, 4, 16>;
    using Small = trapeze::cuda::VectorPlanePolicy<1, 4, 1, 4, 4>;
    using Window = trapeze::cuda::VectorPlanePolicy<1, 4, 4, 4, 1, true>;
    using WindowOdd = trapeze::cuda::VectorPlanePolicy<1, 2, 3, 3, 1, true>;
    using Banded = trapeze::cuda::VectorPlanePolicy<1, 4, 3, 4, 1, true>;
    using BandedOdd = trapeze::cuda::VectorPlanePolicy<1, 2, 3, 3, 1, true>;
    std::printf("vector-plane window in bands against plane-register, cells that differ: band 4 512^3 clamp %lld; "
                "257x131x67 (a last band of 3 rows of blocks) clamp %lld, constant %lld, periodic %lld; "
                "w1x2 r3 p3 band 3 257x131x67 clamp %lld\n",
                vector_plane_differences<J3, Banded>(cube_sixteens, BoundaryKind::clamp, 4),
                vector_plane_differences<J3, Banded>(odd, BoundaryKind::clamp, 4),
                vector_plane_differences<J3, Banded>(odd, BoundaryKind::constant, 4),
                vector_plane_differences<J3, Banded>(odd, BoundaryKind::periodic, 4),
                vector_plane_differences<J3, BandedOdd>(odd, BoundaryKind::clamp, 3));
    std::printf("vector-plane window on rows 528 apart against plane-register, cells that differ: r3 p4 clamp %lld, "
                "constant %lld, periodic %lld\n",
                vector_plane_differences<J3, Default>(cube_sixteens, BoundaryKind::clamp),
                vector_plane_differences<J3, Default>(cube_sixteens, BoundaryKind::constant),
                vector_plane_differences<J3, Default>(cube_sixteens, BoundaryKind::periodic));
    std::printf("vector-plane windows against plane-register, cells that differ: r4 p4 512^3 clamp %lld, constant %lld, "
                "periodic %lld; 257x131x67 clamp %lld, constant %lld, periodic %lld; r3 p3 257x131x67 clamp %lld, constant %lld\n",
                vector_plane_differences<J3, Window>(cube_pitched, BoundaryKind::clamp),
                vector_plane_differences<J3, Window>(cube_pitched, BoundaryKind::constant),
                vector_plane_differences<J3, Window>(cube_pitched, BoundaryKind::periodic),
                vector_plane_differences<J3, Window>(odd, BoundaryKind::clamp),
                vector_plane_differences<J3, Window>(odd, BoundaryKind::constant),
                vector_plane_differences<J3, Window>(odd, BoundaryKind::periodic),
                vector_plane_differences<J3, WindowOdd>(odd, BoundaryKind::clamp),
                vector_plane_differences<J3, WindowOdd>(odd, BoundaryKind::constant));
    std::printf("vector-plane against plane-register, cells that differ: 512^3 clamp %lld, constant %lld, periodic %lld; "
                "257x131x67 clamp %lld, constant %lld; wide policy clamp %lld; 1 row 4 planes: clamp %lld, constant %lld, 512^3 %lld\n",
                vector_plane_differences<J3, Default>(cube_pitched, BoundaryKind::clamp),
                vector_plane_differences<J3, Default>(cube_pitched, BoundaryKind::constant),
                vector_plane_differences<J3, Default>(cube_pitched, BoundaryKind::periodic),
                vector_plane_differences<J3, Default>(odd, BoundaryKind::clamp),
                vector_plane_differences<J3, Default>(odd, BoundaryKind::constant),
                vector_plane_differences<J3, Wide>(odd, BoundaryKind::clamp),
                vector_plane_differences<J3, Small>(odd, BoundaryKind::clamp),
                vector_plane_differences<J3, Small>(odd, BoundaryKind::constant),
                vector_plane_differences<J3, Small>(cube_pitched, BoundaryKind::clamp));
  }
  {
    Domain cube_pitched = cube;
    cube_pitched.pitch = 516;
    Domain odd{{257, 131, 67}, {1, 1, 1}};  // blocks cut by every edge, rows 260 apart
    odd.pitch = 260;
    Domain odd_wide{{257, 131, 67}, {4, 4, 4}};  // a ghost of 4: periodic up to k = 4
    odd_wide.pitch = 268;
    using trapeze::BoundaryKind;
    using trapeze::cuda::VectorTrapezoidPolicy;
    using Default = trapeze::cuda::VectorTrapezoidDefaultPolicy::type;
    using Deep = VectorTrapezoidPolicy<8, 4, 16>;
    using Thin = VectorTrapezoidPolicy<32, 1, 64>;
    std::printf("vec-trapezoid against reg-trapezoid, cells that differ: 512^3 k3 clamp %lld, constant %lld; "
                "257x131x67 k2 clamp %lld, k3 clamp %lld, constant %lld, k4 clamp %lld, constant %lld; "
                "ghost 4 periodic k3 %lld, k4 %lld; t8 r4 p16 k3 clamp %lld, constant %lld; t32 r1 k3 clamp %lld, periodic %lld\n",
                vector_trapezoid_differences<J3, Default, 3>(cube_pitched, BoundaryKind::clamp),
                vector_trapezoid_differences<J3, Default, 3>(cube_pitched, BoundaryKind::constant),
                vector_trapezoid_differences<J3, Default, 2>(odd, BoundaryKind::clamp),
                vector_trapezoid_differences<J3, Default, 3>(odd, BoundaryKind::clamp),
                vector_trapezoid_differences<J3, Default, 3>(odd, BoundaryKind::constant),
                vector_trapezoid_differences<J3, Default, 4>(odd, BoundaryKind::clamp),
                vector_trapezoid_differences<J3, Default, 4>(odd, BoundaryKind::constant),
                vector_trapezoid_differences<J3, Default, 3>(odd_wide, BoundaryKind::periodic),
                vector_trapezoid_differences<J3, Default, 4>(odd_wide, BoundaryKind::periodic),
                vector_trapezoid_differences<J3, Deep, 3>(odd, BoundaryKind::clamp),
                vector_trapezoid_differences<J3, Deep, 3>(odd, BoundaryKind::constant),
                vector_trapezoid_differences<J3, Thin, 3>(odd, BoundaryKind::clamp),
                vector_trapezoid_differences<J3, Thin, 3>(odd_wide, BoundaryKind::periodic));
  }
  {
    Domain tiles{{16384, 16384, 1}, {2, 1, 0}};
    Domain odd{{4099, 1031, 1}, {1, 1, 0}};  // warps cut by every edge, rows 4104 apart
    odd.pitch = 4104;
    Domain odd_wide{{4099, 1031, 1}, {8, 8, 0}};  // a ghost of 8: periodic up to k = 8
    odd_wide.pitch = 4116;
    using trapeze::BoundaryKind;
    using Default = trapeze::cuda::RowVectorTrapezoidDefaultPolicy::type;
    using Narrow = trapeze::cuda::RowVectorTrapezoidPolicy<4, 64, 4, 1>;
    std::printf("row-vec-trapezoid against reg-trapezoid, cells that differ: 16384^2 k8 clamp %lld, constant %lld; "
                "4099x1031 k2 clamp %lld, constant %lld, k3 clamp %lld, k5 constant %lld, k8 clamp %lld, constant %lld; "
                "ghost 8 periodic k4 %lld, k8 %lld; w4 p64 b4 a1 k7 clamp %lld, constant %lld, periodic %lld\n",
                row_vector_trapezoid_differences<J2, Default, 8>(tiles, BoundaryKind::clamp),
                row_vector_trapezoid_differences<J2, Default, 8>(tiles, BoundaryKind::constant),
                row_vector_trapezoid_differences<J2, Default, 2>(odd, BoundaryKind::clamp),
                row_vector_trapezoid_differences<J2, Default, 2>(odd, BoundaryKind::constant),
                row_vector_trapezoid_differences<J2, Default, 3>(odd, BoundaryKind::clamp),
                row_vector_trapezoid_differences<J2, Default, 5>(odd, BoundaryKind::constant),
                row_vector_trapezoid_differences<J2, Default, 8>(odd, BoundaryKind::clamp),
                row_vector_trapezoid_differences<J2, Default, 8>(odd, BoundaryKind::constant),
                row_vector_trapezoid_differences<J2, Default, 4>(odd_wide, BoundaryKind::periodic),
                row_vector_trapezoid_differences<J2, Default, 8>(odd_wide, BoundaryKind::periodic),
                row_vector_trapezoid_differences<J2, Narrow, 7>(odd, BoundaryKind::clamp),
                row_vector_trapezoid_differences<J2, Narrow, 7>(odd, BoundaryKind::constant),
                row_vector_trapezoid_differences<J2, Narrow, 7>(odd_wide, BoundaryKind::periodic));
    std::printf("hotspot row-vec-trapezoid against reg-trapezoid, cells that differ: 4099x1031 k2 clamp %lld, k3 constant %lld, "
                "k8 clamp %lld, constant %lld; ghost 8 periodic k8 %lld; w4 p64 b4 a1 k5 clamp %lld\n",
                hotspot_row_vector_differences<Default, 2>(odd, BoundaryKind::clamp),
                hotspot_row_vector_differences<Default, 3>(odd, BoundaryKind::constant),
                hotspot_row_vector_differences<Default, 8>(odd, BoundaryKind::clamp),
                hotspot_row_vector_differences<Default, 8>(odd, BoundaryKind::constant),
                hotspot_row_vector_differences<Default, 8>(odd_wide, BoundaryKind::periodic),
                hotspot_row_vector_differences<Narrow, 5>(odd, BoundaryKind::clamp));
  }
  std::printf("kernels alone, copy bandwidth %.2f TB/s, roofline %.1f G cell updates/s (8 B per cell; life 2 B), %d rounds\n",
              bandwidth / 1e12, roofline / 1e9, rounds);
  std::printf("%-9s %-15s %-26s %3s | %8s %7s %7s %7s\n", "stencil", "kernel", "policy", "k", "GCUPS", "xroof",
              "min", "max");
  for (auto* set : {&variants2, &variants_life, &variants_hotspot, &variants3}) {
    for (const Variant& v : *set) {
      const auto [lo, hi] = std::minmax_element(v.fractions.begin(), v.fractions.end());
      const double m = bench::median(v.fractions);
      std::printf("%-9s %-15s %-26s %3d | %8.1f %7.3f %7.3f %7.3f %s\n", v.stencil.c_str(), v.kernel.c_str(),
                  v.policy.c_str(), v.k, m * v.roofline / 1e9, m, *lo, *hi, v.check.c_str());
    }
  }
  return 0;
}
