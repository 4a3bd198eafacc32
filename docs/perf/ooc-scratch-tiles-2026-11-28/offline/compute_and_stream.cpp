#include <cstdio>
#include "trapeze/gpu_height_model.hpp"
using namespace trapeze;
#include "models.inc"
// Prints compute and stream seconds (whole run) for a plan.
void plan(const char* app, const GpuCostModel& m, Extent tile, int H, int k, Index steps, double stream_bpc, double measured) {
  GpuShape s;
  s.domain = {16384, 16384, 1}; s.dims = 2; s.tile = tile; s.radius = {1, 1, 0}; s.steps = steps;
  const double compute = predict_gpu_seconds_per_step(m, s, H, k) * steps;
  s.stream_bytes_per_cell = stream_bpc; s.stream_seconds_per_byte = 1 / 53.6e9;
  const double both = predict_gpu_seconds_per_step(m, s, H, k) * steps;
  const Index tiles = (16384 / tile[0]) * (16384 / tile[1]);
  std::printf("%s %lldx%lld H%d k%d tiles %lld stages %lld compute %.4f stream %.4f measured %.4f\n", app, (long long)tile[0], (long long)tile[1], H, k,
              (long long)tiles, (long long)((steps + H - 1) / H), compute, both - compute, measured);
}
int main() {
  const auto c = cip_model(), j = jacobi2d_model();
  // call 3 (H100): CIP 256 steps cap 1280
  plan("cip", c, {16384, 16384, 1}, 4, 2, 256, 0, 1.5713);
  plan("cip", c, {2048, 2048, 1}, 256, 2, 256, 20, 1.8335);
  plan("cip", c, {2048, 2048, 1}, 128, 2, 256, 20, 1.6738);
  plan("cip", c, {4096, 2048, 1}, 86, 2, 256, 20, 1.5426);
  plan("cip", c, {4096, 2048, 1}, 64, 2, 256, 20, 1.6451);
  plan("cip", c, {4096, 2048, 1}, 32, 2, 256, 20, 1.7743);
  // call 1 (H100): jacobi2d 512 steps cap 256
  plan("j2d", j, {16384, 16384, 1}, 24, 12, 512, 0, 0.3067);
  plan("j2d", j, {2048, 2048, 1}, 264, 12, 512, 4, 0.4337);
  plan("j2d", j, {2048, 2048, 1}, 180, 12, 512, 4, 0.4234);
  plan("j2d", j, {2048, 2048, 1}, 108, 12, 512, 4, 0);
  plan("j2d", j, {4096, 2048, 1}, 96, 12, 512, 4, 0.4230);
  plan("j2d", j, {4096, 2048, 1}, 64, 12, 512, 4, 0);
}
