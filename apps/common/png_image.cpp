#include "png_image.hpp"

#include <png.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <cstdio>

#include "text_io.hpp"
#include "trapeze/error.hpp"

namespace apps {

namespace {

// A perceptually ordered ramp (viridis, five stops); linear between stops.
std::array<unsigned char, 3> ramp(double t) {
  static constexpr double stops[5][3] = {
      {68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
  t = std::clamp(t, 0.0, 1.0) * 4.0;
  const int i = std::min(3, static_cast<int>(t));
  const double f = t - i;
  std::array<unsigned char, 3> rgb{};
  for (int c = 0; c < 3; ++c) {
    rgb[c] = static_cast<unsigned char>(stops[i][c] + f * (stops[i + 1][c] - stops[i][c]) + 0.5);
  }
  return rgb;
}

}  // namespace

std::vector<unsigned char> field_pixels(const std::vector<double>& values, long width, long height) {
  // The colour scale spans the finite values; NaN or infinite cells are drawn
  // black rather than indexing the ramp with an undefined position.
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const double v : values) {
    if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  }
  const double span = hi - lo > 0 ? hi - lo : 1.0;
  std::vector<unsigned char> pixels(static_cast<std::size_t>(3 * width * height));
  for (long i = 0; i < width * height; ++i) {
    const double v = values[static_cast<std::size_t>(i)];
    const auto rgb = std::isfinite(v) ? ramp((v - lo) / span) : std::array<unsigned char, 3>{0, 0, 0};
    std::copy(rgb.begin(), rgb.end(), pixels.begin() + 3 * i);
  }
  return pixels;
}

void write_field_png(const std::string& path, const std::vector<double>& values, long width, long height) {
  if (path.empty()) return;
  const std::vector<unsigned char> pixels = field_pixels(values, width, height);
  write_atomically(path, [&](std::FILE* f) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
      png_destroy_write_struct(&png, &info);
      throw trapeze::Error("libpng failed writing '" + path + "'");
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), 8,
                 PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (long y = 0; y < height; ++y) png_write_row(png, pixels.data() + 3 * y * width);
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
  });
}

}  // namespace apps
