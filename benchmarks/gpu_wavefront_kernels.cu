#include "gpu_wavefront_kernels.hpp"

#include <cuda_runtime.h>

#include <algorithm>

#include "codelets/cuda/wavefront_peerwave_kernel.cuh"
#include "gpu_timing.cuh"

namespace bench {

namespace tc = trapeze::cuda;
using apps::AlignmentCell;
using apps::SmithWaterman;

struct GpuAlignment::Buffers {
  Buffers(const std::vector<std::uint8_t>& q, const std::vector<std::uint8_t>& t)
      : rows(static_cast<long>(q.size())), columns(static_cast<long>(t.size())),
        bands((rows + tc::wavefront_band_rows<SmithWaterman> - 1) / tc::wavefront_band_rows<SmithWaterman>), query(q.size()), target(t.size()), top(t.size() + 1), left(q.size()),
        left_out(q.size()), progress(bands), ring(static_cast<std::size_t>(bands) * t.size()),
        states(static_cast<std::size_t>(bands) * 32), lane_results(1 << 20), result(1) {
    TRAPEZE_CUDA_CHECK(cudaMemcpy(query.data, q.data(), q.size(), cudaMemcpyHostToDevice));
    TRAPEZE_CUDA_CHECK(cudaMemcpy(target.data, t.data(), t.size(), cudaMemcpyHostToDevice));
  }
  long rows, columns, bands;
  DeviceBuffer<std::uint8_t> query, target;
  DeviceBuffer<AlignmentCell> top, left, left_out;
  DeviceBuffer<int> progress;
  DeviceBuffer<AlignmentCell> ring;  // PeerWave's ring, or every band's last row for the baseline
  DeviceBuffer<tc::detail::LaneState<SmithWaterman>> states;
  DeviceBuffer<std::int32_t> lane_results;
  DeviceBuffer<std::int32_t> result;
};

GpuAlignment::GpuAlignment(const std::vector<std::uint8_t>& query, const std::vector<std::uint8_t>& target)
    : buffers_(std::make_unique<Buffers>(query, target)) {}
GpuAlignment::~GpuAlignment() = default;

int GpuAlignment::resident_warps(int width) const {
  return tc::resident_wavefront_blocks<SmithWaterman>(width) * tc::wavefront_block_warps;
}

GpuAlignment::Outcome GpuAlignment::score(const SmithWaterman& w, int width, bool peerwave) {
  Buffers& b = *buffers_;
  // The wavefront's boundary: row and column -1.
  const std::vector<AlignmentCell> top(static_cast<std::size_t>(b.columns) + 1, w.boundary(-1, 0));
  const std::vector<AlignmentCell> left(static_cast<std::size_t>(b.rows), w.boundary(0, -1));
  TRAPEZE_CUDA_CHECK(cudaMemcpy(b.top.data, top.data(), sizeof(AlignmentCell) * top.size(), cudaMemcpyHostToDevice));
  TRAPEZE_CUDA_CHECK(cudaMemcpy(b.left.data, left.data(), sizeof(AlignmentCell) * left.size(), cudaMemcpyHostToDevice));
  TRAPEZE_CUDA_CHECK(cudaMemset(b.result.data, 0, sizeof(std::int32_t)));
  tc::WavefrontTileDevice<SmithWaterman> t;
  t.rows = b.rows;
  t.columns = b.columns;
  t.top = b.top.data;
  t.left = b.left.data;
  t.left_out = b.left_out.data;
  t.row_inputs = b.query.data;
  t.column_inputs = b.target.data;
  const tc::WavefrontHyperTiles h = tc::wavefront_hyper_tiles<SmithWaterman>(b.rows, b.columns, width);
  const int blocks = std::min(tc::resident_wavefront_blocks<SmithWaterman>(width),
                              static_cast<int>((b.bands + tc::wavefront_block_warps - 1) / tc::wavefront_block_warps));
  Event start, stop;
  TRAPEZE_CUDA_CHECK(cudaEventRecord(start.event));
  if (peerwave) {
    tc::launch_wavefront_peerwave(w, t, h, blocks, b.progress.data, b.ring.data, tc::wavefront_ring_rows(h.bands, blocks),
                                  b.lane_results.data, b.result.data, nullptr);
  } else {
    tc::launch_wavefront_waves(w, t, h, b.ring.data, b.states.data, b.result.data, nullptr);
  }
  TRAPEZE_CUDA_CHECK(cudaEventRecord(stop.event));
  const double seconds = seconds_between(start, stop);
  std::int32_t score = 0;
  TRAPEZE_CUDA_CHECK(cudaMemcpy(&score, b.result.data, sizeof score, cudaMemcpyDeviceToHost));
  return {seconds, score};
}

}  // namespace bench
