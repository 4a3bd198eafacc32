#pragma once
// The CPU implementations of a wavefront run's layout conversion tasks
// (codelets/banded_layout_args.hpp's buffers): trapeze/banded_layout.hpp's
// reference conversions. A run converts on the CPU only when it keeps the
// banded layout on CPU workers (WavefrontLayout::banded, for tests).
#include <starpu.h>

#include "../banded_layout_args.hpp"
#include "trapeze/banded_layout.hpp"

namespace trapeze {

template <typename T>
void to_banded_cpu(void* buffers[], void* cl_arg) {
  BandedConversionArgs args;
  starpu_codelet_unpack_args(cl_arg, &args);
  to_banded(reinterpret_cast<const T*>(STARPU_MATRIX_GET_PTR(buffers[0])), static_cast<Index>(STARPU_MATRIX_GET_LD(buffers[0])),
            args.layout, reinterpret_cast<T*>(STARPU_MATRIX_GET_PTR(buffers[1])));
}

template <typename T>
void from_banded_cpu(void* buffers[], void* cl_arg) {
  BandedConversionArgs args;
  starpu_codelet_unpack_args(cl_arg, &args);
  from_banded(reinterpret_cast<const T*>(STARPU_MATRIX_GET_PTR(buffers[0])), args.layout,
              reinterpret_cast<T*>(STARPU_MATRIX_GET_PTR(buffers[1])), static_cast<Index>(STARPU_MATRIX_GET_LD(buffers[1])));
}

}  // namespace trapeze
