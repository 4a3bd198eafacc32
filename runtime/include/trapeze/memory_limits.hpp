#pragma once
// What a run may allocate on this machine. A request beyond physical memory
// is refused with a line naming what asked for it, rather than left to the
// kernel's overcommit (the process dies when the pages are touched) or to a
// bare std::bad_alloc.
#include <cstdint>
#include <string>

namespace trapeze {

// This machine's physical memory in bytes (0 when the system does not say).
std::uint64_t physical_memory_bytes();

// "1.5 GiB", "512 MiB", "12 KiB", "100 B".
std::string format_bytes(double bytes);

// Host memory one registered StarPU data handle costs, its task-side
// bookkeeping included: StarPU sizes part of every handle by its compile-time
// number of memory nodes squared. Measured with 1x1 tiles of jacobi2d, 17
// handles a tile (the tile, two versions of 8 halo pieces): 365 KB a tile with
// STARPU_MAXNODES 32 and 130 KB with 16, i.e. about 3 KB + 18 B x MAXNODES^2.
double starpu_handle_bytes();

// Throws InvalidArgument "<what> would take <bytes>, more than this machine's
// <memory> of memory; <advice>" when `bytes` exceed physical memory.
void check_fits_in_memory(double bytes, const std::string& what, const std::string& advice);

}  // namespace trapeze
