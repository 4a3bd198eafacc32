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
  std::printf("%-10s chosen h %2d\n", name, h.height);
}
int main() {
  show("jacobi2d", jacobi2d_costs(), shape({1024, 1024, 1}, 2, {1024, 128, 1}, {1, 1, 0}, 4, 0, 256));
  show("hotspot", hotspot_costs(), shape({1024, 1024, 1}, 2, {1024, 128, 1}, {1, 1, 0}, 4, 1, 1000));
  show("life", life_costs(), shape({1024, 1024, 1}, 2, {1024, 128, 1}, {1, 1, 0}, 1, 0, 256));
  show("jacobi3d", jacobi3d_costs(), shape({96, 96, 96}, 3, {96, 96, 12}, {1, 1, 1}, 4, 0, 128));
  show("pathfinder", pathfinder_costs(), shape({100000, 1, 1}, 1, {12500, 1, 1}, {1, 0, 0}, 4, 1, 256));
}
