#pragma once
// Copies a box of cells between two row-major buffers, field by field.
#include <cstring>

#include "trapeze/geometry.hpp"

namespace trapeze {

struct BufferView {
  Extent extent;       // the whole buffer
  Index field_stride;  // elements between fields
};

template <typename T>
void copy_box(const T* source, const BufferView& source_view, const Box& source_box, T* destination,
              const BufferView& destination_view, const Extent& destination_lo, int fields) {
  const Strides s = Strides::of(source_view.extent);
  const Strides d = Strides::of(destination_view.extent);
  const Extent e = source_box.extent();
  const std::size_t row_bytes = static_cast<std::size_t>(e[0]) * sizeof(T);
  for (int f = 0; f < fields; ++f) {
    const T* src = source + f * source_view.field_stride;
    T* dst = destination + f * destination_view.field_stride;
    for (Index z = 0; z < e[2]; ++z) {
      for (Index y = 0; y < e[1]; ++y) {
        std::memcpy(dst + d.offset(destination_lo[0], destination_lo[1] + y, destination_lo[2] + z),
                    src + s.offset(source_box.lo[0], source_box.lo[1] + y, source_box.lo[2] + z),
                    row_bytes);
      }
    }
  }
}

}  // namespace trapeze
