// Layout conversions on one GPU against its copy bandwidth (issue 10, seed
// 001: the DVMH run-time reaches 75-90% of a copy): the device-to-device copy
// (bytes read + written), then each conversion of codelets/cuda/layout_kernels.cuh
// (2-D transposition both ways, anti-diagonal and main-diagonal
// diagonalisation both ways, on a square and two rectangles; 3-D exchanges of
// x with y, x with z and y with z; seed 004's banded layout of wavefront
// tiles both ways), every variant once per round in turn,
// medians and spread, each as bytes moved (read + written) per second and as
// a fraction of the copy. Each variant's output is first checked bit for bit
// against the CPU reference on a smaller array of the same shape class. A
// table last, the same as JSON.
//
//   build/benchmarks/gpu_layouts [--rounds 5] [--json gpu_layouts.json]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "codelets/cuda/banded_layout_kernels.cuh"
#include "codelets/cuda/layout_kernels.cuh"
#include "gpu_plain_loop.hpp"
#include "gpu_timing.cuh"
#include "trapeze/banded_layout.hpp"
#include "trapeze/layout.hpp"

namespace {

using trapeze::Extent;
using trapeze::Index;
using trapeze::Layout2D;

const char* name_of(Layout2D l) {
  switch (l) {
    case Layout2D::row_major: return "row-major";
    case Layout2D::column_major: return "column-major";
    case Layout2D::anti_diagonal: return "anti-diagonal";
    case Layout2D::diagonal: return "diagonal";
  }
  return "?";
}

struct Variant {
  std::string what, shape;
  Index cells;
  std::function<void(const float*, float*)> launch;  // on stream 0
  std::function<bool()> check;                      // on a small array: equal to the CPU reference
  std::vector<double> seconds;
  std::string verdict;
};

std::vector<float> random_floats(std::size_t n, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = value(random);
  return v;
}

std::vector<float> on_device(const std::vector<float>& in, const std::function<void(const float*, float*)>& launch) {
  bench::DeviceBuffer<float> a(in.size()), b(in.size());
  TRAPEZE_CUDA_CHECK(cudaMemcpy(a.data, in.data(), sizeof(float) * in.size(), cudaMemcpyHostToDevice));
  TRAPEZE_CUDA_CHECK(cudaMemset(b.data, 0xA5, sizeof(float) * in.size()));
  launch(a.data, b.data);
  TRAPEZE_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<float> out(in.size());
  TRAPEZE_CUDA_CHECK(cudaMemcpy(out.data(), b.data, sizeof(float) * in.size(), cudaMemcpyDeviceToHost));
  return out;
}

// Tile shapes of the diagonal conversions other than the defaults (rows x diagonals).
enum class Tiles { default_shape, rows64_diagonals64, rows256_diagonals32, rows256_diagonals64, rows512_diagonals32,
                   rows128_diagonals128, rows256_diagonals64_diagonal_order };
const char* tiles_name(Tiles t) {
  switch (t) {
    case Tiles::default_shape: return "";
    case Tiles::rows64_diagonals64: return " (64x64)";
    case Tiles::rows256_diagonals32: return " (256x32)";
    case Tiles::rows256_diagonals64: return " (256x64)";
    case Tiles::rows512_diagonals32: return " (512x32)";
    case Tiles::rows128_diagonals128: return " (128x128)";
    case Tiles::rows256_diagonals64_diagonal_order: return " (256x64 d-order)";
  }
  return "";
}

Variant conversion(Layout2D from, Layout2D to, Index rows, Index columns, Tiles tiles = Tiles::default_shape) {
  auto convert = [=](const float* in, float* out, Index r, Index c) {
    const bool to_diagonal = from == Layout2D::row_major, mirror = from == Layout2D::diagonal || to == Layout2D::diagonal;
    namespace tc = trapeze::cuda;
    switch (tiles) {
      case Tiles::default_shape: tc::convert_layout_on_gpu(in, from, out, to, r, c, nullptr); break;
      case Tiles::rows64_diagonals64: tc::launch_diagonal_tiles<float, 64, 64>(in, out, to_diagonal, mirror, r, c, nullptr); break;
      case Tiles::rows256_diagonals32: tc::launch_diagonal_tiles<float, 256, 32>(in, out, to_diagonal, mirror, r, c, nullptr); break;
      case Tiles::rows256_diagonals64: tc::launch_diagonal_tiles<float, 256, 64>(in, out, to_diagonal, mirror, r, c, nullptr); break;
      case Tiles::rows512_diagonals32: tc::launch_diagonal_tiles<float, 512, 32>(in, out, to_diagonal, mirror, r, c, nullptr); break;
      case Tiles::rows128_diagonals128: tc::launch_diagonal_tiles<float, 128, 128>(in, out, to_diagonal, mirror, r, c, nullptr); break;
      case Tiles::rows256_diagonals64_diagonal_order:
        tc::launch_diagonal_tiles<float, 256, 64, true>(in, out, to_diagonal, mirror, r, c, nullptr);
        break;
    }
  };
  Variant v{std::string(name_of(from)) + " -> " + name_of(to) + tiles_name(tiles),
            std::to_string(rows) + "x" + std::to_string(columns), rows * columns,
            [=](const float* in, float* out) { convert(in, out, rows, columns); }, nullptr, {}, ""};
  // The same conversion on an array a 64th of the size, same aspect.
  const Index r = std::max<Index>(1, rows / 8 + 3), c = std::max<Index>(1, columns / 8 + 5);
  v.check = [=] {
    const auto row_major = random_floats(static_cast<std::size_t>(r * c), 3);
    std::vector<float> in(row_major.size()), expected(row_major.size());
    trapeze::convert_layout(row_major.data(), Layout2D::row_major, in.data(), from, r, c);
    trapeze::convert_layout(in.data(), from, expected.data(), to, r, c);
    const auto got = on_device(in, [=](const float* a, float* b) { convert(a, b, r, c); });
    return std::memcmp(got.data(), expected.data(), sizeof(float) * got.size()) == 0;
  };
  return v;
}

Variant exchange(const Extent& e, int a, int b) {
  Variant v{"swap dims " + std::to_string(a) + "," + std::to_string(b),
            std::to_string(e[0]) + "x" + std::to_string(e[1]) + "x" + std::to_string(e[2]), e[0] * e[1] * e[2],
            [=](const float* in, float* out) { trapeze::cuda::swap_dimensions_on_gpu(in, out, e, a, b, nullptr); }, nullptr, {}, ""};
  const Extent small{e[0] / 4 + 3, e[1] / 4 + 1, e[2] / 4 + 2};
  v.check = [=] {
    const auto in = random_floats(static_cast<std::size_t>(small[0] * small[1] * small[2]), 5);
    std::vector<float> expected(in.size());
    trapeze::swap_dimensions(in.data(), expected.data(), small, a, b);
    const auto got = on_device(in, [=](const float* x, float* y) { trapeze::cuda::swap_dimensions_on_gpu(x, y, small, a, b, nullptr); });
    return std::memcmp(got.data(), expected.data(), sizeof(float) * got.size()) == 0;
  };
  return v;
}

// Seed 004's banded layout of wavefront tiles (codelets/cuda/banded_layout_kernels.cuh),
// a tile of whole bands (no padding) to it or back, with lanes of `lane_rows`
// rows; `slots`: the columns a block converts (0: the codelets' default; 64 or 256).
template <bool ToBanded, int S>
void banded_with(const float* in, float* out, const trapeze::BandedLayout& l) {
  trapeze::cuda::launch_banded_conversion<float, ToBanded, S>(in, out, l.columns, l, nullptr);
}

Variant banded(bool to_banded, Index rows, Index columns, int lane_rows, int slots = 0) {
  const trapeze::BandedLayout layout{rows, columns, lane_rows};
  if (layout.cells() != rows * columns) {
    std::fprintf(stderr, "gpu_layouts: %lldx%lld is not whole bands of %d rows\n", static_cast<long long>(rows),
                 static_cast<long long>(columns), 32 * lane_rows);
    std::exit(2);
  }
  constexpr int default_slots = trapeze::cuda::banded_block_slots<float>;
  void (*convert)(const float*, float*, const trapeze::BandedLayout&) =
      slots == 64    ? (to_banded ? banded_with<true, 64> : banded_with<false, 64>)
      : slots == 256 ? (to_banded ? banded_with<true, 256> : banded_with<false, 256>)
                     : (to_banded ? banded_with<true, default_slots> : banded_with<false, default_slots>);
  Variant v{std::string(to_banded ? "row-major -> banded" : "banded -> row-major") + " L" + std::to_string(lane_rows) +
                (slots ? " S" + std::to_string(slots) : ""),
            std::to_string(rows) + "x" + std::to_string(columns), rows * columns,
            [=](const float* in, float* out) { convert(in, out, layout); }, nullptr, {}, ""};
  // A smaller tile of the same aspect with a short last band, every cell checked.
  const trapeze::BandedLayout small{rows / 8 + 3, columns / 8 + 5, lane_rows};
  v.check = [=] {
    const auto row_major = random_floats(static_cast<std::size_t>(small.rows * small.columns), 9);
    std::vector<float> bands(static_cast<std::size_t>(small.cells()), 0.0f);
    trapeze::to_banded(row_major.data(), small.columns, small, bands.data());
    const std::vector<float>& in = to_banded ? row_major : bands;
    std::vector<float> padded_in(bands.size());
    std::copy(in.begin(), in.end(), padded_in.begin());
    const auto got = on_device(padded_in, [=](const float* a, float* b) { convert(a, b, small); });
    for (Index r = 0; r < small.rows; ++r) {
      for (Index c = 0; c < small.columns; ++c) {
        const float want = row_major[static_cast<std::size_t>(r * small.columns + c)];
        const float have = got[static_cast<std::size_t>(to_banded ? small.index(r, c) : r * small.columns + c)];
        if (std::memcmp(&want, &have, sizeof(float)) != 0) return false;  // the padding is never compared
      }
    }
    return true;
  };
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 5;
  std::string json_path = "gpu_layouts.json";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--rounds" && i + 1 < argc) {
      char* end = nullptr;
      const long value = std::strtol(argv[++i], &end, 10);
      if (*end != '\0' || value < 1 || value > 99) {
        std::fprintf(stderr, "gpu_layouts: --rounds must be a whole number from 1 to 99, got '%s'\n", argv[i]);
        return 2;
      }
      rounds = static_cast<int>(value);
    } else if (arg == "--json" && i + 1 < argc) {
      json_path = argv[++i];
    } else {
      std::fprintf(stderr, "gpu_layouts: unexpected argument '%s' (it takes --rounds N and --json FILE)\n", arg.c_str());
      return 2;
    }
  }
  if (!bench::cuda_device_present()) {
    std::fprintf(stderr, "gpu_layouts: no CUDA device: this benchmark needs a GPU\n");
    return 1;
  }
  const double copy_bandwidth = bench::device_copy_bandwidth();  // bytes read + written per second
  std::vector<Variant> variants;
  for (const auto& [rows, columns] : std::vector<std::pair<Index, Index>>{{16384, 16384}, {4096, 65536}, {65536, 4096}}) {
    for (Layout2D other : {Layout2D::column_major, Layout2D::anti_diagonal, Layout2D::diagonal}) {
      variants.push_back(conversion(Layout2D::row_major, other, rows, columns));
      variants.push_back(conversion(other, Layout2D::row_major, rows, columns));
    }
  }
  // Other tile shapes and block orders against the defaults (to the diagonal
  // layout 128 x 64 in diagonal order, back 64 x 128), on the square and the
  // tall rectangle.
  for (const auto& [rows, columns] : std::vector<std::pair<Index, Index>>{{16384, 16384}, {65536, 4096}}) {
    for (Tiles t : {Tiles::rows64_diagonals64, Tiles::rows256_diagonals32, Tiles::rows256_diagonals64, Tiles::rows512_diagonals32,
                    Tiles::rows128_diagonals128, Tiles::rows256_diagonals64_diagonal_order}) {
      variants.push_back(conversion(Layout2D::row_major, Layout2D::anti_diagonal, rows, columns, t));
    }
    variants.push_back(conversion(Layout2D::anti_diagonal, Layout2D::row_major, rows, columns, Tiles::rows64_diagonals64));
  }
  for (auto [a, b] : {std::pair{0, 1}, std::pair{0, 2}, std::pair{1, 2}}) variants.push_back(exchange({640, 640, 640}, a, b));
  for (const auto& [rows, columns] : std::vector<std::pair<Index, Index>>{{16384, 16384}, {4096, 65536}, {65536, 4096}}) {
    for (int lane_rows : {8, 16}) {
      variants.push_back(banded(true, rows, columns, lane_rows));
      variants.push_back(banded(false, rows, columns, lane_rows));
    }
  }
  // The run a block converts, 64 and 256 slots against the default (128).
  for (int slots : {64, 256}) {
    variants.push_back(banded(true, 16384, 16384, 8, slots));
    variants.push_back(banded(false, 16384, 16384, 8, slots));
  }
  // TRAPEZE_LAYOUTS_ONLY=text[,text...]: the variants whose "conversion shape" holds one of them (for a profiler).
  if (const char* only = std::getenv("TRAPEZE_LAYOUTS_ONLY")) {
    std::vector<std::string> texts;
    for (std::string rest = only; !rest.empty();) {
      const auto comma = rest.find(',');
      texts.push_back(rest.substr(0, comma));
      rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
    }
    std::erase_if(variants, [&](const Variant& v) {
      const std::string name = v.what + " " + v.shape;
      return std::none_of(texts.begin(), texts.end(), [&](const std::string& t) { return !t.empty() && name.find(t) != std::string::npos; });
    });
  }
  for (Variant& v : variants) v.verdict = v.check() ? "equal" : "DIFFERS";
  Index most = 0;
  for (const Variant& v : variants) most = std::max(most, v.cells);
  bench::DeviceBuffer<float> in(static_cast<std::size_t>(most)), out(static_cast<std::size_t>(most));
  {
    const auto values = random_floats(static_cast<std::size_t>(most), 7);
    TRAPEZE_CUDA_CHECK(cudaMemcpy(in.data, values.data(), sizeof(float) * values.size(), cudaMemcpyHostToDevice));
  }
  for (int round = 0; round < rounds; ++round) {
    for (Variant& v : variants) {
      v.launch(in.data, out.data);  // warm-up
      bench::Event start, stop;
      constexpr int repeats = 5;
      TRAPEZE_CUDA_CHECK(cudaEventRecord(start.event));
      for (int r = 0; r < repeats; ++r) v.launch(in.data, out.data);
      TRAPEZE_CUDA_CHECK(cudaEventRecord(stop.event));
      v.seconds.push_back(bench::seconds_between(start, stop) / repeats);
    }
    std::fprintf(stderr, "round %d of %d\n", round + 1, rounds);
  }
  std::ofstream json(json_path);
  json << "{\"copy_bandwidth\": " << copy_bandwidth << ", \"rounds\": " << rounds << ", \"rows\": [\n";
  std::printf("layout conversions, float cells; copy bandwidth %.2f TB/s (read + write), %d rounds, medians\n",
              copy_bandwidth / 1e12, rounds);
  std::printf("%-30s %-15s %10s %9s %13s  %s\n", "conversion", "shape", "GB/s", "x copy", "min-max", "check");
  for (std::size_t k = 0; k < variants.size(); ++k) {
    const Variant& v = variants[k];
    const double bytes = 2.0 * sizeof(float) * static_cast<double>(v.cells);
    const auto [lo, hi] = std::minmax_element(v.seconds.begin(), v.seconds.end());
    const double rate = bytes / bench::median(v.seconds);
    std::printf("%-30s %-15s %10.1f %9.3f %6.3f-%-6.3f  %s\n", v.what.c_str(), v.shape.c_str(), rate / 1e9, rate / copy_bandwidth,
                bytes / *hi / copy_bandwidth, bytes / *lo / copy_bandwidth, v.verdict.c_str());
    json << "  {\"conversion\": \"" << v.what << "\", \"shape\": \"" << v.shape << "\", \"bytes_per_second\": " << rate
         << ", \"fraction_of_copy\": " << rate / copy_bandwidth << ", \"check\": \"" << v.verdict << "\"}"
         << (k + 1 < variants.size() ? ",\n" : "\n");
  }
  json << "]}\n";
  return std::all_of(variants.begin(), variants.end(), [](const Variant& v) { return v.verdict == "equal"; }) ? 0 : 1;
}
