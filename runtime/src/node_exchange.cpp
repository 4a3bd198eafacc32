#include "trapeze/node_exchange.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>
#include <utility>

#include "trapeze/cuda_ipc.hpp"
#include "trapeze/distributed_data.hpp"
#include "trapeze/error.hpp"
#include "trapeze/runtime.hpp"

namespace trapeze {

namespace {

// Mailboxes start on whole cache lines and GPU memory transactions.
constexpr std::size_t mailbox_alignment = 256;

// Buffers: post {strip R, emptied R, filled W}; take {filled R, received W, emptied W}.
MailboxCopyArgs unpacked(void* cl_arg) {
  MailboxCopyArgs args;
  starpu_codelet_unpack_args(cl_arg, &args);
  return args;
}

void post_cpu(void* buffers[], void* cl_arg) {
  const MailboxCopyArgs args = unpacked(cl_arg);
  std::memcpy(args.mailbox, reinterpret_cast<const void*>(STARPU_VECTOR_GET_PTR(buffers[0])), args.bytes);
}

void take_cpu(void* buffers[], void* cl_arg) {
  const MailboxCopyArgs args = unpacked(cl_arg);
  std::memcpy(reinterpret_cast<void*>(STARPU_VECTOR_GET_PTR(buffers[1])), args.mailbox, args.bytes);
}

#ifdef STARPU_USE_CUDA
// On the worker's stream (STARPU_CUDA_ASYNC: the task ends when the copy
// has). A mailbox mapped from another GPU is an ordinary device pointer here
// (unified addressing): the copy crosses NVLink.
void post_cuda(void* buffers[], void* cl_arg) {
  const MailboxCopyArgs args = unpacked(cl_arg);
  const unsigned node = starpu_worker_get_local_memory_node();
  starpu_cuda_copy_async_sync(reinterpret_cast<void*>(STARPU_VECTOR_GET_PTR(buffers[0])), node, args.mailbox,
                              args.mailbox_on_device ? node : STARPU_MAIN_RAM, args.bytes, starpu_cuda_get_local_stream(),
                              args.mailbox_on_device ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost);
}

void take_cuda(void* buffers[], void* cl_arg) {
  const MailboxCopyArgs args = unpacked(cl_arg);
  const unsigned node = starpu_worker_get_local_memory_node();
  starpu_cuda_copy_async_sync(args.mailbox, args.mailbox_on_device ? node : STARPU_MAIN_RAM,
                              reinterpret_cast<void*>(STARPU_VECTOR_GET_PTR(buffers[1])), node, args.bytes,
                              starpu_cuda_get_local_stream(),
                              args.mailbox_on_device ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice);
}
#endif

std::unique_ptr<starpu_codelet> copy_codelet(const char* name, starpu_cpu_func_t cpu, [[maybe_unused]] starpu_cuda_func_t cuda,
                                             std::array<starpu_data_access_mode, 3> modes, NodeExchangeMode mode) {
  auto codelet = std::make_unique<starpu_codelet>();
  starpu_codelet_init(codelet.get());
  codelet->name = name;
  codelet->nbuffers = 3;
  for (int b = 0; b < 3; ++b) codelet->modes[b] = modes[static_cast<std::size_t>(b)];
  codelet->where = 0;
  if (mode == NodeExchangeMode::host) {
    codelet->cpu_funcs[0] = cpu;
    codelet->where |= STARPU_CPU;
  }
#ifdef STARPU_USE_CUDA
  if (starpu_cuda_worker_get_count() > 0) {
    codelet->cuda_funcs[0] = cuda;
    codelet->cuda_flags[0] = STARPU_CUDA_ASYNC;
    codelet->where |= STARPU_CUDA;
  }
#endif
  return codelet;
}

// The one CUDA worker's device, or -1 when this process has none or several.
int only_cuda_device() {
  int device = -1, found = 0;
  for (unsigned w = 0; w < starpu_worker_get_count(); ++w) {
    if (starpu_worker_get_type(static_cast<int>(w)) != STARPU_CUDA_WORKER) continue;
    device = starpu_worker_get_devid(static_cast<int>(w));
    ++found;
  }
  return found == 1 ? device : -1;
}

int minimum_over_ranks(int value) {
  int least = value;
  MPI_Allreduce(&value, &least, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return least;
}

}  // namespace

const char* to_string(NodeExchangeMode mode) {
  switch (mode) {
    case NodeExchangeMode::mpi: return "mpi";
    case NodeExchangeMode::host: return "host";
    case NodeExchangeMode::device: return "device";
  }
  return "?";
}

namespace {

// TRAPEZE_NODE_EXCHANGE's value ("" when unset).
std::string asked_by_environment() {
  const char* value = std::getenv("TRAPEZE_NODE_EXCHANGE");
  return value ? value : "";
}

}  // namespace

NodeExchangeMode node_exchange_asked(bool gpu_only) {
  const std::string asked = asked_by_environment();
  if (asked == "mpi") return NodeExchangeMode::mpi;
  if (asked == "host") return NodeExchangeMode::host;
  if (asked == "device") return NodeExchangeMode::device;
  if (!asked.empty() && asked != "auto") {
    throw InvalidArgument("TRAPEZE_NODE_EXCHANGE must be mpi, host, device or auto, got '" + asked + "'");
  }
  return gpu_only && only_cuda_device() >= 0 && find_cuda_ipc() ? NodeExchangeMode::device : NodeExchangeMode::mpi;
}

// The mailboxes of the node's ranks as this process maps them, and what
// frees them: collective (every rank of the node) both ways.
struct NodeExchange::Memory {
  NodeExchangeMode mode = NodeExchangeMode::mpi;
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Win window = MPI_WIN_NULL;
  int device = -1;
  void* own_device_mailboxes = nullptr;
  std::vector<void*> base_of_rank;                    // per world rank, null where not mapped
  std::vector<std::pair<void*, std::size_t>> pinned;  // host segments registered with CUDA
  std::vector<void*> opened;                          // other ranks' GPU memory mapped here

