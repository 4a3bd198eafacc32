#pragma once
// The StarPU data of a tiled run, which is the only home of the values while
// the run lasts: one handle per tile (Trapeze's tile interface: one padded
// buffer in host memory, two on a GPU), one per tile for its read-only fields
// with their ghost zone (they never change), two versions of every halo piece
// (stage s writes one while stage s+1 of a slower neighbour may still read the
// other, so a write never waits on a far reader), and a scratch buffer for the
// CPU's in-place sweep. Tiles are grouped in bands (all tiles at one position
// along the slowest dimension): a band's cells are one contiguous range of the
// grid, so the grid's pages can be given back band by band as tiles fill.
//
// With a disk node (RuntimeOptions::disk_directory) the tiles and their
// read-only fields have no buffer of ours: StarPU allocates them where they
// are first written, within STARPU_LIMIT_CPU_MEM, and moves the ones it has
// no room for to the disk (out-of-core). Strips stay in our buffers: they are
// a tile's surface, not its volume.
//
// Spread over MPI ranks (TileOwners), every rank registers every handle, in
// the same order with the same tags, and tells StarPU-MPI its owner: a tile,
// its read-only fields and the pieces it publishes belong to the tile's rank.
// Only a rank's own tiles, and the pieces it writes or reads, have host
// buffers; StarPU allocates what a rank receives. A band is then cut by
// owner, so each copy task touches one rank's tiles.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "trapeze/data_handle.hpp"
#include "trapeze/distributed_data.hpp"
#include "trapeze/grid.hpp"
#include "trapeze/halo_pieces.hpp"
#include "trapeze/host_buffer.hpp"
#include "trapeze/memory_limits.hpp"
#include "trapeze/node_exchange.hpp"
#include "trapeze/runtime.hpp"
#include "trapeze/stencil_shape.hpp"
#include "trapeze/tile_interface.hpp"
#include "trapeze/tile_layout.hpp"
#include "trapeze/tile_owners.hpp"
#include "trapeze/tiling.hpp"

