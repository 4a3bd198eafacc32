#include "trapeze/cuda_stencils.hpp"
#include "trapeze/cuda_ipc.hpp"

#include <map>
#include <string>

#include "trapeze/error.hpp"
#include <typeindex>

namespace trapeze {

namespace {

std::map<std::type_index, CudaStencilFunctions>& table() {
  static std::map<std::type_index, CudaStencilFunctions> registered;
  return registered;
}

CudaIpcFunctions& ipc_functions() {
  static CudaIpcFunctions registered;
  return registered;
}

}  // namespace

bool register_cuda_ipc(const CudaIpcFunctions& functions) {
  ipc_functions() = functions;
  return true;
}

const CudaIpcFunctions* find_cuda_ipc() { return ipc_functions().allocate_shared ? &ipc_functions() : nullptr; }

bool register_cuda_stencil(const std::type_info& stencil, const CudaStencilFunctions& functions) {
  table()[std::type_index(stencil)] = functions;
  return true;
}

const CudaStencilFunctions* find_cuda_stencil(const std::type_info& stencil) {
  const auto found = table().find(std::type_index(stencil));
  return found == table().end() ? nullptr : &found->second;
}

std::uint32_t codelet_where(StageDevices devices, bool has_cuda_codelet, const char* what) {
  const bool cuda_ready = has_cuda_codelet && starpu_cuda_worker_get_count() > 0;
  switch (devices) {
    case StageDevices::automatic: return cuda_ready ? STARPU_CUDA : STARPU_CPU;
    case StageDevices::cpu: return STARPU_CPU;
    case StageDevices::gpu:
      if (!cuda_ready) {
        throw Error(std::string("devices gpu: ") +
                    (has_cuda_codelet ? "StarPU found no CUDA worker (no GPU, or STARPU_NCUDA=0)"
                                      : std::string("this program has no CUDA codelets for the ") + what +
                                            " (built without nvcc?)"));
      }
      return STARPU_CUDA;
    case StageDevices::all: return cuda_ready ? (STARPU_CPU | STARPU_CUDA) : STARPU_CPU;
  }
  return STARPU_CPU;
}

}  // namespace trapeze
