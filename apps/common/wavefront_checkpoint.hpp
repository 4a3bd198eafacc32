#pragma once
// The checkpoint file of a wavefront app: which app and inputs it belongs to
// (a fingerprint of the cell update's parameters and every input), where the
// run stood (the first row not done), the row above it and the fold so far,
// as raw bytes of the app's cell and result types. Written under a temporary
// name and renamed, so a kill leaves the previous checkpoint whole; a
// truncated, foreign or mismatched file is refused with one line.
#include <cstdint>
#include <string>
#include <vector>

#include "trapeze/geometry.hpp"

namespace apps {

struct WavefrontCheckpointFile {
  std::string app;
  trapeze::Index rows = 0;
  trapeze::Index columns = 0;
  std::uint64_t fingerprint = 0;
  trapeze::Index first_row = 0;
  std::uint64_t cell_bytes = 0;
  std::uint64_t result_bytes = 0;
  std::vector<unsigned char> top_row;  // (columns + 1) cells
  std::vector<unsigned char> folded;   // one result
};

void write_wavefront_checkpoint(const std::string& path, const WavefrontCheckpointFile& file);

// Throws trapeze::InvalidArgument naming the file and what is wrong with it.
WavefrontCheckpointFile read_wavefront_checkpoint(const std::string& path);

// FNV-1a over bytes, chained: the fingerprint of a run's inputs.
std::uint64_t fingerprint_bytes(const void* data, std::size_t size, std::uint64_t seed = 1469598103934665603ull);

}  // namespace apps
