#pragma once
// Errors are exceptions that carry one line naming the bad value and what was
// expected; apps print that line and exit non-zero.
#include <stdexcept>
#include <string>
#include <string_view>

namespace trapeze {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A value the caller chose (an option, a size, a plan, an environment
// variable) that cannot work. Apps exit with 2 (bad command line) on these
// and with 1 on every other error.
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

// User-supplied text for an error line: bytes that are not printable ASCII
// appear as \xNN, and text past 60 characters is cut with "...", so garbage
// read from a file never reaches the terminal raw.
std::string quoted(std::string_view text);

// Thrown when StarPU itself refuses something (init, registration, submission).
class RuntimeError : public Error {
 public:
  RuntimeError(const std::string& what_failed, int code);
};

}  // namespace trapeze
