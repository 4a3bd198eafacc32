#!/usr/bin/env bash
# Installs everything Trapeze needs on a fresh Debian bookworm machine and builds
# StarPU 1.4 (with CUDA when nvcc exists, always with StarPU-MPI) into .deps/starpu.
# Idempotent: with everything present it returns in seconds.
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps_dir="$repo_root/.deps"
starpu_prefix="$deps_dir/starpu"
stamp="$starpu_prefix/.trapeze-built"

packages=(
  build-essential cmake pkg-config dpkg-dev ca-certificates
  libhwloc-dev libopenmpi-dev openmpi-bin libglpk-dev libnuma-dev libltdl-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev libpng-dev libhdf5-dev hdf5-tools python3-h5py libparasail-dev
  libfxt-dev
  python3 python3-matplotlib
)

say() { printf 'setup: %s\n' "$*"; }

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

install_packages() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -qq
  as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Debian bookworm ships StarPU 1.3 only; 1.4's source comes from the unstable suite
# through a private apt configuration so the system's sources stay untouched.
fetch_starpu_source() {
  local work="$deps_dir/src"
  if ls -d "$work"/starpu-1.4*/ >/dev/null 2>&1; then return 0; fi
  mkdir -p "$work/lists/partial" "$work/apt"
  cat >"$work/apt/sid-src.sources" <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: sid
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  local opts=(-o "Dir::Etc::SourceList=$work/apt/sid-src.sources" -o Dir::Etc::SourceParts=/dev/null
              -o "Dir::State::Lists=$work/lists")
  say "fetching StarPU source from Debian unstable"
  apt-get "${opts[@]}" update -qq
  (cd "$work" && apt-get "${opts[@]}" source --download-only starpu >/dev/null)
  local orig
  orig=$(ls "$work"/starpu_1.4*.orig.tar.* | head -n 1)
  [ -n "$orig" ] || { echo "setup: no StarPU 1.4 source found in Debian unstable" >&2; exit 1; }
  tar -C "$work" -xf "$orig"
  local dir
  dir=$(ls -d "$work"/starpu-1.4*/ | head -n 1)
  [ -d "$dir" ] || { echo "setup: unpacked StarPU source not found under $work" >&2; exit 1; }
}

# CUDA 13 removed cudaDeviceProp::computeMode; read the attribute instead, only where
# the old pattern is still present (a newer StarPU may have fixed it).
patch_for_cuda13() {
  local src=$1 f
  for f in "$src"/src/drivers/cuda/driver_cuda.c "$src"/src/drivers/cuda/driver_cuda1.c; do
    [ -f "$f" ] || continue
    grep -q 'props\[devid\]\.computeMode' "$f" || continue
    say "patching $(basename "$f") for CUDA 13 (computeMode)"
    perl -0pi -e 's/props\[devid\]\.computeMode/trapeze_compute_mode(devid)/g' "$f"
    perl -0pi -e 's/(#include <starpu.h>\n)/$1\nstatic int trapeze_compute_mode(int devid)\n{\n\tint mode = 0;\n\tcudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, devid);\n\treturn mode;\n}\n/' "$f"
  done
}

