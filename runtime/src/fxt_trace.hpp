#pragma once
// Task timelines through StarPU's FxT traces (scripts/timeline.py draws them).
#include <string>

namespace trapeze {

// Has StarPU record an FxT trace of this process into `directory` (created if
// needed); returns the trace file's path, written when StarPU shuts down.
// Must run before starpu_init. Throws InvalidArgument when this StarPU was
// built without FxT or the directory cannot be made.
std::string enable_fxt_trace(const std::string& directory);

}  // namespace trapeze
