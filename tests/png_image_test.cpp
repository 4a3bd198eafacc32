// The PNG writer: a decoded image (libpng's own reader) equals the pixels
// written, the ramp's ends are the field's extremes, non-finite cells black.
#include <gtest/gtest.h>
#include <png.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "common/png_image.hpp"

namespace {

namespace fs = std::filesystem;

struct Decoded {
  png_uint_32 width = 0, height = 0;
  std::vector<unsigned char> rgb;
};

Decoded decode(const fs::path& file) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  Decoded d;
  if (!png_image_begin_read_from_file(&image, file.c_str())) {
    ADD_FAILURE() << "libpng cannot read " << file << ": " << image.message;
    return d;
  }
  image.format = PNG_FORMAT_RGB;
  d.width = image.width;
  d.height = image.height;
  d.rgb.resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, d.rgb.data(), 0, nullptr)) {
    ADD_FAILURE() << "libpng cannot decode " << file << ": " << image.message;
  }
  return d;
}

TEST(PngImage, DecodedImageEqualsThePixelsWritten) {
  const long width = 37, height = 23;
  std::vector<double> field(width * height);
  std::mt19937_64 engine(static_cast<unsigned>(std::random_device{}()));
  std::uniform_real_distribution<double> pick(-5.0, 7.0);
  for (double& v : field) v = pick(engine);
  field[5] = -10.0;   // the minimum: the ramp's first colour
  field[6] = 12.0;    // the maximum: its last
  field[7] = std::nan("");
  field[8] = INFINITY;
  const fs::path file = fs::temp_directory_path() / ("trapeze-png-" + std::to_string(getpid()) + ".png");
  apps::write_field_png(file.string(), field, width, height);
  const Decoded image = decode(file);
  fs::remove(file);
  ASSERT_EQ(image.width, static_cast<png_uint_32>(width));
  ASSERT_EQ(image.height, static_cast<png_uint_32>(height));
  EXPECT_TRUE(image.rgb == apps::field_pixels(field, width, height));
  auto pixel = [&](long i) { return std::vector<int>{image.rgb[3 * i], image.rgb[3 * i + 1], image.rgb[3 * i + 2]}; };
  EXPECT_EQ(pixel(5), (std::vector<int>{68, 1, 84}));
  EXPECT_EQ(pixel(6), (std::vector<int>{253, 231, 37}));
  EXPECT_EQ(pixel(7), (std::vector<int>{0, 0, 0}));
  EXPECT_EQ(pixel(8), (std::vector<int>{0, 0, 0}));
}

}  // namespace
