#include "hdf5_fields.hpp"

#include <hdf5.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <utility>

#include "trapeze/error.hpp"

namespace apps {

namespace {

// Owns one HDF5 identifier and closes it with the matching function.
class Id {
 public:
  Id(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Id() {
    if (id_ >= 0) close_(id_);
  }
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

// HDF5 prints its own error stack on stderr by default; ours is one line.
void silence_hdf5() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

hid_t native_type(FieldType type) {
  switch (type) {
    case FieldType::f32: return H5T_NATIVE_FLOAT;
    case FieldType::f64: return H5T_NATIVE_DOUBLE;
    case FieldType::i32: return H5T_NATIVE_INT32;
    case FieldType::u8: return H5T_NATIVE_UINT8;
    case FieldType::u32: return H5T_NATIVE_UINT32;
    case FieldType::u64: return H5T_NATIVE_UINT64;
  }
  return H5T_NATIVE_FLOAT;
}

const char* type_name(FieldType type) {
  switch (type) {
    case FieldType::f32: return "32-bit float";
    case FieldType::f64: return "64-bit float";
    case FieldType::i32: return "32-bit integer";
    case FieldType::u8: return "8-bit unsigned integer";
    case FieldType::u32: return "32-bit unsigned integer";
    case FieldType::u64: return "64-bit unsigned integer";
  }
  return "?";
}

// Slowest dimension first, planes (when more than one) before z.
std::vector<hsize_t> file_shape(const trapeze::Extent& extent, int dims, trapeze::Index planes) {
  std::vector<hsize_t> shape;
  if (planes > 1) shape.push_back(static_cast<hsize_t>(planes));
  for (int d = dims - 1; d >= 0; --d) shape.push_back(static_cast<hsize_t>(extent[d]));
  return shape;
}

void check(herr_t status, const std::string& what) {
  if (status < 0) throw trapeze::Error(what);
}

void write_string_attribute(hid_t object, const char* name, const std::string& value) {
  Id type(H5Tcopy(H5T_C_S1), H5Tclose);
  check(H5Tset_size(type.get(), value.size() + 1), "H5Tset_size");  // with its terminating NUL
  Id space(H5Screate(H5S_SCALAR), H5Sclose);
  Id attribute(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!attribute.valid()) throw trapeze::Error(std::string("cannot create attribute ") + name);
  check(H5Awrite(attribute.get(), type.get(), value.c_str()), std::string("cannot write attribute ") + name);
}

void write_int_attributes(hid_t object, const char* name, const std::vector<std::int64_t>& values, bool scalar) {
  const hsize_t count = values.size();
  Id space(scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &count, nullptr), H5Sclose);
  Id attribute(H5Acreate2(object, name, H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  if (!attribute.valid()) throw trapeze::Error(std::string("cannot create attribute ") + name);
  check(H5Awrite(attribute.get(), H5T_NATIVE_INT64, values.data()), std::string("cannot write attribute ") + name);
}

std::string read_string_attribute(hid_t object, const char* name) {
  if (H5Aexists(object, name) <= 0) return {};
  Id attribute(H5Aopen(object, name, H5P_DEFAULT), H5Aclose);
  Id type(H5Aget_type(attribute.get()), H5Tclose);
  if (H5Tget_class(type.get()) != H5T_STRING || H5Tis_variable_str(type.get()) > 0) return {};
  std::string value(H5Tget_size(type.get()), '\0');
  Id memory_type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(memory_type.get(), value.size());
  if (H5Aread(attribute.get(), memory_type.get(), value.data()) < 0) return {};
  value.resize(value.find('\0') == std::string::npos ? value.size() : value.find('\0'));
  return value;
}

bool is_finite_everywhere(FieldType type, const void* data, std::size_t count, std::size_t& first_bad) {
  auto scan = [&](const auto* values) {
    for (std::size_t i = 0; i < count; ++i) {
      if (!std::isfinite(values[i])) {
        first_bad = i;
        return false;
      }
    }
    return true;
  };
  if (type == FieldType::f32) return scan(static_cast<const float*>(data));
  if (type == FieldType::f64) return scan(static_cast<const double*>(data));
  return true;
}

}  // namespace

bool is_hdf5_path(const std::string& path) {
  const std::string extension = std::filesystem::path(path).extension().string();
  return extension == ".h5" || extension == ".hdf5";
}

void write_fields_hdf5(const std::string& path, const trapeze::Extent& extent, int dims,
                       const std::vector<FieldView>& fields, const FieldFileAttributes& attributes) {
  silence_hdf5();
  const std::filesystem::path target(path);
  // Built piece by piece: GCC 12's -Wrestrict misfires on "." + string + ...
  std::string temporary_name(".");
  temporary_name += target.filename().string();
  temporary_name += ".tmp.";
  temporary_name += std::to_string(getpid());
  const std::filesystem::path temporary = target.parent_path() / temporary_name;
  try {
    {
      Id file(H5Fcreate(temporary.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
      if (!file.valid()) throw trapeze::Error("cannot create HDF5 file '" + path + "'");
      std::vector<std::int64_t> cells(extent.begin(), extent.begin() + dims);
      for (const FieldView& field : fields) {
        const std::vector<hsize_t> shape = file_shape(extent, dims, field.planes);
        Id space(H5Screate_simple(static_cast<int>(shape.size()), shape.data(), nullptr), H5Sclose);
        Id dataset(H5Dcreate2(file.get(), field.name.c_str(), native_type(field.type), space.get(), H5P_DEFAULT,
                              H5P_DEFAULT, H5P_DEFAULT),
                   H5Dclose);
        if (!dataset.valid()) throw trapeze::Error("cannot create dataset '" + field.name + "' in '" + path + "'");
        check(H5Dwrite(dataset.get(), native_type(field.type), H5S_ALL, H5S_ALL, H5P_DEFAULT, field.data),
              "writing dataset '" + field.name + "' to '" + path + "' failed (disk full?)");
        write_int_attributes(dataset.get(), "step", {attributes.step}, true);
        write_string_attribute(dataset.get(), "stencil", attributes.stencil);
        write_string_attribute(dataset.get(), "boundary", attributes.boundary);
        write_int_attributes(dataset.get(), "extent", cells, false);
      }
      check(H5Fflush(file.get(), H5F_SCOPE_GLOBAL), "writing '" + path + "' failed (disk full?)");
    }
    std::error_code error;
    std::filesystem::rename(temporary, target, error);
    if (error) throw trapeze::Error("cannot rename onto '" + path + "': " + error.message());
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw;
  }
}

namespace {

// Opens `path` for reading, refusing what is not an HDF5 file in one line.
hid_t open_for_reading(const std::string& path) {
  silence_hdf5();
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) {
    throw trapeze::Error("cannot read HDF5 file '" + trapeze::quoted(path) + "': no such file");
  }
  if (H5Fis_hdf5(path.c_str()) <= 0) {
    throw trapeze::Error("'" + trapeze::quoted(path) + "' is not an HDF5 file (truncated, or another format)");
  }
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (file < 0) throw trapeze::Error("cannot open HDF5 file '" + trapeze::quoted(path) + "' (truncated or damaged?)");
  return file;
}

hid_t open_dataset(hid_t file, const std::string& path, const std::string& name) {
  if (H5Lexists(file, name.c_str(), H5P_DEFAULT) <= 0) {
    throw trapeze::Error("HDF5 file '" + trapeze::quoted(path) + "' has no dataset '" + name +
                         "' (is it another app's file?)");
  }
  const hid_t dataset = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
  if (dataset < 0) throw trapeze::Error("cannot open dataset '" + name + "' of '" + trapeze::quoted(path) + "'");
  return dataset;
}

std::vector<hsize_t> dataset_shape(hid_t dataset) {
  Id space(H5Dget_space(dataset), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  std::vector<hsize_t> shape(static_cast<std::size_t>(std::max(rank, 0)));
  if (rank > 0) H5Sget_simple_extent_dims(space.get(), shape.data(), nullptr);
  return shape;
}

std::string shape_text(const std::vector<hsize_t>& shape) {
  std::string text;
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? "x" : "") + std::to_string(shape[i]);
  return text.empty() ? "a scalar" : text;
}

}  // namespace

trapeze::Extent read_field_extent_hdf5(const std::string& path, const std::string& name, int dims) {
  Id file(open_for_reading(path), H5Fclose);
  Id dataset(open_dataset(file.get(), path, name), H5Dclose);
  const std::vector<hsize_t> shape = dataset_shape(dataset.get());
  if (static_cast<int>(shape.size()) != dims) {
    throw trapeze::Error("dataset '" + name + "' of '" + trapeze::quoted(path) + "' is " + shape_text(shape) +
                         ", expected " + std::to_string(dims) + " dimensions");
  }
  trapeze::Extent extent{1, 1, 1};
  for (int d = 0; d < dims; ++d) extent[d] = static_cast<trapeze::Index>(shape[dims - 1 - d]);
  return extent;
}

FieldFileAttributes read_fields_hdf5(const std::string& path, const trapeze::Extent& extent, int dims,
                                     const std::vector<FieldTarget>& fields) {
  Id file(open_for_reading(path), H5Fclose);
  FieldFileAttributes attributes;
  for (std::size_t f = 0; f < fields.size(); ++f) {
    const FieldTarget& field = fields[f];
    Id dataset(open_dataset(file.get(), path, field.name), H5Dclose);
    const std::vector<hsize_t> shape = dataset_shape(dataset.get());
    std::vector<hsize_t> expected = file_shape(extent, dims, field.planes);
    // A time-varying field may hold more planes than this run reads.
    const bool planes_ok = field.planes <= 1 ? shape == expected
                                             : shape.size() == expected.size() && shape[0] >= expected[0] &&
                                                   std::equal(shape.begin() + 1, shape.end(), expected.begin() + 1);
    if (!planes_ok) {
      throw trapeze::Error("dataset '" + field.name + "' of '" + trapeze::quoted(path) + "' is " + shape_text(shape) +
                           ", expected " + shape_text(expected) + " (z y x order; does --size match the file?)");
    }
    Id type(H5Dget_type(dataset.get()), H5Tclose);
    if (H5Tequal(type.get(), native_type(field.type)) <= 0) {
      throw trapeze::Error("dataset '" + field.name + "' of '" + trapeze::quoted(path) + "' does not hold " +
                           type_name(field.type) + " values");
    }
    // Only the planes this run uses.
    Id file_space(H5Dget_space(dataset.get()), H5Sclose);
    std::vector<hsize_t> start(expected.size(), 0);
    check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr, expected.data(), nullptr),
          "selecting the planes of '" + field.name + "'");
    Id memory_space(H5Screate_simple(static_cast<int>(expected.size()), expected.data(), nullptr), H5Sclose);
    if (H5Dread(dataset.get(), native_type(field.type), memory_space.get(), file_space.get(), H5P_DEFAULT,
                field.data) < 0) {
      throw trapeze::Error("reading dataset '" + field.name + "' of '" + trapeze::quoted(path) +
                           "' failed (truncated file?)");
    }
    std::size_t count = 1, first_bad = 0;
    for (hsize_t n : expected) count *= n;
    if (!is_finite_everywhere(field.type, field.data, count, first_bad)) {
      throw trapeze::Error("dataset '" + field.name + "' of '" + trapeze::quoted(path) +
                           "' holds a non-finite value (NaN or infinity) at element " + std::to_string(first_bad));
    }
    if (f == 0) {
      if (H5Aexists(dataset.get(), "step") > 0) {
        Id step(H5Aopen(dataset.get(), "step", H5P_DEFAULT), H5Aclose);
        std::int64_t value = 0;
        if (H5Aread(step.get(), H5T_NATIVE_INT64, &value) >= 0) attributes.step = value;
      }
      attributes.stencil = read_string_attribute(dataset.get(), "stencil");
      attributes.boundary = read_string_attribute(dataset.get(), "boundary");
    }
  }
  return attributes;
}

}  // namespace apps