namespace trapeze {

struct Band {
  std::vector<int> tiles;
  Index lo = 0, hi = 0;  // along the slowest dimension, global coordinates
  int owner = 0;         // the rank holding its tiles
};

// Grids at least this large give their pages back while the tiles hold the
// values (and tiles theirs once gathered): past this size a second copy of
// the domain is what limits the problem a machine can run. Below it, giving
// pages back and faulting them in again costs more than it saves (about 10 ms
// for a 64 MiB jacobi2d grid, a tenth of a 50-step run).
inline constexpr std::size_t release_threshold_bytes = std::size_t{256} << 20;

// Chunk buffers of about this many bytes stay in a core's L2 cache (1-2 MiB on
// current server cores) with room for the rows the sweep reads.
inline constexpr Index chunk_target_bytes = Index{128} << 10;

// Slices (of `slice_bytes` each, along the slowest dimension) a chunk of a
// tile `thickness` slices thick takes: about chunk_target_bytes, at least
// the stencil's radius along that dimension, at most the tile.
inline Index chunk_slices(Index slice_bytes, Index radius, Index thickness) {
  return std::clamp<Index>(chunk_target_bytes / slice_bytes, std::max<Index>(1, radius), std::max<Index>(1, thickness));
}

template <typename T>
class TileStore {
 public:
  // `ghost`: the ghost zone of a stage of `height` steps, at least ghost_width(shape, height).
  TileStore(Runtime& runtime, const Tiling& tiling, const StencilShape& shape, int height, const Extent& ghost,
            const Grid<T>& grid, int updated_fields, int constant_fields, TileOwners owners = {},
            bool strips_in_host_memory = true)
      : owners_(std::move(owners)), in_starpu_memory_(runtime.disk_node() >= 0), layout_(layout_within_memory(tiling, ghost, height, grid.boundary().kind,
                                     updated_fields, constant_fields, !in_starpu_memory_)) {
    const int dims = tiling.dims();
    for (int t = 0; t < tiling.count(); ++t) {
      TileLayout p;
      p.tile = tiling.box(t);
      p.ghost = ghost;
      p.padded = p.tile.grown(ghost).extent();
      p.domain = grid.extent();
      p.boundary = grid.boundary();
      p.radius = shape.radius;
      p.dims = dims;
      p.updated_fields = updated_fields;
      p.constant_fields = constant_fields;
      p.constant_planes = grid.constant_planes();
      Index slice_bytes = static_cast<Index>(sizeof(T)) * updated_fields;
      for (int e = 0; e < dims - 1; ++e) slice_bytes *= p.padded[e];
      p.chunk_thickness = chunk_slices(slice_bytes, shape.radius[dims - 1], p.padded[dims - 1]);
      const TileHalo& halo = layout_.tiles[t];
      for (int i : halo.inputs) p.input_destinations.push_back(layout_.pieces[i].destination);
      for (int i : halo.self_wraps) p.self_wraps.push_back({layout_.pieces[i].source, layout_.pieces[i].destination});
      for (int i : halo.outputs) p.output_sources.push_back(layout_.pieces[i].source);
      scratch_cells_ = std::max(scratch_cells_, p.chunk_cells());
      layouts_.push_back(std::move(p));
      names_.push_back("tile " + to_string(tiling.coordinates(t), dims));
    }
    // Bands in order along the slowest dimension, each cut by owner (ranks in order).
    std::vector<std::vector<Band>> by_position;
    for (int t = 0; t < tiling.count(); ++t) {
      const auto position = static_cast<std::size_t>(tiling.coordinates(t)[dims - 1]);
      if (position >= by_position.size()) by_position.resize(position + 1);
      std::vector<Band>& cut = by_position[position];
      // Out-of-core, a copy task must fit in the memory StarPU may use: one
      // tile each. A generated grid has no pages to give back band by band,
      // and its copies compute every cell (hashes): one tile each keeps every
      // CPU worker busy rather than one per band.
      auto band = in_starpu_memory_ || grid.is_generated() ? cut.end()
                                    : std::find_if(cut.begin(), cut.end(), [&](const Band& b) { return b.owner == owners_.owner(t); });
      if (band == cut.end()) band = cut.insert(std::upper_bound(cut.begin(), cut.end(), owners_.owner(t),
                                                                [](int owner, const Band& b) { return owner < b.owner; }),
                                               Band{{}, tiling.box(t).lo[dims - 1], tiling.box(t).hi[dims - 1], owners_.owner(t)});
      band->tiles.push_back(t);
    }
    for (std::vector<Band>& cut : by_position) {
      for (Band& band : cut) bands_.push_back(std::move(band));
    }
    double bytes = 0;  // this process's: its own tiles
    for (int t = 0; t < tiling.count(); ++t) {
      if (!owners_.local(t)) continue;
      const TileLayout& p = layouts_[t];
      bytes += static_cast<double>(p.buffer_cells()) * sizeof(T) +
               static_cast<double>(constant_fields) * static_cast<double>(p.constant_planes) *
                   static_cast<double>(p.padded_cells()) * sizeof(T);
    }
    if (in_starpu_memory_) bytes = 0;  // StarPU's memory manager and the disk node hold them
    check_tiles_fit(tiling, height, handle_count(tiling, static_cast<double>(layout_.pieces.size()), constant_fields),
                    bytes);
    // Tiles' host buffers are filled by scatter tasks (the first touch of their
    // pages happens there, in parallel), constants likewise.
    if (owners_.distributed()) owners_.first_tag = runtime.reserve_tags(tags_needed(tiling, layout_, constant_fields));
    std::int64_t tag = owners_.first_tag;
    for (int t = 0; t < tiling.count(); ++t) {
      const TileLayout& p = layouts_[t];
      const bool local = owners_.local(t);
      // Rank 0 receives every tile at wait(): its buffers for the others'
      // are made here like its own (huge pages, not faulted in one by one there).
      const bool gathered_here = owners_.distributed() && owners_.rank == 0;
      const bool ours = !in_starpu_memory_ && (local || gathered_here);
      tile_buffers_.emplace_back(ours ? static_cast<std::size_t>(p.buffer_cells()) : 0);
      tile_handles_.emplace_back(
          register_tile(runtime.tile_interface(), tile_buffers_.back().data(), p.buffer_cells(), sizeof(T)), false);
      if (owners_.distributed()) register_distributed(tile_handles_.back().get(), tag++, owners_.owner(t));
      if (constant_fields > 0) {
        const auto cells = static_cast<std::size_t>(constant_fields * p.constant_planes * p.padded_cells());
        constant_buffers_.emplace_back(local && !in_starpu_memory_ ? cells : 0);
        constant_handles_.push_back(DataHandle::vector(constant_buffers_.back().data(), cells, sizeof(T), false));
        if (owners_.distributed()) register_distributed(constant_handles_.back().get(), tag++, owners_.owner(t));
      }
    }
    // Strips live in our own touched buffers rather than where StarPU would
    // allocate them on their first write: that first write would fault every
    // page inside a timed task (see host_buffer.hpp).
    for (const HaloPiece& piece : layout_.pieces) {
      const auto count = static_cast<std::size_t>(updated_fields * piece.source.cells());
      // A run whose ghost zones are filled from the tiles themselves
      // (StencilRun::fills_ghost_from_host) never uses its strips: they get
      // no buffer (jacobi2d's 4096x2048 tiles at H 180 would keep 0.57 GB).
      const bool used_here =
          strips_in_host_memory && (owners_.local(piece.producer) || owners_.local(piece.consumer));
      std::array<DataHandle, 2> versions;
      for (DataHandle& version : versions) {
        strip_buffers_.emplace_back(used_here ? count : 0);
        std::fill_n(strip_buffers_.back().data(), strip_buffers_.back().size(), T{});
        version = DataHandle::vector(strip_buffers_.back().data(), count, sizeof(T), false);
        if (owners_.distributed()) register_distributed(version.get(), tag++, owners_.owner(piece.producer));
      }
      strips_.push_back(std::move(versions));
    }
    scratch_ = DataHandle::vector(nullptr, static_cast<std::size_t>(scratch_cells_), sizeof(T), false);
    std::size_t grid_bytes = 0;
    if (!grid.is_generated()) {  // a generated grid has no pages to give back
      for (int f = 0; f < grid.updated_count(); ++f) grid_bytes += grid.updated(f).size() * sizeof(T);
      for (int c = 0; c < grid.constant_count(); ++c) grid_bytes += grid.constant(c).size() * sizeof(T);
    }
    // Bands of one tile share their slices of the grid with other bands:
    // none may give the grid's pages back.
    release_pages_ = grid_bytes >= release_threshold_bytes && !in_starpu_memory_;
    if (in_starpu_memory_) check_tasks_fit_starpu_memory(runtime, static_cast<double>(largest_task_bytes(constant_fields)));
  }

