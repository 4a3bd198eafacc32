#include <cmath>
#include <string>

#include "trapeze/boundary.hpp"
#include "trapeze/error.hpp"
#include "trapeze/geometry.hpp"
#include "trapeze/grid.hpp"
#include "trapeze/plan.hpp"

namespace trapeze {

std::string to_string(const Extent& extent, int dims) {
  std::string s;
  for (int d = 0; d < dims; ++d) {
    if (d > 0) s.push_back('x');
    s.append(std::to_string(extent[d]));
  }
  return s;
}

std::string quoted(std::string_view text) {
  constexpr std::size_t max_shown = 60;
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < max_shown; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out.push_back(static_cast<char>(c));
    } else {
      static constexpr char hex[] = "0123456789abcdef";
      out += "\\x";
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  if (text.size() > max_shown) out += "...";
  return out;
}

RuntimeError::RuntimeError(const std::string& what_failed, int code)
    : Error("StarPU: " + what_failed + " failed with code " + std::to_string(code)) {}

Extent checked_domain(const Extent& extent, int dims) {
  static constexpr const char* axis_name[max_dims] = {"x", "y", "z"};
  if (dims < 1 || dims > max_dims) {
    throw InvalidArgument("dimension count must be 1, 2 or 3, got " + std::to_string(dims));
  }
  Extent e{1, 1, 1};
  Index cells = 1;
  for (int d = 0; d < dims; ++d) {
    if (extent[d] <= 0) {
      throw InvalidArgument("domain size in " + std::string(axis_name[d]) + " must be > 0, got " +
                            std::to_string(extent[d]));
    }
    e[d] = extent[d];
    // Cell counts, offsets and byte counts are 64-bit: a domain whose cells
    // do not fit would wrap (2^32 x 2^32 cells counted as 0).
    if (__builtin_mul_overflow(cells, extent[d], &cells)) {
      throw InvalidArgument("domain size " + to_string(extent, dims) + " has more cells than 2^63 (a 64-bit count)");
    }
  }
  return e;
}

Boundary parse_boundary(std::string_view text) {
  if (text == "clamp") return Boundary::clamp();
  if (text == "periodic") return Boundary::periodic();
  if (text == "constant") return Boundary::constant(0.0);
  if (text.starts_with("constant:")) {
    const std::string value(text.substr(9));
    try {
      std::size_t used = 0;
      const double v = std::stod(value, &used);
      if (used == value.size() && std::isfinite(v)) return Boundary::constant(v);
    } catch (const std::exception&) {
    }
    throw InvalidArgument("boundary constant must be a finite number, got '" + quoted(value) + "'");
  }
  throw InvalidArgument("boundary must be clamp, periodic, constant or constant:V, got '" + quoted(text) + "'");
}

std::string to_string(const Boundary& boundary) {
  switch (boundary.kind) {
    case BoundaryKind::clamp: return "clamp";
    case BoundaryKind::periodic: return "periodic";
    case BoundaryKind::constant: return "constant:" + std::to_string(boundary.value);
  }
  return "?";
}

TrapezoidMode parse_trapezoid_mode(std::string_view text) {
  if (text == "shrink") return TrapezoidMode::shrink;
  if (text == "full") return TrapezoidMode::full;
  throw InvalidArgument("trapezoid mode must be shrink or full, got '" + quoted(text) + "'");
}

std::string to_string(TrapezoidMode mode) { return mode == TrapezoidMode::shrink ? "shrink" : "full"; }

}  // namespace trapeze

namespace trapeze {

StageDevices parse_stage_devices(std::string_view text) {
  if (text == "auto") return StageDevices::automatic;
  if (text == "cpu") return StageDevices::cpu;
  if (text == "gpu") return StageDevices::gpu;
  if (text == "all") return StageDevices::all;
  throw InvalidArgument("devices must be auto, cpu, gpu or all, got '" + quoted(text) + "'");
}

WavefrontLayout parse_wavefront_layout(std::string_view text) {
  if (text == "auto") return WavefrontLayout::automatic;
  if (text == "row") return WavefrontLayout::row_major;
  if (text == "banded") return WavefrontLayout::banded;
  throw InvalidArgument("layout must be auto, row or banded, got '" + quoted(text) + "'");
}

std::string to_string(WavefrontLayout layout) {
  switch (layout) {
    case WavefrontLayout::automatic: return "auto";
    case WavefrontLayout::row_major: return "row";
    case WavefrontLayout::banded: return "banded";
  }
  return "?";
}

std::string to_string(StageDevices devices) {
  switch (devices) {
    case StageDevices::automatic: return "auto";
    case StageDevices::cpu: return "cpu";
    case StageDevices::gpu: return "gpu";
    case StageDevices::all: return "all";
  }
  return "?";
}

}  // namespace trapeze
