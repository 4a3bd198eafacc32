#include "trapeze/parallel_parts.hpp"

#include <charconv>
#include <cstdlib>
#include <string>
#include <string_view>

#include "trapeze/error.hpp"

namespace trapeze {

int copy_threads_from_environment() {
  const char* value = std::getenv("TRAPEZE_COPY_THREADS");
  if (!value || !*value) return 0;
  const std::string_view text(value);
  int threads = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), threads);
  if (ec != std::errc() || end != text.data() + text.size() || threads < 1 || threads > 256) {
    throw InvalidArgument("TRAPEZE_COPY_THREADS must be a thread count from 1 to 256, got '" + quoted(text) + "'");
  }
  return threads;
}

}  // namespace trapeze
