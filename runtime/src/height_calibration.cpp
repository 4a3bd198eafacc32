#include "trapeze/height_calibration.hpp"

#include <cstdlib>
#include <string>

#include "trapeze/error.hpp"

namespace trapeze {

bool heights_measured_from_environment() {
  const char* text = std::getenv("TRAPEZE_MEASURE_HEIGHTS");
  if (!text || !*text) return true;
  const std::string value = text;
  if (value == "1") return true;
  if (value == "0") return false;
  throw InvalidArgument("TRAPEZE_MEASURE_HEIGHTS must be 1 (measure heights on small domains) or 0 (the model alone), got '" +
                        value + "'");
}

}  // namespace trapeze
