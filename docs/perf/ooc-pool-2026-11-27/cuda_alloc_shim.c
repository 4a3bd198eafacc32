// Diagnostic LD_PRELOAD shim (not part of Trapeze): counts cudaMalloc and
// cudaFree calls and the time spent in them; with CUDA_SHIM_POOL=1 it serves
// them from the device's stream-ordered pool instead (cudaMallocAsync /
// cudaFreeAsync on a private stream, pool kept), so a free never waits for the
// device. Report on stderr at exit.
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static atomic_long n_malloc, n_free, n_free_slow, ns_malloc, ns_free, n_pool_free;
static atomic_long n_free_big;
static int pool_mode = -1;
#define MAXDEV 16
static cudaStream_t streams[MAXDEV];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
// Pool pointers: a small open-addressing set.
#define SET (1 << 16)
static uintptr_t pool_ptrs[SET];

static long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000L + t.tv_nsec;
}
static void* real(const char* name) {
  void* f = dlsym(RTLD_NEXT, name);
  if (!f) { fprintf(stderr, "shim: no %s\n", name); abort(); }
  return f;
}
static int pooled(void) {
  if (pool_mode < 0) { const char* e = getenv("CUDA_SHIM_POOL"); pool_mode = e && e[0] == '1'; }
  return pool_mode;
}
static void set_add(uintptr_t p) {
  pthread_mutex_lock(&lock);
  size_t i = (p >> 8) & (SET - 1);
  while (pool_ptrs[i] && pool_ptrs[i] != 1) i = (i + 1) & (SET - 1);
  pool_ptrs[i] = p;
  pthread_mutex_unlock(&lock);
}
static int set_remove(uintptr_t p) {
  pthread_mutex_lock(&lock);
  size_t i = (p >> 8) & (SET - 1);
  int found = 0;
  while (pool_ptrs[i]) {
    if (pool_ptrs[i] == p) { pool_ptrs[i] = 1; found = 1; break; }
    i = (i + 1) & (SET - 1);
  }
  pthread_mutex_unlock(&lock);
  return found;
}
static cudaStream_t stream_of(int dev) {
  static cudaError_t (*create)(cudaStream_t*, unsigned) = 0;
  static cudaError_t (*pool_of)(cudaMemPool_t*, int) = 0;
  static cudaError_t (*set_attr)(cudaMemPool_t, enum cudaMemPoolAttr, void*) = 0;
  if (!create) create = real("cudaStreamCreateWithFlags"), pool_of = real("cudaDeviceGetDefaultMemPool"),
               set_attr = real("cudaMemPoolSetAttribute");
  pthread_mutex_lock(&lock);
  if (!streams[dev]) {
    create(&streams[dev], cudaStreamNonBlocking);
    cudaMemPool_t pool;
    pool_of(&pool, dev);
    uint64_t keep = UINT64_MAX;
    set_attr(pool, cudaMemPoolAttrReleaseThreshold, &keep);
  }
  pthread_mutex_unlock(&lock);
  return streams[dev];
}

cudaError_t cudaMalloc(void** p, size_t size) {
  static cudaError_t (*f)(void**, size_t) = 0;
  if (!f) f = real("cudaMalloc");
  long t0 = now_ns();
  cudaError_t r;
  if (pooled() && size >= (1u << 20)) {
    static cudaError_t (*get)(int*) = 0, (*sync)(cudaStream_t) = 0;
    static cudaError_t (*amalloc)(void**, size_t, cudaStream_t) = 0;
    if (!get) get = real("cudaGetDevice"), sync = real("cudaStreamSynchronize"), amalloc = real("cudaMallocAsync");
    int dev = 0;
    get(&dev);
    cudaStream_t s = stream_of(dev);
    r = amalloc(p, size, s);
    if (r == cudaSuccess) r = sync(s), set_add((uintptr_t)*p);
  } else {
    r = f(p, size);
  }
  n_malloc++;
  ns_malloc += now_ns() - t0;
  return r;
}

cudaError_t cudaFree(void* p) {
  static cudaError_t (*f)(void*) = 0;
  if (!f) f = real("cudaFree");
  long t0 = now_ns();
  cudaError_t r;
  if (p && pooled() && set_remove((uintptr_t)p)) {
    static cudaError_t (*get)(int*) = 0, (*afree)(void*, cudaStream_t) = 0;
    if (!get) get = real("cudaGetDevice"), afree = real("cudaFreeAsync");
    int dev = 0;
    get(&dev);
    r = afree(p, stream_of(dev));
    n_pool_free++;
  } else {
    r = f(p);
  }
  long dt = now_ns() - t0;
  if (p) n_free++;
  if (dt > 100000) n_free_slow++;
  ns_free += dt;
  return r;
}

__attribute__((destructor)) static void report(void) {
  fprintf(stderr, "SHIM pool=%d cudaMalloc %ld calls %.3f ms; cudaFree %ld calls (%ld pooled) %.3f ms, %ld over 0.1 ms\n",
          pool_mode > 0, (long)n_malloc, ns_malloc / 1e6, (long)n_free, (long)n_pool_free, ns_free / 1e6, (long)n_free_slow);
}
