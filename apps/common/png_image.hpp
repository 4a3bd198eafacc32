#pragma once
// A picture of a 2-D field (or a 1-D row, drawn as a strip): values mapped
// linearly from [min, max] onto a dark-blue to yellow colour ramp.
#include <string>
#include <vector>

namespace apps {

// The picture's pixels, RGB row by row from the first row of the field: the
// finite values' range spans the ramp, non-finite cells are black.
std::vector<unsigned char> field_pixels(const std::vector<double>& values, long width, long height);

// Writes field_pixels() as an 8-bit RGB PNG, whole or not at all.
void write_field_png(const std::string& path, const std::vector<double>& values, long width, long height);

}  // namespace apps
