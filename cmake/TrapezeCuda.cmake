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
