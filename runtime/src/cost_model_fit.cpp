#include <array>
#include <cmath>
#include <vector>

#include "trapeze/height_profile.hpp"

namespace trapeze {

namespace {

// Solves the normal equations of min |A x - y| over the active columns only.
template <std::size_t N>
std::array<double, N> least_squares(const std::vector<std::array<double, N>>& rows, const std::vector<double>& y,
                                    const std::array<bool, N>& active) {
  std::array<std::array<double, N + 1>, N> m{};
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (std::size_t i = 0; i < N; ++i) {
      for (std::size_t j = 0; j < N; ++j) m[i][j] += rows[r][i] * rows[r][j];
      m[i][N] += rows[r][i] * y[r];
    }
  }
  for (std::size_t i = 0; i < N; ++i) {
    if (!active[i]) {  // pin the unknown to zero
      m[i].fill(0);
      m[i][i] = 1;
      for (std::size_t k = 0; k < N; ++k) {
        if (k != i) m[k][i] = 0;
      }
    }
  }
  // Gauss-Jordan with partial pivoting; columns are scaled to comparable size by the caller.
  for (std::size_t c = 0; c < N; ++c) {
    std::size_t pivot = c;
    for (std::size_t r = c + 1; r < N; ++r) {
      if (std::fabs(m[r][c]) > std::fabs(m[pivot][c])) pivot = r;
    }
    std::swap(m[c], m[pivot]);
    if (std::fabs(m[c][c]) < 1e-30) continue;
    for (std::size_t r = 0; r < N; ++r) {
      if (r == c) continue;
      const double f = m[r][c] / m[c][c];
      for (std::size_t k = c; k <= N; ++k) m[r][k] -= f * m[c][k];
    }
  }
  std::array<double, N> x{};
  for (std::size_t i = 0; i < N; ++i) x[i] = std::fabs(m[i][i]) < 1e-30 ? 0 : m[i][N] / m[i][i];
  return x;
}

}  // namespace

CostModel fit_cost_model(const std::vector<ProfileSample>& samples, int workers, double seconds_per_cell,
                         const BandwidthCurve& bandwidth) {
  constexpr std::size_t unknowns = 2;  // per task, per ghost cell
  const double w = std::max(1, workers);
  std::vector<std::array<double, unknowns>> rows;
  std::vector<double> y;
  std::array<double, unknowns> scale{};
  for (const ProfileSample& s : samples) {
    const double stages = static_cast<double>(s.stages);
    rows.push_back({stages * s.work.tasks / w, stages * s.work.ghost_cells / w});
    const double floor = stages * std::max(s.work.cells * seconds_per_cell / w, s.work.memory_seconds);
    y.push_back(std::max(0.0, s.seconds - floor));
    for (std::size_t i = 0; i < unknowns; ++i) scale[i] = std::max(scale[i], rows.back()[i]);
  }
  for (auto& row : rows) {
    for (std::size_t i = 0; i < unknowns; ++i) row[i] /= scale[i] > 0 ? scale[i] : 1;
  }
  std::array<bool, unknowns> active{true, true};
  std::array<double, unknowns> x{};
  for (std::size_t round = 0; round < unknowns; ++round) {
    x = least_squares(rows, y, active);
    bool changed = false;
    for (std::size_t i = 0; i < unknowns; ++i) {
      if (active[i] && x[i] < 0) active[i] = false, changed = true;
    }
    if (!changed) break;
  }
  CostModel model;
  model.seconds_per_task = std::max(0.0, x[0]) / (scale[0] > 0 ? scale[0] : 1);
  model.seconds_per_ghost_cell = std::max(0.0, x[1]) / (scale[1] > 0 ? scale[1] : 1);
  model.seconds_per_cell = seconds_per_cell;
  model.bandwidth = bandwidth;
  return model;
}

}  // namespace trapeze