  ~Memory() {
    for (auto [address, bytes] : pinned) starpu_memory_unpin(address, bytes);
    if (window != MPI_WIN_NULL) {
      MPI_Barrier(node);  // every rank's takes have read their mailboxes
      MPI_Win_free(&window);
    }
    if (const CudaIpcFunctions* ipc = find_cuda_ipc()) {
      for (void* mapped : opened) ipc->close_shared(device, mapped);
      // No rank frees its memory before the others have unmapped it.
      if (node != MPI_COMM_NULL) MPI_Barrier(node);
      if (own_device_mailboxes) ipc->free_shared(device, own_device_mailboxes);
    }
    if (node != MPI_COMM_NULL) MPI_Comm_free(&node);
  }
};

NodeExchange::NodeExchange() = default;
NodeExchange::~NodeExchange() = default;
NodeExchange::NodeExchange(NodeExchange&&) noexcept = default;
NodeExchange& NodeExchange::operator=(NodeExchange&&) noexcept = default;

NodeExchange::NodeExchange(Runtime& runtime, const HaloLayout& halo, const TileOwners& owners,
                           const std::vector<std::size_t>& cells, std::size_t element_size, bool gpu_only)
    : rank_(owners.rank) {
  const NodeExchangeMode asked = node_exchange_asked(gpu_only);
  // Every rank settles on the least mode any rank can have (the handles each
  // registers depend on it); a mode asked by name and not had fails on all.
  const bool named = !asked_by_environment().empty() && asked_by_environment() != "auto";
  int possible = static_cast<int>(asked);
  if (asked == NodeExchangeMode::device && (!gpu_only || only_cuda_device() < 0 || !find_cuda_ipc())) possible = 0;
  const auto agreed = static_cast<NodeExchangeMode>(minimum_over_ranks(possible));
  if (named && agreed != asked) {
    throw Error(std::string("TRAPEZE_NODE_EXCHANGE=") + to_string(asked) +
                ": not every rank can (device needs one CUDA worker a rank, tiles on GPUs only, and a program "
                "with CUDA stencils); got " + to_string(agreed));
  }
  if (agreed == NodeExchangeMode::mpi) return;

  auto memory = std::make_unique<Memory>();
  memory->mode = agreed;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, owners.rank, MPI_INFO_NULL, &memory->node);
  int world_size = 1, node_size = 1, node_rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  MPI_Comm_size(memory->node, &node_size);
  MPI_Comm_rank(memory->node, &node_rank);
  // Ranks of this node (by node rank), and each world rank's node (its first rank).
  std::vector<int> node_members(static_cast<std::size_t>(node_size));
  MPI_Allgather(&owners.rank, 1, MPI_INT, node_members.data(), 1, MPI_INT, memory->node);
  const int first_of_node = node_members.front();
  std::vector<int> node_of_rank(static_cast<std::size_t>(world_size));
  MPI_Allgather(&first_of_node, 1, MPI_INT, node_of_rank.data(), 1, MPI_INT, MPI_COMM_WORLD);

