// Session 32: which out-of-core plans the GPU model picks, with ghost zones
// filled in host memory (no strip bytes, a stage task a third of the cap),
// at the transfer rate the apps used (starpu_transfer_predict, which doubles
// a one-GPU transfer: 26.8 GB/s on the H100) and at the bus calibration's
// own rate (starpu_transfer_bandwidth: 53.6 GB/s). Profile: session 31's
// H100 (models.inc). Build as in ../../ooc-scratch-tiles-2026-11-28/offline/README.md.
#include <cstdio>
#include <vector>
#include "trapeze/gpu_height_model.hpp"
using namespace trapeze;
#include "models.inc"
void pick(const char* app, const GpuCostModel& m, Index steps, double cap_mib, double stream_bpc, double dev_bpc,
          double rate, std::vector<std::pair<Extent, int>> plans) {
  GpuShape s;
  s.domain = {16384, 16384, 1}; s.dims = 2; s.radius = {1, 1, 0}; s.steps = steps;
  s.stream_bytes_per_cell = stream_bpc; s.stream_seconds_per_byte = 1 / rate;
  s.task_device_budget = cap_mib * 1048576 / 3; s.device_bytes_per_cell = dev_bpc; s.strip_bytes_per_cell = 0;
  const double tile_budget = cap_mib * 1048576 / 8;
  std::vector<Extent> tiles, halvings{s.domain};
  while (double(halvings.back()[0]) * halvings.back()[1] * dev_bpc > tile_budget) {
    Extent x = halvings.back(); int l = x[1] >= x[0] ? 1 : 0; x[l] = (x[l] + 1) / 2; halvings.push_back(x);
  }
  for (int i = (int)halvings.size() - 1; i >= 0 && tiles.size() <= 2; --i) tiles.push_back(halvings[i]);
  const auto c = choose_out_of_core_gpu_tile(m, s, tiles);
  std::printf("%s at %.1f GB/s: picks %lldx%lld H%d k%d, predicted %.4f s\n", app, rate / 1e9, (long long)c.tile[0],
              (long long)c.tile[1], c.heights.height, c.heights.kernel_height, c.heights.predicted_seconds_per_step * steps);
  for (auto [tile, h] : plans) {
    s.tile = tile;
    const auto best = choose_gpu_heights(m, s, h);
    std::printf("   %lldx%lld H%d: predicted %.4f s\n", (long long)tile[0], (long long)tile[1], h,
                best.predicted_seconds_per_step * steps);
  }
}
int main() {
  for (double rate : {26.8e9, 53.6e9}) {
    pick("cip", cip_model(), 256, 1280, 20, 32, rate, {{{4096, 2048, 1}, 86}, {{4096, 2048, 1}, 128}, {{4096, 2048, 1}, 256}});
    pick("jacobi2d", jacobi2d_model(), 512, 256, 4, 8, rate, {{{4096, 2048, 1}, 96}, {{4096, 2048, 1}, 128}, {{4096, 2048, 1}, 180}});
  }
}
