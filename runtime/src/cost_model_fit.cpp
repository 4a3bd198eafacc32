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

namespace {

// Non-negative least squares over the samples in `use` (dropping an unknown
// that comes out negative and solving again).
std::array<double, 2> fit_overheads(const std::vector<std::array<double, 2>>& rows, const std::vector<double>& y,
                                    const std::vector<bool>& use) {
  std::vector<std::array<double, 2>> kept_rows;
  std::vector<double> kept_y;
  for (std::size_t s = 0; s < rows.size(); ++s) {
    if (use[s]) kept_rows.push_back(rows[s]), kept_y.push_back(y[s]);
  }
  std::array<bool, 2> active{true, true};
  std::array<double, 2> x{};
  for (std::size_t round = 0; round < 2; ++round) {
    x = least_squares(kept_rows, kept_y, active);
    bool changed = false;
    for (std::size_t i = 0; i < 2; ++i) {
      if (active[i] && x[i] < 0) active[i] = false, changed = true;
    }
    if (!changed) break;
  }
  return x;
}

}  // namespace

CostModel fit_cost_model(const std::vector<ProfileSample>& samples, int workers, double seconds_per_cell,
                         const BandwidthCurve& bandwidth) {
  constexpr std::size_t unknowns = 2;  // per task, per ghost cell
  const double w = std::max(1, workers);
  std::vector<std::array<double, unknowns>> rows;
  std::vector<double> y, floors;
  std::array<double, unknowns> scale{};
  for (const ProfileSample& s : samples) {
    const double stages = static_cast<double>(s.stages);
    rows.push_back({stages * s.work.tasks / w, stages * s.work.ghost_cells / w});
    const double floor = stages * std::max(s.work.cells * seconds_per_cell / w, s.work.memory_seconds);
    floors.push_back(floor);
    y.push_back(std::max(0.0, s.seconds - floor));
    for (std::size_t i = 0; i < unknowns; ++i) scale[i] = std::max(scale[i], rows.back()[i]);
  }
  for (auto& row : rows) {
    for (std::size_t i = 0; i < unknowns; ++i) row[i] /= scale[i] > 0 ? scale[i] : 1;
  }
  // A sample another process slowed down (a shared machine) is an outlier.
  // Least squares bends towards it, so it need not be the sample the fit
  // misses most; instead each sample in turn is left out, and the fit that
  // predicts the others best is kept if it misses the left-out one by more
  // than a quarter of its time. Up to two samples, never below four.
  auto mean_error = [&](const std::array<double, unknowns>& fit, const std::vector<bool>& over) {
    double sum = 0;
    int count = 0;
    for (std::size_t s = 0; s < samples.size(); ++s) {
      if (!over[s] || samples[s].seconds <= 0) continue;
      const double predicted = floors[s] + std::max(0.0, fit[0]) * rows[s][0] + std::max(0.0, fit[1]) * rows[s][1];
      sum += std::fabs(predicted - samples[s].seconds) / samples[s].seconds;
      ++count;
    }
    return count ? sum / count : 0.0;
  };
  std::vector<bool> use(samples.size(), true);
  std::array<double, unknowns> x = fit_overheads(rows, y, use);
  for (int dropped = 0; dropped < 2 && static_cast<int>(samples.size()) - dropped > 4; ++dropped) {
    double best_error = mean_error(x, use);
    std::size_t best_left_out = samples.size();
    std::array<double, unknowns> best_fit = x;
    for (std::size_t s = 0; s < samples.size(); ++s) {
      if (!use[s]) continue;
      std::vector<bool> without = use;
      without[s] = false;
      const std::array<double, unknowns> fit = fit_overheads(rows, y, without);
      const double error = mean_error(fit, without);
      std::vector<bool> only(samples.size(), false);
      only[s] = true;
      if (error < best_error && mean_error(fit, only) > 0.25) best_error = error, best_left_out = s, best_fit = fit;
    }
    if (best_left_out == samples.size()) break;
    use[best_left_out] = false;
    x = best_fit;
  }
  CostModel model;
  model.seconds_per_task = std::max(0.0, x[0]) / (scale[0] > 0 ? scale[0] : 1);
  model.seconds_per_ghost_cell = std::max(0.0, x[1]) / (scale[1] > 0 ? scale[1] : 1);
  model.seconds_per_cell = seconds_per_cell;
  model.bandwidth = bandwidth;
  return model;
}

}  // namespace trapeze
