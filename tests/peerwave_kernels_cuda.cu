#include "peerwave_kernels_cuda.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <memory>

#include "codelets/cuda/sweep_peerwave_kernel.cuh"

namespace trapeze_test {

namespace {

struct DeviceFree {
  void operator()(void* p) const { cudaFree(p); }
};

template <typename T>
std::unique_ptr<T, DeviceFree> device_copy(const std::vector<T>& host, std::size_t count) {
  T* data = nullptr;
  TRAPEZE_CUDA_CHECK(cudaMalloc(&data, std::max<std::size_t>(1, count) * sizeof(T)));
  std::unique_ptr<T, DeviceFree> owned(data);
  if (!host.empty()) TRAPEZE_CUDA_CHECK(cudaMemcpy(data, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return owned;
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
  auto d_cells = device_copy(cells, cells.size());
  auto d_up = device_copy(up, up.size()), d_down = device_copy(down, down.size());
  auto d_left = device_copy(left, left.size()), d_right = device_copy(right, right.size());
  auto d_progress = device_copy(std::vector<int>{}, static_cast<std::size_t>(per_launch) * h.bands);
  const tc::SweepTile<double> tile{d_cells.get(), columns, rows, columns, 0, 0,
                                   d_up.get(), d_left.get(), d_down.get(), d_right.get()};
  const int resident = tc::resident_peerwave_blocks<apps::OverRelaxation>(width);
  for (int done = 0; done < sweeps; done += per_launch) {
    tc::launch_sweep_peerwave(sweep, tile, h, std::min(per_launch, sweeps - done), d_progress.get(), resident, nullptr);
  }
  if (const cudaError_t e = cudaDeviceSynchronize(); e != cudaSuccess) return cudaGetErrorString(e);
  TRAPEZE_CUDA_CHECK(cudaMemcpy(cells.data(), d_cells.get(), cells.size() * sizeof(double), cudaMemcpyDeviceToHost));
  return "";
}

}  // namespace trapeze_test
