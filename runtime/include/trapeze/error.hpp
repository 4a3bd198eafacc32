#pragma once
// Errors are exceptions that carry one line naming the bad value and what was
// expected; apps print that line and exit non-zero.
#include <stdexcept>
#include <string>

namespace trapeze {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Thrown when StarPU itself refuses something (init, registration, submission).
class RuntimeError : public Error {
 public:
  RuntimeError(const std::string& what_failed, int code);
};

}  // namespace trapeze
