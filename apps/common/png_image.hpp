#pragma once
// A picture of a 2-D field (or a 1-D row, drawn as a strip): values mapped
// linearly from [min, max] onto a dark-blue to yellow colour ramp.
#include <string>
#include <vector>

namespace apps {

void write_field_png(const std::string& path, const std::vector<double>& values, long width, long height);

}  // namespace apps