  // The moved pieces and their mailboxes' places, the same on every rank.
  pieces_.assign(halo.pieces.size(), -1);
  std::vector<std::size_t> mailbox_bytes(static_cast<std::size_t>(world_size), 0);
  std::vector<std::pair<std::size_t, std::size_t>> places;  // (offset, bytes) per moved piece and version
  for (std::size_t i = 0; i < halo.pieces.size(); ++i) {
    const int producer = owners.owner(halo.pieces[i].producer), consumer = owners.owner(halo.pieces[i].consumer);
    if (producer == consumer || node_of_rank[static_cast<std::size_t>(producer)] != node_of_rank[static_cast<std::size_t>(consumer)]) {
      continue;
    }
    pieces_[i] = moved_count_++;
    producer_rank_.push_back(producer);
    consumer_rank_.push_back(consumer);
    for (int version = 0; version < 2; ++version) {
      std::size_t& end = mailbox_bytes[static_cast<std::size_t>(producer)];
      places.emplace_back(end, cells[i] * element_size);
      end += (cells[i] * element_size + mailbox_alignment - 1) / mailbox_alignment * mailbox_alignment;
    }
  }
  if (moved_count_ == 0) {
    pieces_.clear();
    return;
  }
  memory->base_of_rank.assign(static_cast<std::size_t>(world_size), nullptr);
  const std::size_t own_bytes = mailbox_bytes[static_cast<std::size_t>(owners.rank)];

  if (agreed == NodeExchangeMode::host) {
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");  // each rank's segment on its own pages
    void* own = nullptr;
    MPI_Win_allocate_shared(static_cast<MPI_Aint>(own_bytes), 1, info, memory->node, &own, &memory->window);
    MPI_Info_free(&info);
    for (int q = 0; q < node_size; ++q) {
      MPI_Aint size = 0;
      int unit = 1;
      void* base = nullptr;
      MPI_Win_shared_query(memory->window, q, &size, &unit, &base);
      memory->base_of_rank[static_cast<std::size_t>(node_members[static_cast<std::size_t>(q)])] = base;
      // Copies between a GPU and pinned memory run asynchronously, at full speed.
      if (size > 0 && starpu_cuda_worker_get_count() > 0 && starpu_memory_pin(base, static_cast<std::size_t>(size)) == 0) {
        memory->pinned.emplace_back(base, static_cast<std::size_t>(size));
      }
    }
  } else {
    const CudaIpcFunctions& ipc = *find_cuda_ipc();
    memory->device = only_cuda_device();
    struct Shared {
      CudaIpcHandle handle{};
      int has_memory = 0;
    } own{};
    if (own_bytes > 0) {
      memory->own_device_mailboxes = ipc.allocate_shared(memory->device, own_bytes, own.handle);
      own.has_memory = 1;
    }
    memory->base_of_rank[static_cast<std::size_t>(owners.rank)] = memory->own_device_mailboxes;
    std::vector<Shared> shared(static_cast<std::size_t>(node_size));
    MPI_Allgather(&own, sizeof own, MPI_BYTE, shared.data(), sizeof own, MPI_BYTE, memory->node);
    std::vector<bool> read_from(static_cast<std::size_t>(world_size), false);
    for (int m = 0; m < moved_count_; ++m) {
      if (consumer_rank_[static_cast<std::size_t>(m)] == owners.rank) read_from[static_cast<std::size_t>(producer_rank_[static_cast<std::size_t>(m)])] = true;
    }
    bool mapped_all = true;
    for (int q = 0; q < node_size; ++q) {
      const int rank = node_members[static_cast<std::size_t>(q)];
      if (!read_from[static_cast<std::size_t>(rank)] || !shared[static_cast<std::size_t>(q)].has_memory) continue;
      void* mapped = ipc.open_shared(memory->device, shared[static_cast<std::size_t>(q)].handle);
      if (!mapped) {
        mapped_all = false;
        continue;
      }
      memory->opened.push_back(mapped);
      memory->base_of_rank[static_cast<std::size_t>(rank)] = mapped;
    }
    if (minimum_over_ranks(mapped_all ? 1 : 0) == 0) {
      memory.reset();  // unmaps and frees on every rank
      if (named) throw Error("TRAPEZE_NODE_EXCHANGE=device: CUDA IPC could not map another rank's GPU memory "
                             "(no peer access between the GPUs?)");
      pieces_.clear();
      producer_rank_.clear();
      consumer_rank_.clear();
      moved_count_ = 0;
      return;
    }
  }
  mode_ = agreed;
  memory_ = std::move(memory);