  int count() const { return static_cast<int>(layouts_.size()); }
  const TileOwners& owners() const { return owners_; }
  // StarPU-MPI tags a distributed store of this tiling takes (its handles).
  static std::int64_t tags_needed(const Tiling& tiling, const HaloLayout& halo, int constant_fields) {
    return static_cast<std::int64_t>(tiling.count()) * (constant_fields > 0 ? 2 : 1) +
           2 * static_cast<std::int64_t>(halo.pieces.size());
  }
  const TileLayout& layout(int t) const { return layouts_[t]; }
  const char* name(int t) const { return names_[t].c_str(); }
  const std::vector<Band>& bands() const { return bands_; }
  const HaloLayout& halo_layout() const { return layout_; }
  starpu_data_handle_t tile_handle(int t) const { return tile_handles_.at(t).get(); }
  starpu_data_handle_t constant_handle(int t) const { return constant_handles_.at(t).get(); }
  starpu_data_handle_t scratch_handle() const { return scratch_.get(); }
  // Whether scatter and gather give pages back (see release_threshold_bytes).
  bool release_pages() const { return release_pages_; }
  // Whether StarPU allocates the tiles (and may move them to its disk node).
  bool in_starpu_memory() const { return in_starpu_memory_; }
  const HostBuffer<T>& tile_buffer(int t) const { return tile_buffers_[t]; }
  const HostBuffer<T>& constant_buffer(int t) const { return constant_buffers_[t]; }

