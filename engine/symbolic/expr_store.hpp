// The hash-consed expression DAG: one store is shared by every thread and CTA of both kernels of
// a pair, so that equal subterms are one node (structural sharing across threads, elements and
// the two kernels). Safe to use from many threads at once: interning takes a per-shard spin
// lock; reading a node never locks.
#pragma once

#include <array>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/symbolic/expr.hpp"
#include "engine/symbolic/rational.hpp"
#include "support/invariant.hpp"

namespace volta::symbolic {

class ExprStore {
public:
  ExprStore();
  ~ExprStore();
  ExprStore(const ExprStore&) = delete;
  ExprStore& operator=(const ExprStore&) = delete;

  // ---- forks: a kernel run kept for several entries of a batch (entry/batch_runs.hpp)
  // Ends the writes into this store: writes every symbol of every input block it reserved (a
  // block is reserved whole but filled as elements are read), so that a fork never writes below
  // the ids this store handed out. Call it when no other thread uses the store; sealed() after.
  void seal();
  bool sealed() const { return sealed_; }
  // A new store that holds every node of `base` under the same ids (a run kept from `base` is
  // valid in it) and grows on its own: the node chunks that `base` filled are shared, not copied
  // (read only: the fork allocates its ids past base's), the rest (the hash-consing table, the
  // constants, the input blocks, the names) is copied, so interning in the fork finds base's
  // nodes. `base` must be sealed; the fork keeps it alive.
  static std::unique_ptr<ExprStore> fork(std::shared_ptr<const ExprStore> base);

  // Returns the one node equal to `n`, creating it if needed. Constant operands are folded by
  // the callers in engine/symbolic/builder.hpp, not here. A node with a transient child is
  // appended (it cannot exist yet).
  ExprId intern(Node n);
  // Appends a new node without a lookup: the links of reduction chains (an fma whose
  // accumulator is another link), which are new by construction. Keeping them out of the table
  // makes a K-step reduction cost K appends instead of K random probes (docs/architecture.md,
  // "Proving").
  ExprId append(Node n);

  // A private run of ids for appends: the engine gives each GPU thread its own, so that the
  // links of one thread's reduction chains lie close together in memory (walking a chain later
  // then streams through memory instead of jumping between 32 interleaved lanes).
  struct Stream {
    uint32_t next = 0;
    uint32_t end = 0;
    uint64_t generation = 0;
  };
  ExprId append(Node n, Stream& stream);
  // append(n, stream) for a caller that has read the metas of n's children already (the engine's
  // warp path of fma chains): `children_taint` is the or of their taints, which is all the
  // node's flags need when its operator has no taint of its own (arithmetic: Add, Sub, Mul,
  // Fma). Inline, and the node built in registers: called once per link of a chain, and a node
  // passed through memory and rewritten there stalled each call on a 16-byte reload.
  ExprId append_link(Node n, uint16_t children_taint, Stream& stream) {
    VOLTA_ASSERT(with_flags(n).taint == children_taint,
                 "a node's taint is the union of its children's");
    n.taint = children_taint | kTransient;
    return allocate_in(n, stream);
  }

  const Node& node(ExprId id) const {
    return chunks_[id >> kChunkBits].load(std::memory_order_acquire)[id & kChunkMask];
  }
  // The operator and taint of every node are also kept in a dense side array: most reads of the
  // engine and the builder need only these (is this operand a constant, a sum, undefined?), and
  // at 4 bytes an entry a cache line holds 16 of them instead of 4 whole nodes.
  struct Meta {
    Op op;
    uint16_t taint;
  };
  const Meta& meta(ExprId id) const {
    return meta_chunks_[id >> kChunkBits].load(std::memory_order_acquire)[id & kChunkMask];
  }
  Op op(ExprId id) const { return meta(id).op; }
  uint16_t taint(ExprId id) const { return meta(id).taint; }

