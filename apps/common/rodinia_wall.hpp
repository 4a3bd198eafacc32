#pragma once
// Rodinia PathFinder's data, so a run can be compared with Rodinia's on the
// same input: its wall generator (srand(9), rand() % 10, row by row) and the
// text it prints with BENCH_PRINT: the wall as one line per row of "%d "
// values, and the result as two such lines (the wall's first row, then the
// costs of the last row).
#include <cstdint>
#include <string>
#include <vector>

#include "trapeze/geometry.hpp"

namespace apps {

struct Wall {
  trapeze::Index cols = 0;
  trapeze::Index rows = 0;
  std::vector<std::int32_t> values;  // row-major, rows * cols
};

// Rodinia's wall: glibc's srand(9) and rand() % 10, row-major (the C library's
// rand, so it equals Rodinia's built against the same C library).
Wall rodinia_wall(trapeze::Index cols, trapeze::Index rows);

// Reads a wall in Rodinia's printed format. Throws trapeze::Error naming the
// file and line for ragged rows, non-integers, negative weights, weights
// whose path sums could pass 32 bits, binary garbage or an empty file.
Wall read_wall(const std::string& path);

// Writes the wall in Rodinia's printed format (atomically).
void write_wall(const std::string& path, const Wall& wall);

// Rodinia's printed result: the wall's first row, then the final costs.
void write_rodinia_result(const std::string& path, const std::int32_t* first_row, const std::int32_t* costs,
                          trapeze::Index cols);

}  // namespace apps
