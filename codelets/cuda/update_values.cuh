#pragma once
// A point update's values as one array whatever the stencil's field count, so
// a kernel can evaluate several cells before storing any of them (their loads
// all issued first: stores in between would have to be assumed to alias them).
#include <array>

#include "trapeze/stencil.hpp"

namespace trapeze::cuda {

template <Stencil S>
using UpdateValues = std::array<typename S::value_type, updated_fields_of<S>>;

template <Stencil S>
__device__ inline UpdateValues<S> update_values(const S& stencil, const Neighbourhood<typename S::value_type>& at) {
  if constexpr (updated_fields_of<S> == 1) {
    return {stencil(at)};
  } else {
    return stencil(at);
  }
}

template <Stencil S>
__device__ inline UpdateValues<S> uniform_values(typename S::value_type value) {
  UpdateValues<S> values;
#pragma unroll
  for (int f = 0; f < updated_fields_of<S>; ++f) values[f] = value;
  return values;
}

}  // namespace trapeze::cuda
