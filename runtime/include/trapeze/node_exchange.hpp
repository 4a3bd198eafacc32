#pragma once
// Halo pieces between MPI ranks of one node, moved through memory both ranks
// map instead of through MPI. Without it a piece a GPU of rank P publishes for
// a tile of rank C on the same node goes GPU -> host -> MPI's shared memory
// (copied in and out by one progress thread a rank) -> host -> GPU: on four
// H200s a 48.8 MB strip of jacobi3d 2016^3 took that trip at about 4 GB/s
// (docs/SCALING.md's fit), and four ranks ran 1.39x one GPU where one process
// with four GPUs ran 3.73x; through the mailboxes below, 3.43x.
//
// Each rank holds a mailbox for every piece (and version) it sends to another
// rank of its node: in its GPU's memory, which the consumer maps by CUDA IPC
// and reads over NVLink (`device`), or in a shared-memory window of the node
// (`host`, any worker). A piece then takes two small tasks per stage:
//   post, on P:  strip (R), emptied (R)  -> mailbox,  filled (W)
//   take, on C:  filled (R), mailbox     -> received (W), emptied (W)
// `filled` and `emptied` are StarPU void handles that carry no bytes:
// StarPU-MPI sends them as zero-byte messages, which order a take after its
// post and the next post into the same mailbox (two stages later: pieces have
// two versions) after that take. The consumer's stages read `received`
// instead of the producer's strip, so StarPU-MPI never moves the strip.
//
// Every rank builds the same NodeExchange for a run (same pieces, same mode,
// same tags); construction and destruction are collective over the ranks.
#include <starpu.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "trapeze/data_handle.hpp"
#include "trapeze/halo_pieces.hpp"
#include "trapeze/tile_owners.hpp"

namespace trapeze {

class Runtime;

enum class NodeExchangeMode {
  mpi,     // every piece between ranks goes through StarPU-MPI
  host,    // pieces between ranks of a node through a shared host window
  device,  // through GPU memory mapped by CUDA IPC (one GPU a rank, tiles on GPUs only)
};
const char* to_string(NodeExchangeMode mode);

// TRAPEZE_NODE_EXCHANGE: mpi, host, device, or auto (unset): device where
// every rank runs its tiles on exactly one GPU and the program registered
// CUDA IPC (trapeze/cuda_ipc.hpp), else mpi. Throws on another value.
// `gpu_only`: this rank's stage tasks run on CUDA workers only.
NodeExchangeMode node_exchange_asked(bool gpu_only);

// The arguments of a post or take task (a copy of `bytes` between the
// piece's StarPU buffer and the mailbox as this process maps it).
struct MailboxCopyArgs {
  void* mailbox = nullptr;
  std::size_t bytes = 0;
  bool mailbox_on_device = false;
};

class NodeExchange {
 public:
  NodeExchange();  // inactive: every piece goes through StarPU-MPI
  // `cells[i]`: elements of piece i of `element_size` bytes; `gpu_only`:
  // this rank's stage tasks run on CUDA workers only. The mode is
  // node_exchange_asked()'s, settled among the ranks. Collective.
  NodeExchange(Runtime& runtime, const HaloLayout& halo, const TileOwners& owners,
               const std::vector<std::size_t>& cells, std::size_t element_size, bool gpu_only);
  ~NodeExchange();
  NodeExchange(NodeExchange&&) noexcept;
  NodeExchange& operator=(NodeExchange&&) noexcept;

  // The mode in force (mpi when `asked` could not be had in auto).
  NodeExchangeMode mode() const { return mode_; }
  // Whether piece i goes through a mailbox.
  bool moves(int piece) const { return !pieces_.empty() && pieces_[static_cast<std::size_t>(piece)] >= 0; }
  // Pieces that go through mailboxes (on every rank of the run).
  int moved_pieces() const { return moved_count_; }
  // The consumer's copy of piece i's `version`, which its stages read.
  starpu_data_handle_t received(int piece, int version) const { return slot(piece, version).received.get(); }

  struct Task {
    starpu_codelet* codelet;
    std::array<starpu_data_descr, 3> data;
    MailboxCopyArgs args;  // meaningful on the rank that runs it
    int rank;              // where it runs
  };
  // The tasks that move `strip` (piece i's `version`, just written by its
  // producer) to the consumer: insert both, in this order, on every rank.
  Task post(int piece, int version, starpu_data_handle_t strip) const;
  Task take(int piece, int version) const;

 private:
  struct Slot {
    DataHandle received, filled, emptied;
    std::size_t offset = 0;  // in the producer's mailboxes
    std::size_t bytes = 0;
  };
  struct Memory;  // the mailboxes, as this process maps them (src/node_exchange.cpp)

  const Slot& slot(int piece, int version) const {
    return slots_[2 * static_cast<std::size_t>(pieces_[static_cast<std::size_t>(piece)]) + static_cast<std::size_t>(version)];
  }
  void* mailbox(int rank, std::size_t offset) const;

  NodeExchangeMode mode_ = NodeExchangeMode::mpi;
  std::vector<int> pieces_;  // per piece: its index among the moved ones, or -1
  std::vector<int> producer_rank_, consumer_rank_;  // per moved piece
  int moved_count_ = 0;
  int rank_ = 0;
  // Destroyed in reverse: the handles first (unregistering waits for their
  // tasks), then the codelets and the mailboxes those tasks used.
  std::unique_ptr<Memory> memory_;
  std::unique_ptr<starpu_codelet> post_codelet_, take_codelet_;
  std::vector<Slot> slots_;  // two per moved piece
};

}  // namespace trapeze
