#pragma once
// Fields as HDF5 files, readable by h5dump and h5py: one dataset per field,
// named after it, shaped slowest dimension first ([z][y][x]; a time-varying
// read-only field gets a leading plane dimension), each carrying the
// attributes step, stencil, boundary and extent (cells per dimension, x
// first). A file is written to a temporary name in its directory and renamed:
// it appears whole or not at all.
#include <cstdint>
#include <string>
#include <vector>

#include "trapeze/geometry.hpp"
#include "trapeze/grid.hpp"

namespace apps {

// Element types a field may have in a file.
enum class FieldType { f32, f64, i32, u8, u32, u64 };

template <typename T>
constexpr FieldType field_type_of() {
  if constexpr (std::is_same_v<T, float>) return FieldType::f32;
  else if constexpr (std::is_same_v<T, double>) return FieldType::f64;
  else if constexpr (std::is_same_v<T, std::int32_t>) return FieldType::i32;
  else if constexpr (std::is_same_v<T, std::uint32_t>) return FieldType::u32;
  else if constexpr (std::is_same_v<T, std::uint64_t>) return FieldType::u64;
  else {
    static_assert(std::is_same_v<T, std::uint8_t>, "no HDF5 type for this element type");
    return FieldType::u8;
  }
}

// One field's values in memory: `planes` planes of the domain, contiguous.
struct FieldView {
  std::string name;
  FieldType type;
  const void* data;
  trapeze::Index planes;  // 1 for an ordinary field
};

struct FieldFileAttributes {
  trapeze::Index step = 0;
  std::string stencil;
  std::string boundary;
};

// Whether `path` names an HDF5 file by its extension (.h5 or .hdf5).
bool is_hdf5_path(const std::string& path);

void write_fields_hdf5(const std::string& path, const trapeze::Extent& extent, int dims,
                       const std::vector<FieldView>& fields, const FieldFileAttributes& attributes);

// The extent of field `name` in the file (x first), checked to have `dims`
// dimensions (plus a plane dimension when planes > 1).
trapeze::Extent read_field_extent_hdf5(const std::string& path, const std::string& name, int dims);

struct FieldTarget {
  std::string name;
  FieldType type;
  void* data;
  trapeze::Index planes;  // planes to read: the file may hold more, not fewer
};

// Fills each target from its dataset (extent, type and planes checked;
// floating-point values must be finite) and returns the file's attributes.
FieldFileAttributes read_fields_hdf5(const std::string& path, const trapeze::Extent& extent, int dims,
                                     const std::vector<FieldTarget>& fields);

// The grid's fields under the given names (updated fields first, then the
// read-only ones).
template <typename T>
std::vector<FieldView> field_views(const trapeze::Grid<T>& grid, const std::vector<std::string>& updated_names,
                                   const std::vector<std::string>& constant_names) {
  std::vector<FieldView> views;
  for (int f = 0; f < grid.updated_count(); ++f) {
    views.push_back({updated_names.at(f), field_type_of<T>(), grid.updated(f).data(), 1});
  }
  for (int c = 0; c < grid.constant_count(); ++c) {
    views.push_back({constant_names.at(c), field_type_of<T>(), grid.constant(c).data(), grid.constant_planes()});
  }
  return views;
}

template <typename T>
std::vector<FieldTarget> field_targets(trapeze::Grid<T>& grid, const std::vector<std::string>& updated_names,
                                       const std::vector<std::string>& constant_names) {
  std::vector<FieldTarget> targets;
  for (int f = 0; f < grid.updated_count(); ++f) {
    targets.push_back({updated_names.at(f), field_type_of<T>(), grid.updated(f).data(), 1});
  }
  for (int c = 0; c < grid.constant_count(); ++c) {
    targets.push_back({constant_names.at(c), field_type_of<T>(), grid.constant(c).data(), grid.constant_planes()});
  }
  return targets;
}

}  // namespace apps