# With blocking drivers StarPU 1.4 sets every CUDA worker's pipeline
# (STARPU_CUDA_PIPELINE, default 2) to 0: each task's kernel is waited for
# with cudaStreamSynchronize before the worker takes the next task and
# starts its transfers, so out-of-core uploads and write-backs no longer
# overlap the kernels. The driver needs no such limit: a worker with tasks in
# flight never goes to sleep (driver_common.c counts them as executing), it
# polls their events as a polling build does, and sleeps only when idle. On an
# H100, jacobi2d 16384² under a 256 MiB cap ran 1.37x faster with the limit
# removed (0.71 s against 0.97), as fast as a polling build, with in-core and
# whole runs unchanged (docs/PERF.md, 2026-11-27).
patch_cuda_pipeline() {
  local f=$1/src/drivers/cuda/driver_cuda.c
  [ -f "$f" ] && grep -q 'reducing STARPU_CUDA_PIPELINE to 0 because blocking drivers' "$f" || return 0
  say "patching driver_cuda.c: CUDA workers keep their pipeline with blocking drivers"
  perl -0pi -e 's/#if !defined\(STARPU_SIMGRID\) && !defined\(STARPU_NON_BLOCKING_DRIVERS\)\n\t\tif \(worker->pipeline_length >= 1\)\n.*?#endif\n/\t\t\/* Trapeze: the pipeline is kept with blocking drivers (scripts\/setup.sh). *\/\n/s' "$f"
  ! grep -q 'reducing STARPU_CUDA_PIPELINE to 0 because blocking drivers' "$f" \
    || { echo "setup: could not patch $f (the CUDA pipeline under blocking drivers)" >&2; exit 1; }
}

# StarPU frees a device buffer with cudaFree, which waits for the whole
# device: under a memory cap (STARPU_LIMIT_CUDA_MEM) its memory manager frees
# and allocates all the time (tiles, read-only fields and strips of different
# sizes evict each other), and every free drains the kernels and transfers in
# flight. Device buffers now come from the device's stream-ordered pool
# (cudaMallocAsync / cudaFreeAsync on a stream of the allocator's own), which
# keeps freed memory for the next allocation and never waits for the device;
# other GPUs get access to it as StarPU's peer copies need. On an H100,
# capped to a quarter of their domains, CIP 16384² ran 1.12x faster, Himeno L
# 1.24x and jacobi2d 16384² 1.15x; in core and on two GPUs nothing changed
# (docs/PERF.md, 2026-11-27). TRAPEZE_CUDA_POOL=0 at run time goes back to
# cudaMalloc / cudaFree.
# The C it inserts before StarPU's allocator: scripts/starpu/cuda_memory_pool.c.
patch_cuda_memory_pool() {
  local f=$1/src/drivers/cuda/driver_cuda.c
  [ -f "$f" ] || return 0
  grep -q 'trapeze_cuda_malloc' "$f" && return 0
  say "patching driver_cuda.c: device buffers from the stream-ordered pool"
  HELPERS=$(cat "$repo_root/scripts/starpu/cuda_memory_pool.c") perl -0pi -e 's/(static uintptr_t _starpu_cuda_malloc_on_node\(unsigned dst_node, size_t size, int flags\)\n\{)/$ENV{HELPERS}\n$1/' "$f"
  # The free-memory test sees the pool's kept memory as used: the pool
  # answers for itself (out of memory: cudaErrorMemoryAllocation as before).
  perl -0pi -e 's/if \(status == cudaSuccess && cuda_mem_free \* FREE_MARGIN < size\)/if (!trapeze_pool_on() && status == cudaSuccess && cuda_mem_free * FREE_MARGIN < size)/' "$f"
  perl -0pi -e 's/status = cudaMalloc\(\(void \*\*\)&addr, size\);/status = trapeze_cuda_malloc((void **)&addr, size, devid);/' "$f"
  perl -0pi -e 's/(unsigned devid = starpu_memory_node_get_devid\(dst_node\);\n(?:.*\n){1,8}?\terr = )cudaFree\(\(void\*\)addr\);/${1}trapeze_cuda_free((void*)addr, devid);/' "$f"
  [ "$(grep -c 'trapeze_cuda_malloc((void \*\*)&addr\|trapeze_cuda_free((void\*)addr, devid)\|!trapeze_pool_on() && status' "$f")" = 3 ] \
    || { echo "setup: could not patch $f (device buffers from the stream-ordered pool)" >&2; exit 1; }
}