  // ---- leaves
  ExprId constant(const Rational& value);
  // Small integers (saturation bounds, integer constants of index arithmetic on data) from a
  // lock-free table in front of the shared one, which takes a lock and builds a GMP number.
  ExprId constant(long value) {
    if (value < -kSmallConstants || value > kSmallConstants)
      return constant(Rational(value));
    std::atomic<ExprId>& slot = small_constants_[static_cast<size_t>(value + kSmallConstants)];
    ExprId id = slot.load(std::memory_order_acquire);
    if (id == kNoExpr) {
      id = constant(Rational(value));
      slot.store(id, std::memory_order_release);
    }
    return id;
  }
  // A float literal given by its IEEE bits (width 16 = f16, 32 = f32, 64 = f64): Const, PosInf
  // or NegInf; nullopt for NaN. bf16 has its own entry point.
  std::optional<ExprId> float_bits(uint64_t bits, int width);
  std::optional<ExprId> bf16_bits(uint16_t bits);
  // The symbol of input element `array[index]`. Input symbols do not go through the hash
  // table: each run of 1024 elements of an array owns a block of 1024 consecutive ids, so the
  // id is found with one lookup and tells its array without reading the node
  // (input_array_of), which keeps template matching out of cache misses.
  ExprId input(uint32_t array, uint32_t index);
  // The same symbols a block at a time, for a caller that keeps each block's first id (the
  // engine's table of input symbols): input(array, index) is
  // input_at(input_block(array, index / kInputBlock), array, index). input_block takes a lock;
  // input_at does not, and its caller makes sure no two threads create one element at once.
  static constexpr uint32_t kInputBlock = 1024;
  ExprId input_block(uint32_t array, uint32_t block);
  ExprId input_at(ExprId block_start, uint32_t array, uint32_t index);
  // The array id of an input symbol, or -1 for any other node (no node read).
  int input_array_of(ExprId id) const {
    const uint16_t owner = block_owner_[id / kBlock];
    return owner == 0 ? -1 : owner - 1;
  }
  ExprId param(uint32_t symbol) { return intern(Node{Op::Param, 0, 0, symbol, 0, 0}); }
  ExprId undef(uint32_t line) { return intern(Node{Op::Undef, 0, 0, line, 0, 0}); }
  ExprId raw_bits(uint64_t bits, int width);
  ExprId pos_inf() { return intern(Node{Op::PosInf}); }
  ExprId neg_inf() { return intern(Node{Op::NegInf}); }
  // -0.0: the real number 0, kept apart from +0 because its bits differ (a constant -0.0 must
  // not become 0x00000000 when it is stored as bits). The node -(0) of a plain neg (exact).
  static constexpr uint8_t kNegZeroAux = static_cast<uint8_t>(FloatMode::Default);
  ExprId neg_zero() { return intern(Node{Op::Neg, kNegZeroAux, 0, constant(0L), 0, 0}); }
  bool is_neg_zero(ExprId id) const {
    const Node& n = node(id);
    return n.op == Op::Neg && n.aux == kNegZeroAux && op(n.a) == Op::Const &&
           sgn(rational(n.a)) == 0;
  }

  const Rational& rational(ExprId const_node) const;
  bool is_const(ExprId id) const { return op(id) == Op::Const; }

  // ---- names of array and parameter symbols (for printing)
  uint32_t add_array_name(std::string name); // returns the array id
  // Arrays declared with an integer element type (docs/semantics.md, "Inputs have two views"):
  // their elements are integer data, whose float view is a reinterpretation that may be any IEEE
  // value (NaN included), never a real symbol.
  void mark_integer_array(uint32_t id);
  bool integer_array(uint32_t id) const;
  // The float format (width code, kFormatBF16 for bf16) of the elements of an array declared
  // with a float type: which integer view of an element is its own bits, and which one is the
  // bits of its value converted to another format (an f16 widened by cvt.f32.f16 and moved as
  // bits, `A[i]:b32`: no view of the element's bytes). Nothing for other arrays.
  void set_element_format(uint32_t id, uint8_t wc);
  std::optional<uint8_t> element_format(uint32_t id) const;
  uint32_t add_param_name(std::string name); // returns the symbol id (deduplicated)
  const std::string& array_name(uint32_t id) const;
  const std::string& param_name(uint32_t id) const;
  size_t array_count() const;

  // An upper bound of the node ids handed out so far (ids are reserved in blocks per thread).
  size_t size() const { return size_t{next_block_.load(std::memory_order_relaxed)} * kBlock; }

  // What the store holds in memory, for benchmarks (single-threaded use, after the writers).
  struct Footprint {
    size_t ids = 0;         // ids handed out (size()): nodes, and the unused ends of id blocks
    size_t node_bytes = 0;  // node and meta chunks allocated
    size_t table_bytes = 0; // the hash-consing table's slots
  };
  Footprint footprint() const;

private:
  static constexpr unsigned kChunkBits = 17; // 2 MiB of 16-byte nodes
  static constexpr uint32_t kChunkMask = (1u << kChunkBits) - 1;
  static constexpr size_t kMaxChunks = size_t{1} << (32 - kChunkBits);
  static constexpr unsigned kShardBits = 8;

  struct Shard {
    std::atomic_flag lock = ATOMIC_FLAG_INIT;
    std::vector<ExprId> slots; // 0 = empty
    size_t count = 0;
  };

