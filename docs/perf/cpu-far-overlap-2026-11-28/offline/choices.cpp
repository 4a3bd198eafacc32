// The CPU height model's choices from this VM's profiles (profiles.inc):
// far beyond the cache with the predicted curve, then in cache.
#include <cstdio>
#include "trapeze/height_model.hpp"
using namespace trapeze;
#include "profiles.inc"
ModelShape shape(Extent domain, int dims, Extent tile, Extent radius, int bytes, int constants, Index steps) {
  ModelShape s; s.domain = domain; s.dims = dims; s.tile = tile; s.radius = radius; s.element_bytes = bytes;
  s.updated_fields = 1; s.constant_fields = constants; s.workers = 2; s.steps = steps; return s;
}
void show(const char* name, const CostModel& c, const ModelShape& s) {
  const HeightChoice h = choose_height(c, s);
  std::printf("%-19s chosen h %2d |", name, h.height);
  for (int k : {1, 2, 4, 6, 8, 12, 16, 24, 31, 32}) if (k <= max_useful_height(s)) std::printf(" %d:%.4f", k, predict_seconds_per_step(c, s, k) * 1e3);
  std::printf(" (ms/step)\n");
}
int main() {
  show("jacobi2d", jacobi2d_costs(), shape({16384, 16384, 1}, 2, {16384, 2048, 1}, {1, 1, 0}, 4, 0, 32));
  show("hotspot", hotspot_costs(), shape({16384, 16384, 1}, 2, {16384, 2048, 1}, {1, 1, 0}, 4, 1, 32));
  show("life", life_costs(), shape({32768, 32768, 1}, 2, {32768, 4096, 1}, {1, 1, 0}, 1, 0, 32));
  show("jacobi3d", jacobi3d_costs(), shape({512, 512, 512}, 3, {512, 512, 64}, {1, 1, 1}, 4, 0, 16));
  show("pathfinder", pathfinder_costs(), shape({16777216, 1, 1}, 1, {2097152, 1, 1}, {1, 0, 0}, 4, 1, 32));
  // In cache: --height auto measures candidates around these choices.

  show("in-cache jacobi2d", jacobi2d_costs(), shape({1024, 1024, 1}, 2, {1024, 128, 1}, {1, 1, 0}, 4, 0, 256));
  show("in-cache hotspot", hotspot_costs(), shape({1024, 1024, 1}, 2, {1024, 128, 1}, {1, 1, 0}, 4, 1, 1000));
  show("in-cache life", life_costs(), shape({1024, 1024, 1}, 2, {1024, 128, 1}, {1, 1, 0}, 1, 0, 256));
  show("in-cache jacobi3d", jacobi3d_costs(), shape({96, 96, 96}, 3, {96, 96, 12}, {1, 1, 1}, 4, 0, 128));
  show("in-cache pathfinder", pathfinder_costs(), shape({100000, 1, 1}, 1, {12500, 1, 1}, {1, 0, 0}, 4, 1, 256));
}
