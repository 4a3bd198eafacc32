#include "trapeze/cuda_stencils.hpp"

#include <map>
#include <typeindex>

namespace trapeze {

namespace {

std::map<std::type_index, CudaStencilFunctions>& table() {
  static std::map<std::type_index, CudaStencilFunctions> registered;
  return registered;
}

}  // namespace

bool register_cuda_stencil(const std::type_info& stencil, const CudaStencilFunctions& functions) {
  table()[std::type_index(stencil)] = functions;
  return true;
}

const CudaStencilFunctions* find_cuda_stencil(const std::type_info& stencil) {
  const auto found = table().find(std::type_index(stencil));
  return found == table().end() ? nullptr : &found->second;
}

}  // namespace trapeze
