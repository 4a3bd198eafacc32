#!/usr/bin/env bash
# One direction between the layers (docs/ARCHITECTURE.md): kernels in
# codelets/ include only the core (plain types), StarPU, CUDA and the standard
# library; core headers include no StarPU. Prints each offending line.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
core="geometry|leaning_planes|boundary|stencil_shape|neighbourhood|stencil|error|plan|tile_layout|tile_buffers|wavefront|sweep|layout|banded_layout"
status=0
while IFS= read -r line; do
  echo "codelets/ reaches above the core: $line"; status=1
done < <(grep -rnE '#include "trapeze/' "$root/codelets" | grep -vE "#include \"trapeze/($core)\.hpp\"")
for header in geometry leaning_planes boundary stencil_shape neighbourhood stencil error plan tile_layout tile_buffers wavefront wavefront_reference sweep sweep_reference layout banded_layout; do
  if grep -nE '#include [<"](starpu|trapeze/(runtime|stencil_run|tile_store|grid))' "$root/runtime/include/trapeze/$header.hpp"; then
    echo "core header $header.hpp includes StarPU or an upper layer"; status=1
  fi
done
[ $status = 0 ] && echo "layering: codelets/ sees the core only; the core sees no StarPU"
exit $status