  void append_inputs(int t, int version, std::vector<starpu_data_descr>& data) const {
    for (int i : layout_.tiles[t].inputs) {
      data.push_back({exchange_.moves(i) ? exchange_.received(i, version) : strips_[i][version].get(), STARPU_R});
    }
  }
  // Spread over ranks: pieces between ranks of one node go through mailboxes
  // both map (trapeze/node_exchange.hpp) rather than MPI. Collective; call
  // once, before any task. `gpu_only`: stage tasks run on CUDA workers only.
  void exchange_within_nodes(Runtime& runtime, bool gpu_only) {
    if (!owners_.distributed()) return;
    std::vector<std::size_t> cells;
    for (const HaloPiece& piece : layout_.pieces) cells.push_back(static_cast<std::size_t>(layouts_.front().updated_fields * piece.source.cells()));
    exchange_ = NodeExchange(runtime, layout_, owners_, cells, sizeof(T), gpu_only);
  }
  const NodeExchange& node_exchange() const { return exchange_; }
  starpu_data_handle_t strip(int piece, int version) const { return strips_[piece][version].get(); }
  void append_outputs(int t, int version, std::vector<starpu_data_descr>& data) const {
    for (int i : layout_.tiles[t].outputs) data.push_back({strips_[i][version].get(), STARPU_W});
  }

  // A GPU's copy of every tile: two buffers each and their read-only fields.
  double all_tiles_device_bytes(int constant_fields) const {
    double total = 0;
    for (const TileLayout& p : layouts_) total += tile_device_bytes(p, constant_fields);
    return total;
  }
  // What the largest stage task holds on a GPU: its tile and (`with_strips`)
  // the strips it reads and writes.
  double largest_task_device_bytes(int constant_fields, bool with_strips = true) const {
    double largest = 0;
    for (int t = 0; t < count(); ++t) {
      double strips = 0;
      if (with_strips) {
        for (int i : layout_.tiles[t].inputs) strips += static_cast<double>(layout_.pieces[i].source.cells());
        for (int i : layout_.tiles[t].outputs) strips += static_cast<double>(layout_.pieces[i].source.cells());
      }
      const double bytes = tile_device_bytes(layouts_[t], constant_fields) +
                           strips * layouts_[t].updated_fields * static_cast<double>(sizeof(T));
      largest = std::max(largest, bytes);
    }
    return largest;
  }
  static double tile_device_bytes(const TileLayout& p, int constant_fields) {
    const Index cells = device_buffer_stride(p.buffer_cells(), sizeof(T)) + p.buffer_cells() +
                        constant_fields * p.constant_planes * p.padded_cells();
    return static_cast<double>(cells) * sizeof(T);
  }


 private:
  // Each tile, its read-only fields and both versions of every halo piece are
  // StarPU handles, whose own size dominates when tiles are tiny.
  static double handle_count(const Tiling& tiling, double pieces, int constant_fields) {
    return static_cast<double>(tiling.count()) * (constant_fields > 0 ? 2.0 : 1.0) + 2.0 * pieces + 1.0;
  }

