#pragma once
// What a layout conversion task of a wavefront run receives (by value), and
// its buffers, shared by the CPU and CUDA implementations:
//   to banded:   [0] the tile row-major (R, matrix), [1] banded (W);
//   from banded: [0] banded (R),                     [1] the tile row-major (W, matrix);
// a banded copy is contiguous, layout.cells() values, registered as a matrix
// of a band's cells (ld = nx) by bands.
#include "trapeze/banded_layout.hpp"

namespace trapeze {

struct BandedConversionArgs {
  BandedLayout layout;
};

}  // namespace trapeze
