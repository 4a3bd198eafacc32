#pragma once
// The problem's data on the host: a structured domain, the fields a stencil
// updates, its read-only fields, and the boundary condition.
//
// While a StencilRun advances it, a grid's values live in the run's tiles (on
// whichever device computes them) and the grid's own pages are given back:
// the host holds about one copy of the domain. StencilRun::wait() fills the
// grid again; read the fields only between wait() and the next submit().
#include <string>
#include <vector>

#include "trapeze/field_buffer.hpp"

#include "trapeze/boundary.hpp"
#include "trapeze/error.hpp"
#include "trapeze/geometry.hpp"
#include "trapeze/memory_limits.hpp"

namespace trapeze {

// Checks a domain extent and returns it padded to three dimensions.
Extent checked_domain(const Extent& extent, int dims);

template <typename T>
class Grid {
 public:
  // `constant_planes` > 1 makes the read-only fields time-varying: the update of
  // step t reads plane t (PathFinder's wall rows).
  Grid(const Extent& extent, int dims, int updated_fields, int constant_fields = 0,
       Index constant_planes = 1, Boundary boundary = Boundary::clamp())
      : extent_(checked_domain(extent, dims)), dims_(dims), boundary_(boundary),
        constant_planes_(constant_planes) {
    if (updated_fields < 1) throw Error("updated field count must be >= 1, got " + std::to_string(updated_fields));
    if (constant_fields < 0) throw Error("constant field count must be >= 0, got " + std::to_string(constant_fields));
    if (constant_planes < 1) throw Error("constant planes must be >= 1, got " + std::to_string(constant_planes));
    // In doubles: the product may pass 2^64 where the domain's cells did not.
    const double bytes = static_cast<double>(cell_count(extent_)) * sizeof(T) *
                         (updated_fields + static_cast<double>(constant_fields) * static_cast<double>(constant_planes));
    check_fits_in_memory(bytes, "a " + to_string(extent_, dims) + " grid's fields",
                         "choose a smaller size" + std::string(constant_planes > 1 ? " or fewer steps" : ""));
    for (int f = 0; f < updated_fields; ++f) updated_.emplace_back(static_cast<std::size_t>(cell_count(extent_)));
    for (int c = 0; c < constant_fields; ++c) {
      constant_.emplace_back(static_cast<std::size_t>(cell_count(extent_) * constant_planes));
    }
  }

  const Extent& extent() const { return extent_; }
  int dims() const { return dims_; }
  Index cells() const { return cell_count(extent_); }
  const Boundary& boundary() const { return boundary_; }
  void set_boundary(const Boundary& boundary) { boundary_ = boundary; }
  int updated_count() const { return static_cast<int>(updated_.size()); }
  int constant_count() const { return static_cast<int>(constant_.size()); }
  Index constant_planes() const { return constant_planes_; }

  FieldBuffer<T>& updated(int f = 0) { return updated_.at(f); }
  const FieldBuffer<T>& updated(int f = 0) const { return updated_.at(f); }
  FieldBuffer<T>& constant(int c) { return constant_.at(c); }
  const FieldBuffer<T>& constant(int c) const { return constant_.at(c); }

  Index linear(Index x, Index y = 0, Index z = 0) const {
    return x + extent_[0] * (y + extent_[1] * z);
  }

 private:
  Extent extent_;
  int dims_;
  Boundary boundary_;
  Index constant_planes_;
  std::vector<FieldBuffer<T>> updated_;
  std::vector<FieldBuffer<T>> constant_;
};

}  // namespace trapeze
