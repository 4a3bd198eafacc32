#include "gpu_plain_loop.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "codelets/cuda/cuda_check.cuh"
#include "codelets/cuda/stage_cuda.cuh"
#include "gpu_timing.cuh"
#include "trapeze/stencil_shape.hpp"
#include "stencils/hotspot.hpp"
#include "stencils/jacobi2d.hpp"
#include "stencils/jacobi3d.hpp"
#include "stencils/life.hpp"
#include "stencils/life_bits.hpp"
#include "stencils/life_byte_words.hpp"
#include "stencils/pathfinder.hpp"

namespace bench {

bool cuda_device_present() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

double device_copy_bandwidth() {
  const std::size_t bytes = std::size_t{4} << 30;
  DeviceBuffer<char> a(bytes), b(bytes);
  TRAPEZE_CUDA_CHECK(cudaMemset(a.data, 1, bytes));
  TRAPEZE_CUDA_CHECK(cudaMemset(b.data, 2, bytes));
  std::vector<double> rates;
  for (int i = 0; i < 12; ++i) {
    Event start, stop;
    TRAPEZE_CUDA_CHECK(cudaEventRecord(start.event));
    TRAPEZE_CUDA_CHECK(cudaMemcpyAsync(i % 2 ? a.data : b.data, i % 2 ? b.data : a.data, bytes, cudaMemcpyDeviceToDevice));
    TRAPEZE_CUDA_CHECK(cudaEventRecord(stop.event));
    const double seconds = seconds_between(start, stop);
    if (i >= 2) rates.push_back(2.0 * static_cast<double>(bytes) / seconds);
  }
  return median(rates);
}

template <typename S>
double plain_loop_seconds(const S& stencil, const trapeze::Grid<typename S::value_type>& grid, long steps,
                          int repetitions) {
  using T = typename S::value_type;
  using trapeze::Index;
  // One buffer of the domain with a ghost ring of r: the kernel applies the
  // boundary where cells enter shared memory, so the ring is never read. In
  // x one cell wider where Trapeze's tiles are (rows of a multiple of 4 cells
  // for the 16-byte single step), so both run the same kernel.
  const trapeze::Extent n = grid.extent();
  const trapeze::Extent ghost = trapeze::gpu_tile_ghost(S::shape.radius, S::dims, sizeof(T), n[0], n[0],
                                                         grid.boundary().kind == trapeze::BoundaryKind::periodic);
  trapeze::Extent padded{1, 1, 1};
  for (int d = 0; d < 3; ++d) padded[d] = n[d] + 2 * ghost[d];
  const Index cells = trapeze::cell_count(padded);
  const int fields = trapeze::updated_fields_of<S>;
  std::vector<T> host(static_cast<std::size_t>(cells * fields));
  const Index planes = grid.constant_planes();
  std::vector<T> constants_host(static_cast<std::size_t>(cells * planes * grid.constant_count()));
  auto place = [&](const T* from, T* to) {
    for (Index z = 0; z < n[2]; ++z) {
      for (Index y = 0; y < n[1]; ++y) {
        std::copy_n(from + n[0] * (y + n[1] * z), n[0],
                    to + (z + ghost[2]) * padded[0] * padded[1] + (y + ghost[1]) * padded[0] + ghost[0]);
      }
    }
  };
  for (int f = 0; f < fields; ++f) place(grid.updated(f).data(), host.data() + f * cells);
  for (int c = 0; c < grid.constant_count(); ++c) {
    for (Index p = 0; p < planes; ++p) place(grid.constant(c).data() + p * grid.cells(), constants_host.data() + (c * planes + p) * cells);
  }
  DeviceBuffer<T> in(host.size()), out(host.size()), constants(constants_host.size());
  TRAPEZE_CUDA_CHECK(cudaMemcpy(constants.data, constants_host.data(), constants_host.size() * sizeof(T), cudaMemcpyHostToDevice));
  trapeze::cuda::LaunchGeometry g{};
  for (int d = 0; d < 3; ++d) {
    g.padded[d] = static_cast<int>(padded[d]);
    g.inside_lo[d] = g.region_lo[d] = static_cast<int>(ghost[d]);
    g.inside_hi[d] = g.region_hi[d] = static_cast<int>(ghost[d] + n[d]);
    g.radius[d] = static_cast<int>(S::shape.radius[d]);
  }
  g.padded_cells = cells;
  g.steps = 1;
  g.boundary = static_cast<int>(grid.boundary().kind);
  g.constant_planes = static_cast<int>(planes);
  g.constant_field_stride = planes * cells;
  std::vector<double> seconds;
  for (int r = 0; r < repetitions; ++r) {
    TRAPEZE_CUDA_CHECK(cudaMemcpy(in.data, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    T* a = in.data;
    T* b = out.data;
    TRAPEZE_CUDA_CHECK(cudaDeviceSynchronize());
    Event start, stop;
    TRAPEZE_CUDA_CHECK(cudaEventRecord(start.event));
    for (long step = 0; step < steps; ++step) {
      g.first_step = step;
      trapeze::cuda::launch_steps(stencil, a, b, grid.constant_count() ? constants.data : nullptr, g,
                                      static_cast<T>(grid.boundary().value), nullptr);
      TRAPEZE_CUDA_CHECK(cudaDeviceSynchronize());  // the global barrier
      std::swap(a, b);
    }
    TRAPEZE_CUDA_CHECK(cudaEventRecord(stop.event));
    seconds.push_back(seconds_between(start, stop));
  }
  return median(seconds);
}

template double plain_loop_seconds(const apps::Jacobi2D<float>&, const trapeze::Grid<float>&, long, int);
template double plain_loop_seconds(const apps::Jacobi3D<float>&, const trapeze::Grid<float>&, long, int);
template double plain_loop_seconds(const apps::Hotspot&, const trapeze::Grid<float>&, long, int);
template double plain_loop_seconds(const apps::Life&, const trapeze::Grid<std::uint8_t>&, long, int);
template double plain_loop_seconds(const apps::LifeBits&, const trapeze::Grid<std::uint32_t>&, long, int);
template double plain_loop_seconds(const apps::LifeByteWords&, const trapeze::Grid<std::uint32_t>&, long, int);
template double plain_loop_seconds(const apps::Pathfinder&, const trapeze::Grid<std::int32_t>&, long, int);

}  // namespace bench

// Trapeze's own CUDA codelets for the same stencils.
#include "trapeze/cuda_stencil.cuh"
TRAPEZE_CUDA_STENCIL(apps::Jacobi2D<float>)
TRAPEZE_CUDA_STENCIL(apps::Jacobi3D<float>)
TRAPEZE_CUDA_STENCIL(apps::Hotspot)
TRAPEZE_CUDA_STENCIL(apps::Life)
TRAPEZE_CUDA_STENCIL(apps::LifeBits)
TRAPEZE_CUDA_STENCIL(apps::LifeByteWords)
TRAPEZE_CUDA_STENCIL(apps::Pathfinder)
