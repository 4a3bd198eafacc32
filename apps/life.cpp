// life: Conway's Game of Life on uint8_t cells, dead (0) outside the board by
// default; --words updates them four to a 32-bit word in place
// (apps/stencils/life_byte_words.hpp), --bits packs 32 cells into each word
// (apps/stencils/life_bits.hpp).
#include "common/field_values.hpp"
#include "common/stencil_app.hpp"
#include "stencils/life.hpp"
#include "stencils/life_bits.hpp"
#include "stencils/life_byte_words.hpp"

namespace {

// The same board for both representations: cells drawn one after the other
// in row-major order, each stored as a byte or as its word's bit.
class RandomBoard {
 public:
  RandomBoard(std::uint64_t seed, double density) : engine_(seed), alive_(density) {}
  std::uint8_t cell() { return alive_(engine_); }
  // Four cells a word, cell i in byte i (a board of bytes, read as words).
  std::uint32_t byte_word() {
    std::uint32_t w = 0;
    for (int i = 0; i < 4; ++i) w |= static_cast<std::uint32_t>(cell()) << (8 * i);
    return w;
  }
  std::uint32_t word() {
    std::uint32_t w = 0;
    for (int bit = 0; bit < 32; ++bit) w |= static_cast<std::uint32_t>(alive_(engine_)) << bit;
    return w;
  }

 private:
  std::mt19937_64 engine_;
  std::bernoulli_distribution alive_;
};

// What --bits and --words share: a board of words that is not a board of
// values (so no HDF5 fields) and whose boundary cannot clamp a word's cells.
void check_packable(const char* flag, const apps::CommonOptions& options, const trapeze::Boundary& boundary,
                    const trapeze::Extent& cells, long cells_per_word) {
  const std::string name = flag;
  if (cells[0] % cells_per_word != 0) {
    throw trapeze::InvalidArgument(name + " takes " + std::to_string(cells_per_word) +
                                   " cells a word, so the board's width must be a multiple of " +
                                   std::to_string(cells_per_word) + ", got " + std::to_string(cells[0]));
  }
  if (boundary.kind == trapeze::BoundaryKind::clamp) {
    throw trapeze::InvalidArgument(name + " takes a constant:0, constant:1 or periodic boundary, got clamp "
                                          "(clamping a word of cells is not clamping its cells)");
  }
  if (!options.input.empty() || !options.restart.empty() || !options.checkpoint.empty()) {
    throw trapeze::InvalidArgument(name + " reads and writes no HDF5 fields (--input, --restart, --checkpoint): run without " +
                                   name);
  }
  if (apps::is_hdf5_path(options.output)) {
    throw trapeze::InvalidArgument(name + " writes --output as text (index and cell a line), not HDF5: " + options.output);
  }
}

// A board of words through the app: its outputs are the board's byte cells (`board`).
template <typename S, typename Board>
int run_packed(const apps::CommonOptions& options, const S& stencil, trapeze::Grid<std::uint32_t>& grid,
               long width, long height, const Board& board) {
  return apps::run_stencil_app("life", options, stencil, grid,
                               {[&](const std::string& path) { apps::write_indexed(path, board()); },
                                [&] { return apps::as_doubles(board()); }, width, height, {"cells"}});
}

int run_bits(const apps::CommonOptions& options, const trapeze::Boundary& boundary, const trapeze::Extent& cells,
             std::uint64_t seed, double density) {
  check_packable("--bits", options, boundary, cells, 32);
  const long width = cells[0], height = cells[1];
  trapeze::Grid<std::uint32_t> grid({width / 32, height, 1}, 2, 1, 0, 1, apps::life_bits_boundary(boundary));
  RandomBoard board_of(seed, density);
  for (auto& word : grid.updated()) word = board_of.word();
  return run_packed(options, apps::LifeBits{}, grid, width, height,
                    [&] { return apps::unpack_life_words(grid.updated(), width, height); });
}

// Byte cells four to a word: the byte-cell board in the same memory.
int run_words(const apps::CommonOptions& options, const trapeze::Boundary& boundary, const trapeze::Extent& cells,
              std::uint64_t seed, double density) {
  check_packable("--words", options, boundary, cells, 4);
  const long width = cells[0], height = cells[1];
  trapeze::Grid<std::uint32_t> grid({width / 4, height, 1}, 2, 1, 0, 1, apps::life_byte_words_boundary(boundary));
  RandomBoard board_of(seed, density);
  for (auto& word : grid.updated()) word = board_of.byte_word();
  return run_packed(options, apps::LifeByteWords{}, grid, width, height,
                    [&] { return apps::life_words_as_cells(grid.updated()); });
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"Conway's Game of Life, run as a Trapeze task graph"};
  apps::CommonOptions options;
  apps::add_common_options(cli, options, {"1024x1024", "auto", "constant:0", 100});
  std::uint64_t seed = 1;
  double density = 0.3;
  bool bits = false, words = false;
  cli.add_option("--seed", seed, "seed of the random initial board")->capture_default_str();
  cli.add_option("--density", density, "fraction of cells alive at the start")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cli.add_flag("--bits", bits,
               "32 cells a 32-bit word, updated together by bitwise adders (the same game bit for bit, ~10x faster; "
               "width a multiple of 32, boundary constant:0, constant:1 or periodic; --tile counts words across)");
  cli.add_flag("--words", words,
               "byte cells updated 4 to a 32-bit word (the same board in the same memory, the same game byte for "
               "byte, ~5x faster on GPUs; width a multiple of 4, boundary constant:0, constant:1 or periodic; "
               "--tile counts words across)")
      ->excludes("--bits");
  return apps::app_main("life", cli, argc, argv, [&] {
    const trapeze::Boundary boundary = trapeze::parse_boundary(options.boundary);
    if (boundary.kind == trapeze::BoundaryKind::constant && boundary.value != 0 && boundary.value != 1) {
      throw trapeze::InvalidArgument("life's constant boundary must be 0 (dead) or 1 (alive), got " +
                           std::to_string(boundary.value));
    }
    const trapeze::Extent size = apps::domain_size(options, 2, "cells");
    if (bits) return run_bits(options, boundary, size, seed, density);
    if (words) return run_words(options, boundary, size, seed, density);
    trapeze::Grid<std::uint8_t> grid(size, 2, 1, 0, 1, boundary);
    RandomBoard board(seed, density);
    for (auto& cell : grid.updated()) cell = board.cell();
    const auto e = grid.extent();
    return apps::run_stencil_app("life", options, apps::Life{}, grid,
                                 {[&](const std::string& path) { apps::write_indexed(path, grid.updated()); },
                                  [&] { return apps::as_doubles(grid.updated()); }, e[0], e[1], {"cells"}});
  });
}