  static constexpr uint32_t kBlock = 1024; // ids reserved per thread at a time
  ExprId allocate(Node n);
  ExprId allocate_in(Node n, Stream& stream) {
    if (stream.generation != generation_ || stream.next == stream.end) [[unlikely]]
      reserve_block(stream);
    const uint32_t id = stream.next++;
    put(id, n);
    return id;
  }
  void reserve_block(Stream& stream);
  // Writes node `id` and its meta entry, creating their chunks on first use.
  void put(uint32_t id, Node n) {
    const size_t chunk = id >> kChunkBits;
    Node* storage = chunks_[chunk].load(std::memory_order_acquire);
    if (storage == nullptr) [[unlikely]]
      storage = create_chunk(chunk);
    storage[id & kChunkMask] = n;
    meta_chunks_[chunk].load(std::memory_order_relaxed)[id & kChunkMask] = Meta{n.op, n.taint};
  }
  [[gnu::noinline]] Node* create_chunk(size_t chunk); // the first write into a chunk
  Node with_flags(Node n) const;
  void grow(Shard& shard);

  const Rational& rational_at(uint32_t index) const;
  std::optional<ExprId> float_bits_shared(uint64_t bits, int width);

  uint64_t generation_; // tells thread-local id reservations of different stores apart
  bool sealed_ = false;
  // A fork's base, whose first `shared_chunks_` node and meta chunks it reads (never writes nor
  // frees), and the end of base's ids: an input block below it is base's, already written.
  std::shared_ptr<const ExprStore> base_;
  size_t shared_chunks_ = 0;
  uint64_t base_limit_ = 0;
  // The tables below (chunks_ to rational_chunks_) come from a pool of empty tables that
  // destroyed stores gave back (take_tables / give_back_tables): a fresh set costs a megabyte of
  // zeroing and an 8 MiB mapping, which a batch or the pair fuzzer would pay for every store.
  std::unique_ptr<std::atomic<Node*>[]> chunks_;
  std::unique_ptr<std::atomic<Meta*>[]> meta_chunks_; // published before the node chunk
  std::mutex chunk_mutex_;
  std::atomic<uint32_t> next_block_{0};
  // Per id block: 1 + array id of an input block. 8 MiB, from calloc: the kernel hands out zero
  // pages on first touch, where value-initialized new[] would write all of it up front (about
  // 30 ms of page faults per store on a small kernel).
  struct FreeDeleter {
    void operator()(uint16_t* p) const { std::free(p); }
  };
  std::unique_ptr<uint16_t[], FreeDeleter> block_owner_;
  std::mutex inputs_mutex_;
  std::unordered_map<uint64_t, uint32_t> input_blocks_; // (array, index / kBlock) -> first id
  std::unique_ptr<Shard[]> shards_;

  static constexpr long kSmallConstants = 64;
  std::array<std::atomic<ExprId>, 2 * kSmallConstants + 1> small_constants_{};
  mutable std::mutex constants_mutex_; // guards the writers of the constant tables below
  // The values of Const nodes, by Node::a: chunks of pointers that never move, so that
  // rational() reads without the lock (the engine asks for a constant's value at every float
  // immediate, from every worker thread). A writer publishes the pointer before the Const node
  // that carries the index exists.
  static constexpr unsigned kRationalChunkBits = 14;
  static constexpr size_t kMaxRationalChunks = 4096; // 2^26 distinct constants
  std::unique_ptr<std::atomic<std::unique_ptr<Rational>*>[]> rational_chunks_;
  struct Tables; // the pooled tables, every entry empty (expr_store.cpp)
  void take_tables();
  void give_back_tables();
  static std::mutex& table_pool_mutex();
  static std::vector<Tables>& table_pool();
  uint32_t rational_count_ = 0; // under constants_mutex_
  std::vector<std::unique_ptr<std::unique_ptr<Rational>[]>> rational_chunk_owner_;
  std::unordered_multimap<uint64_t, uint32_t> rational_index_;
  // By (bits, width): f64 bits use all 64 bits, so the width cannot be packed into the key.
  struct FloatKeyHash {
    size_t operator()(const std::pair<uint64_t, int>& k) const {
      return std::hash<uint64_t>{}(k.first * 0x9E3779B97F4A7C15ull +
                                   static_cast<uint64_t>(k.second));
    }
  };
  std::unordered_map<std::pair<uint64_t, int>, ExprId, FloatKeyHash> float_bits_cache_;

  mutable std::mutex names_mutex_;
  std::vector<std::string> array_names_;
  std::vector<bool> integer_arrays_;     // by array id; guarded by names_mutex_
  std::vector<uint8_t> element_formats_; // by array id, format + 1 (0: none); names_mutex_
  static constexpr uint8_t kConflictingFormats = 0xFF;
  std::vector<std::string> param_names_;
};

} // namespace volta::symbolic
