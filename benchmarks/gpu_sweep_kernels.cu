#include "gpu_sweep_kernels.hpp"

#include <cuda_runtime.h>

#include <algorithm>

#include "codelets/cuda/sweep_peerwave_kernel.cuh"
#include "codelets/cuda/sweep_wave_kernel.cuh"
#include "gpu_timing.cuh"

namespace bench {

namespace tc = trapeze::cuda;

struct GpuSweepGrid::Buffers {
  explicit Buffers(long n)
      : cells(static_cast<std::size_t>(n) * static_cast<std::size_t>(n)), up(n), left(n), down(n), right(n),
        progress(static_cast<std::size_t>(n / 32 + 1) * max_sweeps_per_launch) {}
  static constexpr std::size_t max_sweeps_per_launch = 64;
  DeviceBuffer<double> cells, up, left, down, right;
  DeviceBuffer<int> progress;
};

GpuSweepGrid::GpuSweepGrid(long n) : buffers(std::make_unique<Buffers>(n)), n(n) {}
GpuSweepGrid::~GpuSweepGrid() = default;

namespace {

template <typename S>
void load_grid(GpuSweepGrid& g, const std::vector<double>& cells, const S& sweep) {
  std::vector<double> u(g.n), l(g.n), d(g.n), r(g.n);
  for (long k = 0; k < g.n; ++k) {
    u[k] = sweep.boundary(-1, k);
    d[k] = sweep.boundary(g.n, k);
    l[k] = sweep.boundary(k, -1);
    r[k] = sweep.boundary(k, g.n);
  }
  GpuSweepGrid::Buffers& b = *g.buffers;
  for (auto [to, from] : {std::pair{b.up.data, &u}, {b.left.data, &l}, {b.down.data, &d}, {b.right.data, &r}}) {
    TRAPEZE_CUDA_CHECK(cudaMemcpy(to, from->data(), sizeof(double) * g.n, cudaMemcpyHostToDevice));
  }
  TRAPEZE_CUDA_CHECK(cudaMemcpy(b.cells.data, cells.data(), sizeof(double) * cells.size(), cudaMemcpyHostToDevice));
}

template <typename S>
double sweep_grid(GpuSweepGrid& g, const S& sweep, int per_launch, int width, long count) {
  GpuSweepGrid::Buffers& b = *g.buffers;
  const tc::SweepTile<double> tile{b.cells.data, g.n, g.n, g.n, 0, 0, b.up.data, b.left.data, b.down.data, b.right.data};
  const tc::HyperTiles h = tc::hyper_tiles(g.n, g.n, width);
  const int resident = tc::resident_peerwave_blocks<S>(width);
  const long step = std::min<long>(per_launch, GpuSweepGrid::Buffers::max_sweeps_per_launch);
  Event start, stop;
  TRAPEZE_CUDA_CHECK(cudaEventRecord(start.event));
  for (long t = 0; t < count;) {
    if (per_launch > 0) {
      const long now = std::min(step, count - t);
      tc::launch_sweep_peerwave(sweep, tile, h, static_cast<int>(now), b.progress.data, resident, nullptr);
      t += now;
    } else {
      tc::launch_sweep_waves(sweep, tile, h, nullptr);
      ++t;
    }
  }
  TRAPEZE_CUDA_CHECK(cudaEventRecord(stop.event));
  return seconds_between(start, stop);
}

}  // namespace

void GpuSweepGrid::load(const std::vector<double>& cells, const apps::OverRelaxation& sweep) { load_grid(*this, cells, sweep); }
void GpuSweepGrid::load(const std::vector<double>& cells, const apps::Heat2D& sweep) { load_grid(*this, cells, sweep); }
double GpuSweepGrid::sweep(const apps::OverRelaxation& s, int per_launch, int width, long count) {
  return sweep_grid(*this, s, per_launch, width, count);
}
double GpuSweepGrid::sweep(const apps::Heat2D& s, int per_launch, int width, long count) {
  return sweep_grid(*this, s, per_launch, width, count);
}

std::vector<double> GpuSweepGrid::cells() const {
  std::vector<double> out(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
  TRAPEZE_CUDA_CHECK(cudaMemcpy(out.data(), buffers->cells.data, sizeof(double) * out.size(), cudaMemcpyDeviceToHost));
  return out;
}

double device_copy_bandwidth(std::size_t bytes) {
  DeviceBuffer<char> a(bytes), b(bytes);
  std::vector<double> seconds;
  for (int r = 0; r < 7; ++r) {
    Event start, stop;
    TRAPEZE_CUDA_CHECK(cudaEventRecord(start.event));
    TRAPEZE_CUDA_CHECK(cudaMemcpy(b.data, a.data, bytes, cudaMemcpyDeviceToDevice));
    TRAPEZE_CUDA_CHECK(cudaEventRecord(stop.event));
    seconds.push_back(seconds_between(start, stop));
  }
  return 2.0 * static_cast<double>(bytes) / median(seconds);
}

std::string device_name() {
  int device = 0;
  cudaDeviceProp p{};
  TRAPEZE_CUDA_CHECK(cudaGetDevice(&device));
  TRAPEZE_CUDA_CHECK(cudaGetDeviceProperties(&p, device));
  return p.name;
}

int device_multiprocessors() {
  int device = 0, sms = 0;
  TRAPEZE_CUDA_CHECK(cudaGetDevice(&device));
  TRAPEZE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms;
}

}  // namespace bench
