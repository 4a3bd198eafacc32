#pragma once
// The GPU a model's measurements belong to: the first CUDA worker's device.
#include <starpu.h>

#include <string>

namespace trapeze {

// The name of the first CUDA worker's device ("NVIDIA H100 80GB HBM3"), the
// key of its cost models.
inline std::string gpu_device_name() {
  for (unsigned w = 0; w < starpu_worker_get_count(); ++w) {
    if (starpu_worker_get_type(static_cast<int>(w)) != STARPU_CUDA_WORKER) continue;
    char name[256];
    starpu_worker_get_name(static_cast<int>(w), name, sizeof name);
    std::string text = name;
    // "CUDA 0.0 (NVIDIA H100 80GB HBM3 79.1 GiB 19:00.0)": keep the model name.
    const auto open = text.find('('), gib = text.find(" GiB");
    if (open != std::string::npos && gib != std::string::npos && gib > open) {
      text = text.substr(open + 1, gib - open - 1);
      return text.substr(0, text.find_last_of(' '));
    }
    return text;
  }
  return "no GPU";
}

}  // namespace trapeze
