/* Trapeze (scripts/setup.sh, patch_cuda_memory_pool): device buffers from the
 * device's stream-ordered pool. A free returns the buffer to the pool on the
 * allocator's own stream instead of waiting for the whole device as cudaFree
 * does; StarPU frees a buffer only once no task or transfer uses it. */
static int trapeze_pool_state = -1;
static cudaStream_t trapeze_pool_streams[STARPU_MAXCUDADEVS];
static starpu_pthread_mutex_t trapeze_pool_mutex = STARPU_PTHREAD_MUTEX_INITIALIZER;

static int trapeze_pool_on(void)
{
	if (trapeze_pool_state < 0)
	{
		const char *value = getenv("TRAPEZE_CUDA_POOL");
		trapeze_pool_state = !(value && value[0] == '0');
	}
	return trapeze_pool_state;
}

/* The device's allocation stream; the first call keeps the pool's memory
 * (no release threshold) and opens it to the GPUs that can reach it. */
static cudaStream_t trapeze_pool_stream(unsigned devid)
{
	cudaStream_t stream;
	STARPU_PTHREAD_MUTEX_LOCK(&trapeze_pool_mutex);
	if (!trapeze_pool_streams[devid])
	{
		cudaMemPool_t pool;
		uint64_t keep = UINT64_MAX;
		int count = 0, peer;
		cudaError_t status = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
		if (status != cudaSuccess) STARPU_CUDA_REPORT_ERROR(status);
		status = cudaDeviceGetDefaultMemPool(&pool, devid);
		if (status != cudaSuccess) STARPU_CUDA_REPORT_ERROR(status);
		status = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
		if (status != cudaSuccess) STARPU_CUDA_REPORT_ERROR(status);
		cudaGetDeviceCount(&count);
		for (peer = 0; peer < count; peer++)
		{
			int can = 0;
			struct cudaMemAccessDesc access;
			if (peer == (int) devid || cudaDeviceCanAccessPeer(&can, peer, devid) != cudaSuccess || !can)
				continue;
			memset(&access, 0, sizeof(access));
			access.location.type = cudaMemLocationTypeDevice;
			access.location.id = peer;
			access.flags = cudaMemAccessFlagsProtReadWrite;
			status = cudaMemPoolSetAccess(pool, &access, 1);
			if (status != cudaSuccess) STARPU_CUDA_REPORT_ERROR(status);
		}
		trapeze_pool_streams[devid] = stream;
	}
	stream = trapeze_pool_streams[devid];
	STARPU_PTHREAD_MUTEX_UNLOCK(&trapeze_pool_mutex);
	return stream;
}

/* The device is current (starpu_cuda_set_device). Out of memory the pool
 * gives back what it keeps and tries once more; the error is cleared, so
 * that the next kernel launch on this thread does not report it. */
static cudaError_t trapeze_cuda_malloc(void **addr, size_t size, unsigned devid)
{
	cudaStream_t stream;
	cudaError_t status;
	if (!trapeze_pool_on())
		return cudaMalloc(addr, size);
	stream = trapeze_pool_stream(devid);
	status = cudaMallocAsync(addr, size, stream);
	if (status == cudaErrorMemoryAllocation)
	{
		cudaMemPool_t pool;
		(void) cudaGetLastError();
		cudaStreamSynchronize(stream);
		if (cudaDeviceGetDefaultMemPool(&pool, devid) == cudaSuccess)
			cudaMemPoolTrimTo(pool, 0);
		status = cudaMallocAsync(addr, size, stream);
	}
	if (status == cudaSuccess)
		status = cudaStreamSynchronize(stream);
	else
		(void) cudaGetLastError();
	return status;
}

static cudaError_t trapeze_cuda_free(void *addr, unsigned devid)
{
	if (!trapeze_pool_on())
		return cudaFree(addr);
	return cudaFreeAsync(addr, trapeze_pool_stream(devid));
}
