#include "peerwave_kernels_cuda.hpp"

#include <cuda_runtime.h>

#include <algorithm>

#include "codelets/cuda/sweep_peerwave_kernel.cuh"
#include "device_buffer.cuh"

namespace trapeze_test {

namespace {

template <typename T>
tests::Device<T> device_copy(const std::vector<T>& host) {
  tests::Device<T> device(host.size());
  TRAPEZE_CUDA_CHECK(cudaMemcpy(device.data, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return device;
}

}  // namespace

std::string peerwave_sweeps(const apps::OverRelaxation& sweep, std::vector<double>& cells, long rows, long columns,
                            int width, int sweeps, int per_launch) {
  namespace tc = trapeze::cuda;
  std::vector<double> up(columns), down(columns), left(rows), right(rows);
  for (long c = 0; c < columns; ++c) {
    up[c] = sweep.boundary(-1, c);
    down[c] = sweep.boundary(rows, c);
  }
  for (long r = 0; r < rows; ++r) {
    left[r] = sweep.boundary(r, -1);
    right[r] = sweep.boundary(r, columns);
  }
  const tc::HyperTiles h = tc::hyper_tiles(rows, columns, width);
  const tests::Device<double> d_cells = device_copy(cells), d_up = device_copy(up), d_down = device_copy(down),
                              d_left = device_copy(left), d_right = device_copy(right);
  const tests::Device<int> d_progress(static_cast<std::size_t>(per_launch) * h.bands);
  const tc::SweepTile<double> tile{d_cells.data, columns, rows, columns, 0, 0, d_up.data, d_left.data, d_down.data, d_right.data};
  const int resident = tc::resident_peerwave_blocks<apps::OverRelaxation>(width);
  for (int done = 0; done < sweeps; done += per_launch) {
    tc::launch_sweep_peerwave(sweep, tile, h, std::min(per_launch, sweeps - done), d_progress.data, resident, nullptr);
  }
  if (const cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) return cudaGetErrorString(e);
  TRAPEZE_CUDA_CHECK(cudaMemcpy(cells.data(), d_cells.data, cells.size() * sizeof(double), cudaMemcpyDeviceToHost));
  return "";
}

}  // namespace trapeze_test