  post_codelet_ = copy_codelet("post", &post_cpu,
#ifdef STARPU_USE_CUDA
                               &post_cuda,
#else
                               nullptr,
#endif
                               {STARPU_R, STARPU_R, STARPU_W}, mode_);
  take_codelet_ = copy_codelet("take", &take_cpu,
#ifdef STARPU_USE_CUDA
                               &take_cuda,
#else
                               nullptr,
#endif
                               {STARPU_R, STARPU_W, STARPU_W}, mode_);

  std::int64_t tag = runtime.reserve_tags(6 * static_cast<std::int64_t>(moved_count_));
  slots_.resize(2 * static_cast<std::size_t>(moved_count_));
  for (std::size_t i = 0; i < halo.pieces.size(); ++i) {
    if (pieces_[i] < 0) continue;
    const auto m = static_cast<std::size_t>(pieces_[i]);
    for (std::size_t version = 0; version < 2; ++version) {
      Slot& s = slots_[2 * m + version];
      std::tie(s.offset, s.bytes) = places[2 * m + version];
      s.received = DataHandle::vector(nullptr, cells[i], element_size, false);
      register_distributed(s.received.get(), tag++, consumer_rank_[m]);
      for (auto [handle, owner] : {std::pair{&s.filled, producer_rank_[m]}, std::pair{&s.emptied, consumer_rank_[m]}}) {
        starpu_data_handle_t h = nullptr;
        starpu_void_data_register(&h);
        *handle = DataHandle(h, false);
        register_distributed(h, tag++, owner);
      }
    }
  }
}

void* NodeExchange::mailbox(int rank, std::size_t offset) const {
  void* base = memory_->base_of_rank[static_cast<std::size_t>(rank)];
  return base ? static_cast<char*>(base) + offset : nullptr;
}

NodeExchange::Task NodeExchange::post(int piece, int version, starpu_data_handle_t strip) const {
  const Slot& s = slot(piece, version);
  const int producer = producer_rank_[static_cast<std::size_t>(pieces_[static_cast<std::size_t>(piece)])];
  return {post_codelet_.get(),
          {{{strip, STARPU_R}, {s.emptied.get(), STARPU_R}, {s.filled.get(), STARPU_W}}},
          {producer == rank_ ? mailbox(producer, s.offset) : nullptr, s.bytes, mode_ == NodeExchangeMode::device},
          producer};
}

NodeExchange::Task NodeExchange::take(int piece, int version) const {
  const Slot& s = slot(piece, version);
  const auto m = static_cast<std::size_t>(pieces_[static_cast<std::size_t>(piece)]);
  const int producer = producer_rank_[m], consumer = consumer_rank_[m];
  return {take_codelet_.get(),
          {{{s.filled.get(), STARPU_R}, {s.received.get(), STARPU_W}, {s.emptied.get(), STARPU_W}}},
          {consumer == rank_ ? mailbox(producer, s.offset) : nullptr, s.bytes, mode_ == NodeExchangeMode::device},
          consumer};
}

}  // namespace trapeze
