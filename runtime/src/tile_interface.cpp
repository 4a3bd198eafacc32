#include "trapeze/tile_interface.hpp"

#include <cstdio>
#include <cstring>

namespace trapeze {

namespace {

TileBuffers* as_tile(void* data_interface) { return static_cast<TileBuffers*>(data_interface); }

// Nodes that hold one buffer: main memory, and a disk node (where an
// out-of-core run's tiles rest, only ever copied to and from main memory).
bool is_host(unsigned node) {
  const starpu_node_kind kind = starpu_node_get_kind(node);
  return kind == STARPU_CPU_RAM || kind == STARPU_DISK_RAM;
}

std::size_t buffer_bytes(const TileBuffers& t) {
  return static_cast<std::size_t>(t.buffer_cells) * static_cast<std::size_t>(t.element_size);
}

// What a node allocates: one buffer on the host, two on a device.
std::size_t node_bytes(const TileBuffers& t, unsigned node) {
  if (is_host(node)) return buffer_bytes(t);
  return static_cast<std::size_t>(t.buffer_stride + t.buffer_cells) * static_cast<std::size_t>(t.element_size);
}

void register_tile_handle(starpu_data_handle_t handle, int home_node, void* data_interface) {
  const TileBuffers* source = as_tile(data_interface);
  for (int node = 0; node < STARPU_MAXNODES; ++node) {
    TileBuffers* local = as_tile(starpu_data_get_interface_on_node(handle, node));
    *local = *source;
    if (node != home_node) local->ptr = local->dev_handle = 0, local->offset = 0;
    local->current = 0;
  }
}

starpu_ssize_t allocate_tile(void* data_interface, unsigned node) {
  TileBuffers* t = as_tile(data_interface);
  const std::size_t bytes = node_bytes(*t, node);
  const std::uintptr_t address = starpu_malloc_on_node(node, bytes);
  if (!address) return -ENOMEM;
  t->ptr = t->dev_handle = address;
  t->offset = 0;
  t->buffers = is_host(node) ? 1 : 2;
  t->current = 0;
  return static_cast<starpu_ssize_t>(bytes);
}

void free_tile(void* data_interface, unsigned node) {
  TileBuffers* t = as_tile(data_interface);
  starpu_free_on_node(node, t->dev_handle, node_bytes(*t, node));
  t->ptr = t->dev_handle = 0;
}

// Keeps the allocation's pointers only: the layout fields belong to the handle.
void cache_tile(void* cached_interface, void* source_interface, unsigned) {
  std::memcpy(cached_interface, source_interface, sizeof(TileBuffers));
}
void reuse_tile(void* destination_interface, const void* cached_interface, unsigned node) {
  TileBuffers* destination = as_tile(destination_interface);
  const auto* cached = static_cast<const TileBuffers*>(cached_interface);
  destination->ptr = cached->ptr;
  destination->dev_handle = cached->dev_handle;
  destination->offset = cached->offset;
  destination->buffers = is_host(node) ? 1 : 2;
  destination->current = 0;
}

// Moves the source's current buffer into the destination's first buffer.
int copy_tile(void* source_interface, unsigned source_node, void* destination_interface, unsigned destination_node,
              void* async_data) {
  const TileBuffers* source = as_tile(source_interface);
  TileBuffers* destination = as_tile(destination_interface);
  const std::size_t source_offset = source->offset + static_cast<std::size_t>(source->current) *
                                                         static_cast<std::size_t>(source->buffer_stride) *
                                                         static_cast<std::size_t>(source->element_size);
  destination->current = 0;
  return starpu_interface_copy(source->dev_handle, source_offset, source_node, destination->dev_handle,
                               destination->offset, destination_node, buffer_bytes(*source), async_data);
}

void* tile_to_pointer(void* data_interface, unsigned) {
  return reinterpret_cast<void*>(as_tile(data_interface)->ptr);
}

std::size_t tile_size(starpu_data_handle_t handle) {
  return buffer_bytes(*as_tile(starpu_data_get_interface_on_node(handle, STARPU_MAIN_RAM)));
}

// The larger (device) allocation: StarPU's memory manager reserves and
// reclaims by this size.
std::size_t tile_alloc_size(starpu_data_handle_t handle) {
  const TileBuffers* t = as_tile(starpu_data_get_interface_on_node(handle, STARPU_MAIN_RAM));
  return static_cast<std::size_t>(t->buffer_stride + t->buffer_cells) * static_cast<std::size_t>(t->element_size);
}

uint32_t tile_footprint(starpu_data_handle_t handle) {
  const TileBuffers* t = as_tile(starpu_data_get_interface_on_node(handle, STARPU_MAIN_RAM));
  return starpu_hash_crc32c_be(static_cast<uint32_t>(t->buffer_cells),
                               starpu_hash_crc32c_be(static_cast<uint32_t>(t->buffer_cells >> 32),
                                                     static_cast<uint32_t>(t->element_size)));
}

int tile_compare(void* a, void* b) {
  return as_tile(a)->buffer_cells == as_tile(b)->buffer_cells && as_tile(a)->element_size == as_tile(b)->element_size;
}

void display_tile(starpu_data_handle_t handle, FILE* f) {
  std::fprintf(f, "%lld\t", static_cast<long long>(as_tile(starpu_data_get_interface_on_node(handle, STARPU_MAIN_RAM))->buffer_cells));
}

starpu_ssize_t describe_tile(void* data_interface, char* text, std::size_t size) {
  const TileBuffers* t = as_tile(data_interface);
  return std::snprintf(text, size, "T%lldx%d", static_cast<long long>(t->buffer_cells), t->element_size);
}

// Packing (StarPU-MPI, disk nodes) carries the latest buffer.
int pack_tile(starpu_data_handle_t handle, unsigned node, void** ptr, starpu_ssize_t* count) {
  const TileBuffers* t = as_tile(starpu_data_get_interface_on_node(handle, node));
  *count = static_cast<starpu_ssize_t>(buffer_bytes(*t));
  if (ptr) {
    *ptr = reinterpret_cast<void*>(starpu_malloc_on_node_flags(node, static_cast<std::size_t>(*count), 0));
    std::memcpy(*ptr, t->latest<char>(), static_cast<std::size_t>(*count));
  }
  return 0;
}

int peek_tile(starpu_data_handle_t handle, unsigned node, void* ptr, std::size_t count) {
  TileBuffers* t = as_tile(starpu_data_get_interface_on_node(handle, node));
  STARPU_ASSERT(count == buffer_bytes(*t));
  t->current = 0;
  std::memcpy(t->buffer<char>(0), ptr, count);
  return 0;
}

int unpack_tile(starpu_data_handle_t handle, unsigned node, void* ptr, std::size_t count) {
  peek_tile(handle, node, ptr, count);
  starpu_free_on_node_flags(node, reinterpret_cast<std::uintptr_t>(ptr), count, 0);
  return 0;
}

}  // namespace

int tile_interface_id() {
  static const int id = starpu_data_interface_get_next_id();
  return id;
}

TileInterfaceOps::TileInterfaceOps() {
  copy_methods.any_to_any = copy_tile;
  ops.register_data_handle = register_tile_handle;
  ops.allocate_data_on_node = allocate_tile;
  ops.free_data_on_node = free_tile;
  ops.cache_data_on_node = cache_tile;
  ops.reuse_data_on_node = reuse_tile;
  ops.copy_methods = &copy_methods;
  ops.to_pointer = tile_to_pointer;
  ops.get_size = tile_size;
  ops.get_alloc_size = tile_alloc_size;
  ops.footprint = tile_footprint;
  ops.alloc_footprint = tile_footprint;
  ops.compare = tile_compare;
  ops.alloc_compare = tile_compare;
  ops.display = display_tile;
  ops.describe = describe_tile;
  ops.pack_data = pack_tile;
  ops.peek_data = peek_tile;
  ops.unpack_data = unpack_tile;
  id = tile_interface_id();
  ops.interfaceid = static_cast<starpu_data_interface_id>(id);
  ops.interface_size = sizeof(TileBuffers);
  ops.name = const_cast<char*>("TRAPEZE_TILE_INTERFACE");
}

Index device_buffer_stride(Index buffer_cells, int element_size) {
  const Index bytes = buffer_cells * element_size;
  return (bytes + 255) / 256 * 256 / element_size;
}

starpu_data_handle_t register_tile(TileInterfaceOps& ops, void* home, Index buffer_cells, int element_size) {
  TileBuffers tile{};
  tile.id = ops.id;
  tile.ptr = tile.dev_handle = reinterpret_cast<std::uintptr_t>(home);
  tile.buffer_cells = buffer_cells;
  tile.buffer_stride = device_buffer_stride(buffer_cells, element_size);
  tile.element_size = element_size;
  tile.buffers = 1;
  starpu_data_handle_t handle = nullptr;
  starpu_data_register(&handle, home ? STARPU_MAIN_RAM : -1, &tile, &ops.ops);
  return handle;
}

}  // namespace trapeze
