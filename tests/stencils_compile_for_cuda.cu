// Compile-only check: every app's point update is callable from a CUDA kernel.
#include "stencils/hotspot.hpp"
#include "stencils/jacobi2d.hpp"
#include "stencils/jacobi3d.hpp"
#include "stencils/life.hpp"
#include "stencils/pathfinder.hpp"

template <typename S>
__global__ void update_one(S stencil, const typename S::value_type* in, typename S::value_type* out, long stride_y,
                           long stride_z, long cells) {
  const long i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= cells) return;
  const trapeze::Neighbourhood<typename S::value_type> at{in + i, stride_y, stride_z, cells, in + i, cells, 0};
  trapeze::apply_update(stencil, at, out + i, cells);
}

template __global__ void update_one<apps::Jacobi2D<float>>(apps::Jacobi2D<float>, const float*, float*, long, long, long);
template __global__ void update_one<apps::Jacobi2D<double>>(apps::Jacobi2D<double>, const double*, double*, long, long, long);
template __global__ void update_one<apps::Jacobi3D<float>>(apps::Jacobi3D<float>, const float*, float*, long, long, long);
template __global__ void update_one<apps::Life>(apps::Life, const std::uint8_t*, std::uint8_t*, long, long, long);
template __global__ void update_one<apps::Hotspot>(apps::Hotspot, const float*, float*, long, long, long);
template __global__ void update_one<apps::Pathfinder>(apps::Pathfinder, const std::int32_t*, std::int32_t*, long, long, long);
