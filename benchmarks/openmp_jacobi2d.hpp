#pragma once
// The plain baseline: a 5-point Jacobi sweep as one OpenMP parallel loop over
// rows, clamp boundary through a one-cell ring refreshed each step. This is the
// code a user would write by hand; Trapeze has to match it.
#include <algorithm>
#include <utility>
#include <vector>

namespace bench {

class OpenMPJacobi2D {
 public:
  OpenMPJacobi2D(long nx, long ny, const std::vector<float>& initial)
      : nx_(nx), ny_(ny), px_(nx + 2), a_((nx + 2) * (ny + 2)), b_(a_.size()) {
    for (long y = 0; y < ny; ++y) std::copy_n(initial.data() + y * nx, nx, a_.data() + (y + 1) * px_ + 1);
  }

  void run(long steps) {
    for (long s = 0; s < steps; ++s) {
      refresh_ring(a_);
      const float* in = a_.data();
      float* out = b_.data();
      const long px = px_, nx = nx_;
#pragma omp parallel for schedule(static)
      for (long y = 1; y <= ny_; ++y) {
        const float* c = in + y * px;
        float* o = out + y * px;
        for (long x = 1; x <= nx; ++x) {
          o[x] = 0.2f * (c[x] + c[x - 1] + c[x + 1] + c[x - px] + c[x + px]);
        }
      }
      std::swap(a_, b_);
    }
  }

  float at(long x, long y) const { return a_[(y + 1) * px_ + x + 1]; }

 private:
  void refresh_ring(std::vector<float>& v) const {
    for (long y = 1; y <= ny_; ++y) {
      v[y * px_] = v[y * px_ + 1];
      v[y * px_ + nx_ + 1] = v[y * px_ + nx_];
    }
    std::copy_n(v.data() + px_, px_, v.data());
    std::copy_n(v.data() + ny_ * px_, px_, v.data() + (ny_ + 1) * px_);
  }

  long nx_, ny_, px_;
  std::vector<float> a_, b_;
};

}  // namespace bench