# Memory nodes: RAM, up to 8 GPUs, a disk node for out-of-core runs and NUMA
# nodes fit in 16. Every data handle holds arrays of MAXNODES x MAXNODES
# request pointers: with 32 a handle took ~21 KB and a 50x50 grid of 1x1 tiles
# 1.18 GB; with 16, 7.6 KB and 0.60 GB (docs/PERF.md).
# Blocking drivers: an idle worker sleeps until a task is pushed for it
# instead of polling its core (configure's default). Polling workers took
# half of every core the grid copies' helper threads ran on: on two H200s
# jacobi2d 49152² (1024 steps) ran 1.30x faster on one GPU and jacobi3d
# 1024³ 1.46x, and CPU-only runs on 2 cores did not change (docs/PERF.md,
# 2026-11-26).
# The stamp holds the build's signature: a changed set of options (FxT was
# added in the production issue) rebuilds StarPU instead of keeping a stale one.
starpu_signature="starpu-1.4 cuda=$(command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ] && echo yes || echo no) mpi=yes fxt=yes maxnodes=16 blocking-drivers cuda-pipeline cuda-pool"

build_starpu() {
  [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$starpu_signature" ] && return 0
  fetch_starpu_source
  local src
  src=$(ls -d "$deps_dir"/src/starpu-1.4*/ | head -n 1)
  src=${src%/}
  local cuda_flags=(--disable-cuda)
  if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
    cuda_flags=(--enable-cuda --with-cuda-dir=/usr/local/cuda --enable-maxcudadev=8)
    patch_for_cuda13 "$src"
    patch_cuda_pipeline "$src"
    patch_cuda_memory_pool "$src"
  fi
  local build="$deps_dir/build-starpu"
  rm -rf "$build" && mkdir -p "$build"
  say "configuring StarPU ($(basename "$src"), ${cuda_flags[0]})"
  (cd "$build" && "$src/configure" --prefix="$starpu_prefix" "${cuda_flags[@]}" \
      --disable-opencl --disable-hip --disable-build-doc --disable-build-examples \
      --disable-build-tests --disable-fortran --disable-starpupy --disable-socl \
      --disable-starpufft --disable-starpurm --disable-julia --enable-fxt \
      --enable-maxcpus=256 --enable-maxnodes=16 --enable-mpi --enable-blocking-drivers >"$build/configure.log" 2>&1) \
    || { echo "setup: StarPU configure failed, see $build/configure.log" >&2; exit 1; }
  say "building StarPU (a few minutes)"
  # A top-level make fails in sc_hypervisor/examples; build only what we link.
  local jobs
  jobs=$(nproc)
  for sub in min-dgels src mpi tools sc_hypervisor/src; do
    [ -d "$build/$sub" ] || continue
    make -C "$build/$sub" -j"$jobs" >"$build/make-${sub//\//_}.log" 2>&1 \
      || { echo "setup: StarPU build failed in $sub, see $build/make-${sub//\//_}.log" >&2; exit 1; }
    make -C "$build/$sub" install >>"$build/make-${sub//\//_}.log" 2>&1
  done
  # the pkg-config files and headers live at the top of the build tree
  make -C "$build" install-pkgconfigDATA install-versincludeHEADERS install-nodist_versincludeHEADERS \
    >"$build/make-top.log" 2>&1 || { echo "setup: StarPU header install failed, see $build/make-top.log" >&2; exit 1; }
  [ -f "$starpu_prefix/lib/pkgconfig/starpu-1.4.pc" ] && [ -f "$starpu_prefix/include/starpu/1.4/starpu_config.h" ] \
    || { echo "setup: StarPU installed no starpu-1.4.pc under $starpu_prefix" >&2; exit 1; }
  grep -q '^#define STARPU_NON_BLOCKING_DRIVERS' "$starpu_prefix/include/starpu/1.4/starpu_config.h" \
    && { echo "setup: StarPU was built with polling (non-blocking) drivers, see $build/configure.log" >&2; exit 1; }
  [ -x "$starpu_prefix/bin/starpu_fxt_tool" ] \
    || { echo "setup: StarPU was built without FxT (no starpu_fxt_tool), see $build/configure.log" >&2; exit 1; }
  echo "$starpu_signature" >"$stamp"
  say "StarPU installed in $starpu_prefix"
}

install_packages
build_starpu
