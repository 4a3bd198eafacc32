#include "fxt_trace.hpp"

#include <starpu.h>

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "trapeze/error.hpp"

namespace trapeze {

std::string enable_fxt_trace(const std::string& directory) {
#ifndef STARPU_USE_FXT
  throw InvalidArgument("tracing into '" + trapeze::quoted(directory) +
                        "' needs StarPU built with FxT (scripts/setup.sh builds it so); this StarPU has none");
#else
  if (directory.empty()) throw InvalidArgument("the trace directory must not be empty");
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error || !std::filesystem::is_directory(directory)) {
    throw InvalidArgument("cannot make the trace directory '" + trapeze::quoted(directory) + "'" +
                          (error ? ": " + error.message() : std::string(": a file has that name")));
  }
  // StarPU 1.4 takes its FxT settings from the environment only (read by
  // starpu_init), so this is the one place the runtime sets variables.
  // The suffix fixes the file's name: StarPU's default adds $USER.
  setenv("STARPU_FXT_TRACE", "1", 1);
  setenv("STARPU_FXT_PREFIX", directory.c_str(), 1);
  setenv("STARPU_FXT_SUFFIX", "prof_file", 1);
  // Tasks, data, workers and MPI: what scripts/timeline.py draws and
  // starpu_fxt_tool's task records need. StarPU's default (every category,
  // locks and scheduler internals included) wrote 226 MB for a 0.1 s
  // jacobi2d run on 2 cores, and flushed mid-run; these events, 74 KB.
  // A STARPU_FXT_EVENTS the user set wins.
  setenv("STARPU_FXT_EVENTS", "USER|TASK|DATA|WORKER|DSM|MPI", 0);
  return (std::filesystem::path(directory) / "prof_file_0").string();
#endif
}

}  // namespace trapeze
