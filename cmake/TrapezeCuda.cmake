# trapeze_add_cuda_stencils(<target> <file.cu>...)
#
# Adds .cu files that hold TRAPEZE_CUDA_STENCIL(...) lines to a target, so its
# stencils also run on CUDA workers. Where no CUDA compiler exists the files are
# skipped and the target runs its stencils on CPU workers only.
#
# The kernels are built for TRAPEZE_CUDA_ARCHITECTURES (default 90: H100/H200)
# with -fmad=false: no fused multiply-add contraction, the same rounding as the
# host build (-ffp-contract=off), so a GPU run equals the sequential reference
# bit for bit in every app (set TRAPEZE_CUDA_FMAD=ON to trade that for speed).
function(trapeze_add_cuda_stencils target)
  if(NOT CMAKE_CUDA_COMPILER)
    return()
  endif()
  target_sources(${target} PRIVATE ${ARGN})
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr $<$<NOT:$<BOOL:${TRAPEZE_CUDA_FMAD}>>:-fmad=false>>)
  set_property(TARGET ${target} PROPERTY CUDA_ARCHITECTURES ${TRAPEZE_CUDA_ARCHITECTURES})
  set_property(TARGET ${target} PROPERTY CUDA_RUNTIME_LIBRARY Shared)
  target_compile_definitions(${target} PRIVATE TRAPEZE_HAS_CUDA_STENCILS=1)
endfunction()

# trapeze_cuda_stencil_objects(<name> <file.cu>...) and
# trapeze_link_cuda_stencil_objects(<target> <name>)
#
# The same for .cu files that several programs share: compiled once into an
# object library <name>, then linked into each <target> (a file of ten
# stencils' kernels takes minutes to compile; three suites take it).
function(trapeze_cuda_stencil_objects name)
  if(NOT CMAKE_CUDA_COMPILER)
    return()
  endif()
  add_library(${name} OBJECT ${ARGN})
  target_link_libraries(${name} PRIVATE trapeze::trapeze)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/apps ${PROJECT_SOURCE_DIR})
  trapeze_add_cuda_stencils(${name})
endfunction()

function(trapeze_link_cuda_stencil_objects target name)
  if(NOT CMAKE_CUDA_COMPILER)
    return()
  endif()
  target_link_libraries(${target} PRIVATE ${name})
  trapeze_add_cuda_stencils(${target})  # its own .cu files, if any, get the same flags
  # The objects call the CUDA runtime: link as a target with .cu sources of its own would.
  set_property(TARGET ${target} PROPERTY LINKER_LANGUAGE CUDA)
endfunction()
