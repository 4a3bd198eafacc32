#pragma once
// What a stencil is: an element type, a dimension count, a shape, and a
// point-update function. Everything else (tiles, halos, tasks) is the plan's.
//
//   struct Jacobi2D {
//     using value_type = float;
//     static constexpr int dims = 2;
//     static constexpr trapeze::StencilShape shape{{1, 1, 0}, trapeze::ShapeKind::star};
//     TRAPEZE_HOST_DEVICE float operator()(const trapeze::Neighbourhood<float>& at) const {
//       return 0.2f * (at(0, 0) + at(-1, 0) + at(1, 0) + at(0, -1) + at(0, 1));
//     }
//   };
//
// A stencil with several updated fields sets `updated_fields` and returns
// std::array<value_type, updated_fields>; one with read-only inputs sets
// `constant_fields` and reads them through Neighbourhood::constant.
#include <array>
#include <concepts>
#include <type_traits>

#include "trapeze/neighbourhood.hpp"
#include "trapeze/stencil_shape.hpp"

namespace trapeze {

template <typename S>
concept Stencil = requires {
  typename S::value_type;
  { S::dims } -> std::convertible_to<int>;
  { S::shape } -> std::convertible_to<StencilShape>;
} && std::is_trivially_copyable_v<typename S::value_type> && std::is_trivially_copyable_v<S>;

template <Stencil S>
inline constexpr int updated_fields_of = [] {
  if constexpr (requires { S::updated_fields; }) return int{S::updated_fields};
  else return 1;
}();

template <Stencil S>
inline constexpr int constant_fields_of = [] {
  if constexpr (requires { S::constant_fields; }) return int{S::constant_fields};
  else return 0;
}();

// A stencil that reads its read-only fields only at the cell it updates
// (`at.constant(c)`, no offset: HotSpot's power map) may say so with
// `static constexpr bool constants_at_cell_only = true;`. GPU kernels that
// walk the domain then load each such value once and keep it in registers for
// all the steps of a launch instead of reading device memory every step. It
// is a promise: an offset read under it returns a wrong value.
template <Stencil S>
inline constexpr bool constants_at_cell_only_of = [] {
  if constexpr (requires { S::constants_at_cell_only; }) return bool{S::constants_at_cell_only};
  else return false;
}();

// A stencil whose values each pack several cells (bit-parallel Life, 32
// cells a word) may say how many with `static constexpr int cells_per_value`;
// the apps report throughput and sizes in cells. The runtime itself only
// ever counts values.
template <Stencil S>
inline constexpr int cells_per_value_of = [] {
  if constexpr (requires { S::cells_per_value; }) return int{S::cells_per_value};
  else return 1;
}();

// Calls the update and stores each updated field; one-field stencils return a
// plain value, several-field stencils an array.
template <Stencil S>
TRAPEZE_HOST_DEVICE inline void apply_update(const S& stencil,
                                             const Neighbourhood<typename S::value_type>& at,
                                             typename S::value_type* out, Index field_stride) {
  if constexpr (updated_fields_of<S> == 1) {
    out[0] = stencil(at);
  } else {
    const auto values = stencil(at);
    for (int f = 0; f < updated_fields_of<S>; ++f) out[f * field_stride] = values[f];
  }
}

}  // namespace trapeze
