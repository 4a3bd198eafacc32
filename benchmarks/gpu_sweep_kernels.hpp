#pragma once
// The GPU side of benchmarks/gpu_sweeps.cpp, compiled by nvcc in
// gpu_sweep_kernels.cu: a square grid on the device with its boundary, swept
// by the PeerWave kernel or by the one-launch-per-wave baseline
// (codelets/cuda/sweep_peerwave_kernel.cuh, sweep_wave_kernel.cuh), timed
// with CUDA events.
#include <memory>
#include <string>
#include <vector>

#include "wavefronts/heat_2d.hpp"
#include "wavefronts/over_relaxation.hpp"

namespace bench {

struct GpuSweepGrid {
  explicit GpuSweepGrid(long n);
  ~GpuSweepGrid();
  GpuSweepGrid(const GpuSweepGrid&) = delete;
  GpuSweepGrid& operator=(const GpuSweepGrid&) = delete;

  // The cells and the boundary of the sweep that follows.
  void load(const std::vector<double>& cells, const apps::OverRelaxation& sweep);
  void load(const std::vector<double>& cells, const apps::Heat2D& sweep);
  // `count` sweeps, `per_launch` at a time by PeerWave (0: by the
  // one-launch-per-wave baseline); the seconds they took on the GPU.
  double sweep(const apps::OverRelaxation& sweep, int per_launch, int width, long count);
  double sweep(const apps::Heat2D& sweep, int per_launch, int width, long count);
  std::vector<double> cells() const;

  struct Buffers;
  std::unique_ptr<Buffers> buffers;
  long n;
};

// Bytes read + written per second by a device-to-device copy of `bytes`.
double device_copy_bandwidth(std::size_t bytes);
std::string device_name();
int device_multiprocessors();

}  // namespace bench
