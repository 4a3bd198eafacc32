#pragma once
// The problem's data on the host: a structured domain, the fields a stencil
// updates, its read-only fields, and the boundary condition.
//
// While a StencilRun advances it, a grid's values live in the run's tiles (on
// whichever device computes them) and the grid's own pages are given back:
// the host holds about one copy of the domain. StencilRun::wait() fills the
// grid again; read the fields only between wait() and the next submit().
//
// A grid made by Grid::generated() never holds the domain at all: a run's
// scatter tasks ask its row source for the initial values of each tile, and
// wait() hands each tile's final rows to its row sink. The host then keeps
// one copy of the domain (the tiles) instead of two, which is what lets a
// domain larger than half the host's memory run (out-of-core on a GPU).
#include <functional>
#include <memory>
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

// Rows of a generated grid (Grid::generated). Both are called from several
// CPU workers at once, for disjoint rows, and must be thread-safe.
template <typename T>
struct GridRows {
  // Writes `count` initial values of one field starting at cell (x, y, z),
  // along x. `field` counts the updated fields first, then each read-only
  // field's planes: updated_count() + c * constant_planes() + plane.
  std::function<void(int field, Index x, Index y, Index z, Index count, T* out)> initial;
  // Receives `count` final values of updated field `field` from (x, y, z) along x.
  std::function<void(int field, Index x, Index y, Index z, Index count, const T* values)> final;
};

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
    updated_count_ = updated_fields, constant_count_ = constant_fields;
    for (int f = 0; f < updated_fields; ++f) updated_.emplace_back(static_cast<std::size_t>(cell_count(extent_)));
    for (int c = 0; c < constant_fields; ++c) {
      constant_.emplace_back(static_cast<std::size_t>(cell_count(extent_) * constant_planes));
    }
  }

  // A grid without storage: its values come from rows.initial when a run
  // starts and go to rows.final when the run's wait() ends it.
  static Grid generated(const Extent& extent, int dims, int updated_fields, int constant_fields,
                        Index constant_planes, Boundary boundary, GridRows<T> rows) {
    if (!rows.initial || !rows.final) throw Error("a generated grid needs both an initial and a final row function");
    Grid grid(extent, dims, boundary, constant_planes);
    if (updated_fields < 1) throw Error("updated field count must be >= 1, got " + std::to_string(updated_fields));
    if (constant_fields < 0) throw Error("constant field count must be >= 0, got " + std::to_string(constant_fields));
    if (constant_planes < 1) throw Error("constant planes must be >= 1, got " + std::to_string(constant_planes));
    grid.updated_count_ = updated_fields, grid.constant_count_ = constant_fields;
    grid.rows_ = std::make_shared<const GridRows<T>>(std::move(rows));
    return grid;
  }
  // Whether the values live only in a run's tiles (Grid::generated).
  bool is_generated() const { return rows_ != nullptr; }
  const GridRows<T>& rows() const {
    if (!rows_) throw Error("this grid holds its values; only a generated grid has row functions");
    return *rows_;
  }

  const Extent& extent() const { return extent_; }
  int dims() const { return dims_; }
  Index cells() const { return cell_count(extent_); }
  const Boundary& boundary() const { return boundary_; }
  void set_boundary(const Boundary& boundary) { boundary_ = boundary; }
  int updated_count() const { return updated_count_; }
  int constant_count() const { return constant_count_; }
  Index constant_planes() const { return constant_planes_; }
  // Read-only values a cell, every plane of every read-only field (what a
  // tile's read-only handle holds a cell: trapeze::choose_gpu_tile).
  double read_only_elements_per_cell() const {
    return static_cast<double>(constant_count_) * static_cast<double>(constant_planes_);
  }

  FieldBuffer<T>& updated(int f = 0) { return stored(updated_, f); }
  const FieldBuffer<T>& updated(int f = 0) const { return stored(updated_, f); }
  FieldBuffer<T>& constant(int c) { return stored(constant_, c); }
  const FieldBuffer<T>& constant(int c) const { return stored(constant_, c); }

  Index linear(Index x, Index y = 0, Index z = 0) const {
    return x + extent_[0] * (y + extent_[1] * z);
  }

 private:
  Grid(const Extent& extent, int dims, Boundary boundary, Index constant_planes)
      : extent_(checked_domain(extent, dims)), dims_(dims), boundary_(boundary), constant_planes_(constant_planes) {}

  template <typename Fields>
  auto& stored(Fields& fields, int i) const {
    if (rows_) throw Error("a generated grid holds no values: they live in the run's tiles and leave through its row sink");
    return fields.at(static_cast<std::size_t>(i));
  }

  Extent extent_;
  int dims_;
  Boundary boundary_;
  Index constant_planes_;
  int updated_count_ = 0, constant_count_ = 0;
  std::shared_ptr<const GridRows<T>> rows_;  // generated grids only
  std::vector<FieldBuffer<T>> updated_;
  std::vector<FieldBuffer<T>> constant_;
};

}  // namespace trapeze