  static void check_tiles_fit(const Tiling& tiling, int height, double handles, double buffer_bytes,
                              const char* handles_qualifier = "") {
    check_fits_in_memory(buffer_bytes + handles * starpu_handle_bytes(),
                         std::to_string(tiling.count()) + " tiles of " + to_string(tiling.tile_extent(), tiling.dims()) +
                             " with the ghost zone of height " + std::to_string(height) + " and " + handles_qualifier +
                             std::to_string(static_cast<long long>(handles)) + " StarPU data handles",
                         "choose a smaller height, or fewer, larger tiles");
  }

  // What StarPU allocates for the largest stage task: its tile, its
  // read-only fields and the scratch buffer (the strips are ours).
  Index largest_task_bytes(int constant_fields) const {
    Index largest = 0;
    for (const TileLayout& p : layouts_) {
      largest = std::max(largest, p.buffer_cells() + constant_fields * p.constant_planes * p.padded_cells());
    }
    return (largest + scratch_cells_) * static_cast<Index>(sizeof(T));
  }

  // Out-of-core, every CPU worker holds one task's data at once; if the
  // memory StarPU may use (STARPU_LIMIT_CPU_MEM) cannot hold them, StarPU
  // would evict and fetch forever instead of running them.
  static void check_tasks_fit_starpu_memory(const Runtime& runtime, double task_bytes) {
    const starpu_ssize_t allowed = starpu_memory_get_total(STARPU_MAIN_RAM);
    const double needed = task_bytes * std::max(1, runtime.cpu_worker_count());
    if (allowed > 0 && needed > static_cast<double>(allowed)) {
      throw InvalidArgument("out-of-core tasks need " + format_bytes(task_bytes) + " each, " + format_bytes(needed) +
                            " for " + std::to_string(runtime.cpu_worker_count()) +
                            " CPU workers at once, more than the " + format_bytes(static_cast<double>(allowed)) +
                            " StarPU may use (STARPU_LIMIT_CPU_MEM); choose smaller tiles or a smaller height");
    }
  }

  // Refuses, before the pieces are listed, a tiling whose tile interiors and
  // handles alone (at the fewest pieces any tile can have) exceed memory:
  // listing 10^7 tiles' pieces would itself take minutes and gigabytes.
  static HaloLayout layout_within_memory(const Tiling& tiling, const Extent& ghost, int height, BoundaryKind boundary,
                                         int updated_fields, int constant_fields, bool interiors_in_memory) {
    const double tiles = static_cast<double>(tiling.count());
    double interior_cells = 1;
    for (int d = 0; d < max_dims; ++d) interior_cells *= static_cast<double>(tiling.tile_extent()[d]);
    const double pieces = tiles * static_cast<double>(minimum_pieces_per_tile(tiling, ghost));
    check_tiles_fit(tiling, height, handle_count(tiling, pieces, constant_fields),
                    interiors_in_memory ? tiles * interior_cells * updated_fields * sizeof(T) : 0.0, "at least ");
    return build_halo_layout(tiling, ghost, boundary);
  }

  TileOwners owners_;
  bool in_starpu_memory_ = false;
  HaloLayout layout_;
  std::vector<TileLayout> layouts_;
  std::vector<std::string> names_;
  std::vector<Band> bands_;
  Index scratch_cells_ = 1;
  bool release_pages_ = false;
  std::vector<HostBuffer<T>> tile_buffers_;
  std::vector<HostBuffer<T>> constant_buffers_;
  std::vector<HostBuffer<T>> strip_buffers_;
  // Handles are declared after the buffers they point into, so they unregister first.
  std::vector<DataHandle> tile_handles_;
  std::vector<DataHandle> constant_handles_;
  std::vector<std::array<DataHandle, 2>> strips_;
  DataHandle scratch_;
  NodeExchange exchange_;  // its handles unregister before the strips its posts read
};

}  // namespace trapeze
