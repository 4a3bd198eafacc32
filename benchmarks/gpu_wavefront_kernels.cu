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
        bands((rows + 32 * fewest - 1) / (32 * fewest)), query(q.size()), target(t.size()), top(t.size() + 1),
        left(q.size()), left_out(q.size()), progress(bands), ring(static_cast<std::size_t>(bands) * t.size()),
        states_fewer(static_cast<std::size_t>(bands) * 32), states_most(static_cast<std::size_t>(bands) * 32),
        lane_results(1 << 20), result(1) {
    TRAPEZE_CUDA_CHECK(cudaMemcpy(query.data, q.data(), q.size(), cudaMemcpyHostToDevice));
    TRAPEZE_CUDA_CHECK(cudaMemcpy(target.data, t.data(), t.size(), cudaMemcpyHostToDevice));
  }
  static constexpr int fewest = tc::wavefront_fewer_lane_rows<SmithWaterman>;
  static constexpr int most = tc::wavefront_most_lane_rows<SmithWaterman>;
  long rows, columns, bands;  // bands of the fewer rows a lane: enough for both sizes
  DeviceBuffer<std::uint8_t> query, target;
  DeviceBuffer<AlignmentCell> top, left, left_out;
  DeviceBuffer<int> progress;
  DeviceBuffer<AlignmentCell> ring;  // PeerWave's ring, or every band's last row for the baseline
  DeviceBuffer<tc::detail::LaneState<SmithWaterman, fewest>> states_fewer;
  DeviceBuffer<tc::detail::LaneState<SmithWaterman, most>> states_most;
  DeviceBuffer<std::int32_t> lane_results;
  DeviceBuffer<std::int32_t> result;
};

GpuAlignment::GpuAlignment(const std::vector<std::uint8_t>& query, const std::vector<std::uint8_t>& target)
    : buffers_(std::make_unique<Buffers>(query, target)) {}
GpuAlignment::~GpuAlignment() = default;

int GpuAlignment::resident_warps(int width, int lane_rows) const {
  return (lane_rows == Buffers::most ? tc::resident_wavefront_blocks<SmithWaterman, Buffers::most>(width)
                                     : tc::resident_wavefront_blocks<SmithWaterman, Buffers::fewest>(width)) *
         tc::wavefront_block_warps;
}

namespace {

template <int L>
void launch(const SmithWaterman& w, const tc::WavefrontTileDevice<SmithWaterman>& t, int width, bool peerwave,
            GpuAlignment::Buffers& b, tc::detail::LaneState<SmithWaterman, L>* states) {
  const tc::WavefrontHyperTiles h = tc::wavefront_hyper_tiles(b.rows, b.columns, width, L);
  const int blocks = std::min(tc::resident_wavefront_blocks<SmithWaterman, L>(width),
                              static_cast<int>((h.bands + tc::wavefront_block_warps - 1) / tc::wavefront_block_warps));
  if (peerwave) {
    tc::launch_wavefront_peerwave<SmithWaterman, L>(w, t, h, blocks, b.progress.data, b.ring.data,
                                                    tc::wavefront_ring_rows(h.bands, blocks), b.lane_results.data,
                                                    b.result.data, nullptr);
  } else {
    tc::launch_wavefront_waves<SmithWaterman, L>(w, t, h, b.ring.data, states, b.result.data, nullptr);
  }
}

}  // namespace

GpuAlignment::Outcome GpuAlignment::score(const SmithWaterman& w, int width, bool peerwave, int lane_rows) {
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
  Event start, stop;
  TRAPEZE_CUDA_CHECK(cudaEventRecord(start.event));
  if (lane_rows == Buffers::most) launch<Buffers::most>(w, t, width, peerwave, b, b.states_most.data);
  else launch<Buffers::fewest>(w, t, width, peerwave, b, b.states_fewer.data);
  TRAPEZE_CUDA_CHECK(cudaEventRecord(stop.event));
  const double seconds = seconds_between(start, stop);
  std::int32_t score = 0;
  TRAPEZE_CUDA_CHECK(cudaMemcpy(&score, b.result.data, sizeof score, cudaMemcpyDeviceToHost));
  return {seconds, score};
}

}  // namespace bench
