#include <cstdio>
#include <vector>
#include "trapeze/gpu_height_model.hpp"
using namespace trapeze;
#include "models.inc"
void pick(const char* app, const GpuCostModel& m, Index steps, double cap_mib, double stream_bpc, double dev_bpc, double strip_bpc) {
  GpuShape s;
  s.domain = {16384, 16384, 1}; s.dims = 2; s.radius = {1, 1, 0}; s.steps = steps;
  s.stream_bytes_per_cell = stream_bpc; s.stream_seconds_per_byte = 1 / 26.8e9;
  s.task_device_budget = 0.25 * cap_mib * 1048576; s.device_bytes_per_cell = dev_bpc; s.strip_bytes_per_cell = strip_bpc;
  const double tile_budget = cap_mib * 1048576 / 8;
  std::vector<Extent> tiles;
  Extent t = s.domain;
  std::vector<Extent> halvings{t};
  while (double(halvings.back()[0]) * halvings.back()[1] * dev_bpc > tile_budget) {
    Extent x = halvings.back(); int l = x[1] >= x[0] ? 1 : 0; x[l] = (x[l] + 1) / 2; halvings.push_back(x);
  }
  for (int i = (int)halvings.size() - 1; i >= 0 && tiles.size() <= 2; --i) tiles.push_back(halvings[i]);
  const auto c = choose_out_of_core_gpu_tile(m, s, tiles);
  std::printf("%s: %lldx%lld H%d k%d predicted %.4f s\n", app, (long long)c.tile[0], (long long)c.tile[1], c.heights.height, c.heights.kernel_height, c.heights.predicted_seconds_per_step * steps);
  for (const Extent& x : tiles) { s.tile = x; auto h = choose_gpu_heights(m, s); std::printf("   %lldx%lld best H%d k%d %.4f\n", (long long)x[0], (long long)x[1], h.height, h.kernel_height, h.predicted_seconds_per_step * steps); }
}
int main() {
  pick("cip", cip_model(), 256, 1280, 20, 32, 12);
  pick("j2d", jacobi2d_model(), 512, 256, 4, 8, 4);
  pick("j2d 2048 steps", jacobi2d_model(), 2048, 256, 4, 8, 4);
}
