#pragma once
// The GPU side of benchmarks/gpu_wavefronts.cpp, compiled by nvcc in
// gpu_wavefront_kernels.cu: one Smith-Waterman pair on the device, scored by
// the PeerWave kernel or by the one-launch-per-wave baseline on the same
// hyper-tiles (codelets/cuda/wavefront_peerwave_kernel.cuh), timed with CUDA
// events (kernels alone: the sequences are on the device before the clock).
#include <cstdint>
#include <memory>
#include <vector>

#include "wavefronts/smith_waterman.hpp"

namespace bench {

class GpuAlignment {
 public:
  GpuAlignment(const std::vector<std::uint8_t>& query, const std::vector<std::uint8_t>& target);
  ~GpuAlignment();
  GpuAlignment(const GpuAlignment&) = delete;
  GpuAlignment& operator=(const GpuAlignment&) = delete;

  struct Outcome {
    double seconds;
    std::int32_t score;
  };
  // peerwave: one persistent launch; else a launch per wave of hyper-tiles.
  // lane_rows: 8 or 16 rows a lane (the two kernel sizes).
  Outcome score(const apps::SmithWaterman& w, int width, bool peerwave, int lane_rows);
  // Warps PeerWave keeps on the GPU at once at this width and lane size.
  int resident_warps(int width, int lane_rows) const;

  struct Buffers;

 private:
  std::unique_ptr<Buffers> buffers_;
};

}  // namespace bench
