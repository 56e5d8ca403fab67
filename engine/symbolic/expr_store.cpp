#include "engine/symbolic/expr_store.hpp"

#include <array>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <sys/mman.h>

#include "egraph/hash.hpp"
#include "engine/symbolic/float_fold.hpp"
#include "engine/symbolic/int_semantics.hpp"
#include "support/invariant.hpp"

namespace volta::symbolic {
namespace {

// MurmurHash3's final avalanche, as the e-graph's hashcons uses it.
uint64_t mix(uint64_t x) {
  return egraph::hash_finish(x);
}

uint64_t hash_node(const Node& n) {
  uint64_t h = mix((uint64_t{static_cast<uint8_t>(n.op)} << 8 | n.aux) ^ (uint64_t{n.a} << 32));
  h = mix(h ^ (uint64_t{n.b} << 32 | n.c));
  return h;
}

class SpinLock {
public:
  explicit SpinLock(std::atomic_flag& flag) : flag_(flag) {
    while (flag_.test_and_set(std::memory_order_acquire)) {
      while (flag_.test(std::memory_order_relaxed)) {
      }
    }
  }
  ~SpinLock() { flag_.clear(std::memory_order_release); }
  SpinLock(const SpinLock&) = delete;
  SpinLock& operator=(const SpinLock&) = delete;

private:
  std::atomic_flag& flag_;
};

} // namespace

namespace {
std::atomic<uint64_t> next_generation{1};

// Node chunks are 2 MiB: allocated without initialization (every slot is written before it is
// read) and backed by transparent huge pages where the kernel allows, so that filling hundreds
// of megabytes of reduction nodes costs few page faults.
constexpr size_t kChunkBytes = size_t{1} << 21;

// Chunks of stores that were destroyed are kept for the next store (up to a cap): a batch
// runs entry after entry, and re-faulting and zeroing hundreds of megabytes per entry costs more
// than the work itself.
struct ChunkPool {
  std::mutex mutex;
  std::vector<void*> free;
  static constexpr size_t kMaxPooled = 1024; // 2 GiB
  ~ChunkPool() {
    for (void* p : free)
      std::free(p);
  }
};
ChunkPool& chunk_pool() {
  static ChunkPool pool;
  return pool;
}

// Meta chunks (4 bytes per node) have a pool of their own.
constexpr size_t kMetaChunkBytes = kChunkBytes / 4;
ChunkPool& meta_chunk_pool() {
  static ChunkPool pool;
  return pool;
}

void* allocate_chunk(ChunkPool& pool, size_t bytes) {
  {
    std::lock_guard guard(pool.mutex);
    if (!pool.free.empty()) {
      void* p = pool.free.back();
      pool.free.pop_back();
      return p;
    }
  }
  void* p = std::aligned_alloc(bytes, bytes);
  if (p == nullptr)
    throw std::bad_alloc();
  madvise(p, bytes, MADV_HUGEPAGE);
  return p;
}

void release_chunk(ChunkPool& pool, void* p) {
  if (p == nullptr)
    return;
  std::lock_guard guard(pool.mutex);
  if (pool.free.size() < ChunkPool::kMaxPooled) {
    pool.free.push_back(p);
  } else {
    std::free(p);
  }
}

// Each thread appends into its own block of ids, so that appending costs no atomic operation.
thread_local ExprStore::Stream thread_stream;
} // namespace

// A set of a store's tables with every entry empty: null chunk pointers, no block owner, empty
// hash-consing shards. A store gives its set back emptied (only the entries it used, which its
// id and constant counts bound), so the next store takes it without zeroing a megabyte.
struct ExprStore::Tables {
  std::unique_ptr<std::atomic<Node*>[]> chunks;
  std::unique_ptr<std::atomic<Meta*>[]> meta_chunks;
  std::unique_ptr<uint16_t[], FreeDeleter> block_owner;
  std::unique_ptr<Shard[]> shards;
  std::unique_ptr<std::atomic<std::unique_ptr<Rational>*>[]> rational_chunks;
};

namespace {
constexpr size_t kMaxPooledTables = 8; // a batch's workers, each with a store and its forks
constexpr size_t kShardSlots = 64;     // a shard's slots when empty
} // namespace

// Never destroyed: a store that a static cache holds may be destroyed after any static object.
std::mutex& ExprStore::table_pool_mutex() {
  static auto* mutex = new std::mutex;
  return *mutex;
}

std::vector<ExprStore::Tables>& ExprStore::table_pool() {
  static auto* pool = new std::vector<Tables>;
  return *pool;
}

void ExprStore::take_tables() {
  static_assert(sizeof(Meta) == 4 && kMetaChunkBytes == (size_t{1} << kChunkBits) * sizeof(Meta));
  {
    std::lock_guard guard(table_pool_mutex());
    std::vector<Tables>& pool = table_pool();
    if (!pool.empty()) {
      Tables t = std::move(pool.back());
      pool.pop_back();
      chunks_ = std::move(t.chunks);
      meta_chunks_ = std::move(t.meta_chunks);
      block_owner_ = std::move(t.block_owner);
      shards_ = std::move(t.shards);
      rational_chunks_ = std::move(t.rational_chunks);
      return;
    }
  }
  chunks_.reset(new std::atomic<Node*>[kMaxChunks]);
  meta_chunks_.reset(new std::atomic<Meta*>[kMaxChunks]);
  // 8 MiB from calloc: the kernel hands out zero pages on first touch, where value-initialized
  // new[] would write all of it up front.
  block_owner_.reset(static_cast<uint16_t*>(std::calloc(size_t{1} << (32 - 10), sizeof(uint16_t))));
  if (!block_owner_)
    throw std::bad_alloc();
  shards_.reset(new Shard[size_t{1} << kShardBits]);
  rational_chunks_.reset(new std::atomic<std::unique_ptr<Rational>*>[kMaxRationalChunks]);
  for (size_t i = 0; i < kMaxRationalChunks; ++i)
    rational_chunks_[i].store(nullptr, std::memory_order_relaxed);
  for (size_t i = 0; i < kMaxChunks; ++i) {
    chunks_[i].store(nullptr, std::memory_order_relaxed);
    meta_chunks_[i].store(nullptr, std::memory_order_relaxed);
  }
  for (size_t i = 0; i < (size_t{1} << kShardBits); ++i)
    shards_[i].slots.assign(kShardSlots, kNoExpr);
}

// Frees the chunks this store owns and empties exactly the entries it can have written: chunk
// and block entries below its ids (put, reserve_block and fork write no others), rational
// chunks below its constant count, every shard.
void ExprStore::give_back_tables() {
  const size_t used_chunks =
      std::min(kMaxChunks, std::max<size_t>(1, (size() + kChunkMask) >> kChunkBits));
  // A fork's first chunks are its base's: the base frees them (base_ outlives this body).
  for (size_t i = 0; i < used_chunks; ++i) {
    Node* nodes = chunks_[i].exchange(nullptr, std::memory_order_relaxed);
    Meta* meta = meta_chunks_[i].exchange(nullptr, std::memory_order_relaxed);
    if (i >= shared_chunks_) {
      release_chunk(chunk_pool(), nodes);
      release_chunk(meta_chunk_pool(), meta);
    }
  }
  if constexpr (support::kCheckInvariants) {
    for (size_t i = used_chunks; i < kMaxChunks; ++i)
      VOLTA_ASSERT(chunks_[i].load() == nullptr && meta_chunks_[i].load() == nullptr,
                   "no chunk lies beyond the store's ids");
  }
  std::memset(block_owner_.get(), 0,
              size_t{next_block_.load(std::memory_order_relaxed)} * sizeof(uint16_t));
  const size_t rational_chunks =
      (size_t{rational_count_} + (size_t{1} << kRationalChunkBits) - 1) >> kRationalChunkBits;
  for (size_t i = 0; i < std::min(rational_chunks, kMaxRationalChunks); ++i)
    rational_chunks_[i].store(nullptr, std::memory_order_relaxed);
  for (size_t i = 0; i < (size_t{1} << kShardBits); ++i) {
    Shard& shard = shards_[i];
    if (shard.slots.capacity() > 16 * kShardSlots) // a grown table is not kept at its size
      std::vector<ExprId>(kShardSlots, kNoExpr).swap(shard.slots);
    else
      shard.slots.assign(kShardSlots, kNoExpr);
    shard.count = 0;
  }
  std::lock_guard guard(table_pool_mutex());
  std::vector<Tables>& pool = table_pool();
  if (pool.size() < kMaxPooledTables)
    pool.push_back(Tables{std::move(chunks_), std::move(meta_chunks_), std::move(block_owner_),
                          std::move(shards_), std::move(rational_chunks_)});
}

ExprStore::ExprStore() : generation_(next_generation.fetch_add(1)) {
  take_tables();
  meta_chunks_[0].store(static_cast<Meta*>(allocate_chunk(meta_chunk_pool(), kMetaChunkBytes)),
                        std::memory_order_release);
  chunks_[0].store(static_cast<Node*>(allocate_chunk(chunk_pool(), kChunkBytes)),
                   std::memory_order_release);
}

ExprStore::~ExprStore() {
  give_back_tables();
}

void ExprStore::seal() {
  std::lock_guard guard(inputs_mutex_);
  for (const auto& [key, start] : input_blocks_) {
    const auto array = static_cast<uint32_t>(key >> 32);
    const auto block = static_cast<uint32_t>(key);
    for (uint32_t i = 0; i < kInputBlock; ++i)
      put(start + i, with_flags(Node{Op::Input, 0, 0, array, block * kInputBlock + i, 0}));
  }
  sealed_ = true;
}

std::unique_ptr<ExprStore> ExprStore::fork(std::shared_ptr<const ExprStore> base) {
  VOLTA_ASSERT(base != nullptr && base->sealed_, "a fork's base is sealed: nothing writes it");
  std::unique_ptr<ExprStore> f(new ExprStore());
  const uint32_t blocks = base->next_block_.load(std::memory_order_acquire);
  const uint64_t limit = uint64_t{blocks} * kBlock;
  const size_t full = limit >> kChunkBits; // chunks wholly below base's ids: shared
  const size_t used = limit & kChunkMask;  // ids of base in the next chunk: copied
  f->next_block_.store(blocks, std::memory_order_relaxed);
  f->base_limit_ = limit;
  if (full > 0) {
    // The constructor's first chunks give way to base's.
    release_chunk(chunk_pool(), f->chunks_[0].exchange(nullptr));
    release_chunk(meta_chunk_pool(), f->meta_chunks_[0].exchange(nullptr));
  }
  for (size_t c = 0; c < full; ++c) {
    f->meta_chunks_[c].store(base->meta_chunks_[c].load(std::memory_order_acquire),
                             std::memory_order_relaxed);
    f->chunks_[c].store(base->chunks_[c].load(std::memory_order_acquire),
                        std::memory_order_relaxed);
  }
  f->shared_chunks_ = full;
  if (used > 0 && base->chunks_[full].load(std::memory_order_acquire) != nullptr) {
    Node* nodes = f->chunks_[full].load(std::memory_order_relaxed);
    if (nodes == nullptr)
      nodes = f->create_chunk(full);
    std::memcpy(static_cast<void*>(nodes), base->chunks_[full].load(std::memory_order_acquire),
                used * sizeof(Node));
    std::memcpy(static_cast<void*>(f->meta_chunks_[full].load(std::memory_order_relaxed)),
                base->meta_chunks_[full].load(std::memory_order_acquire), used * sizeof(Meta));
  }
  std::memcpy(f->block_owner_.get(), base->block_owner_.get(), size_t{blocks} * sizeof(uint16_t));
  f->input_blocks_ = base->input_blocks_;
  for (size_t i = 0; i < (size_t{1} << kShardBits); ++i) {
    f->shards_[i].slots = base->shards_[i].slots;
    f->shards_[i].count = base->shards_[i].count;
  }
  for (size_t i = 0; i < f->small_constants_.size(); ++i)
    f->small_constants_[i].store(base->small_constants_[i].load(), std::memory_order_relaxed);
  // Constants: the same index for the same value (Const nodes carry the index).
  for (uint32_t index = 0; index < base->rational_count_; ++index) {
    const size_t chunk = index >> kRationalChunkBits;
    std::unique_ptr<Rational>* slots = f->rational_chunks_[chunk].load(std::memory_order_relaxed);
    if (slots == nullptr) {
      f->rational_chunk_owner_.push_back(
          std::make_unique<std::unique_ptr<Rational>[]>(size_t{1} << kRationalChunkBits));
      slots = f->rational_chunk_owner_.back().get();
      f->rational_chunks_[chunk].store(slots, std::memory_order_release);
    }
    slots[index & ((1u << kRationalChunkBits) - 1)] =
        std::make_unique<Rational>(base->rational_at(index));
  }
  f->rational_count_ = base->rational_count_;
  f->rational_index_ = base->rational_index_;
  f->float_bits_cache_ = base->float_bits_cache_;
  f->array_names_ = base->array_names_;
  f->integer_arrays_ = base->integer_arrays_;
  f->element_formats_ = base->element_formats_;
  f->param_names_ = base->param_names_;
  f->base_ = std::move(base);
  return f;
}

void ExprStore::reserve_block(Stream& stream) {
  const uint32_t block = next_block_.fetch_add(1, std::memory_order_relaxed);
  if (uint64_t{block + 1} * kBlock >= (uint64_t{1} << 32))
    throw std::length_error("expression DAG is full");
  stream.generation = generation_;
  stream.next = block == 0 ? 1 : block * kBlock; // id 0 is never a node
  stream.end = (block + 1) * kBlock;
}

Node* ExprStore::create_chunk(size_t chunk) {
  std::lock_guard guard(chunk_mutex_);
  Node* storage = chunks_[chunk].load(std::memory_order_acquire);
  if (storage == nullptr) {
    meta_chunks_[chunk].store(
        static_cast<Meta*>(allocate_chunk(meta_chunk_pool(), kMetaChunkBytes)),
        std::memory_order_release);
    storage = static_cast<Node*>(allocate_chunk(chunk_pool(), kChunkBytes));
    chunks_[chunk].store(storage, std::memory_order_release);
  }
  return storage;
}

ExprId ExprStore::allocate(Node n) {
  return allocate_in(n, thread_stream);
}

void ExprStore::grow(Shard& shard) {
  std::vector<ExprId> old = std::move(shard.slots);
  shard.slots.assign(old.size() * 2, kNoExpr);
  const size_t mask = shard.slots.size() - 1;
  for (ExprId id : old) {
    if (id == kNoExpr)
      continue;
    size_t i = (hash_node(node(id)) >> kShardBits) & mask;
    while (shard.slots[i] != kNoExpr)
      i = (i + 1) & mask;
    shard.slots[i] = id;
  }
}

namespace {
// Per operator: the taint a node has of its own, and how many child slots hold node ids. Tables,
// because every created node asks (the reduction chains create millions).
struct OpTraits {
  uint16_t own_taint = 0;
  uint8_t children = 0;
  // The taint also depends on the node's aux or children (Fresh, FloatBits): one test on the
  // common path instead of one per such operator (with_flags runs for every created node).
  bool special = false;
  // aux bit 7 makes the node a lifted idiom (kLiftedAux): its own taint is kTaintIdealized.
  bool lifted_by_aux = false;
  bool float_op = false; // Add .. Narrow: aux holds FloatMods
};
constexpr std::array<OpTraits, kOpCount> make_op_traits() {
  std::array<OpTraits, kOpCount> t{};
  for (size_t i = 0; i < t.size(); ++i) {
    const OpInfo& info = kOps[i];
    t[i].own_taint = info.own_taint;
    t[i].children = info.children;
    t[i].special = info.taint_by_aux;
    t[i].lifted_by_aux = info.liftable;
    t[i].float_op = info.float_mods;
  }
  return t;
}
constexpr auto kOpTraits = make_op_traits();

uint16_t children_taint(const ExprStore& s, const Node& n, uint8_t children) {
  uint16_t t = 0;
  if (children >= 1 && n.a != kNoExpr)
    t |= s.taint(n.a);
  if (children >= 2 && n.b != kNoExpr)
    t |= s.taint(n.b);
  if (children >= 3 && n.c != kNoExpr)
    t |= s.taint(n.c);
  return t;
}

// with_flags of the operators whose taint the tables do not decide (Fresh, FloatBits...).
[[gnu::noinline]] Node with_special_flags(const ExprStore& s, const Node& input) {
  Node n = input;
  const OpTraits traits = kOpTraits[static_cast<size_t>(n.op)];
  uint16_t t = traits.own_taint;
  if (n.op == Op::Fresh)
    t |= kTaintData;
  if (n.op == Op::Fresh && n.aux == static_cast<uint8_t>(FreshKind::AtomicOld))
    t |= kTaintAtomicResult; // an atomic's return value depends on the order of the threads
  if (n.op == Op::Fresh && n.aux == static_cast<uint8_t>(FreshKind::SpecialRegister))
    t |= kTaintSchedule; // %smid, %warpid...: depends on the hardware and the schedule
  if (n.op == Op::FloatBits && s.op(n.a) == Op::Input)
    t = 0; // the integer view of an input element: a plain integer symbol
  // Integer bits read as a float hold any IEEE value: NaN (any payload), infinities, -0. The
  // float view of an integer input element is modelled so (an IEEE value, decided as the same
  // term); the float view of computed bits stays an unresolved bit-level operation.
  if (n.op == Op::BitsFloat) {
    t |= kTaintNaN | kTaintInfinity;
    const Node& bits = s.node(n.a);
    if (bits.op == Op::FloatBits && s.op(bits.a) == Op::Input)
      t &= static_cast<uint16_t>(~kTaintOpaque);
  }
  // An integer converted to f16 overflows to an infinity from 65520 on (under .rn): u16, s32 and
  // wider sources reach it. Every other format holds every 64-bit integer.
  if (n.op == Op::IntToReal && int_to_real_may_overflow(n.aux))
    t |= kTaintInfinity;
  n.taint = t | children_taint(s, n, traits.children);
  return n;
}
} // namespace

// Checked by VOLTA_ASSERT in with_flags: compiled in every build (an unchecked build type-checks
// the assert's condition without calling it).
namespace {
using Sort = OpSort;
// The sort an operator's operands must not have: real arithmetic never takes integer data or
// a predicate, the integer ring never real data (docs/semantics.md: integer data are never
// mistaken for arithmetic over the reals); each conversion takes the sort it converts from.
[[maybe_unused]] bool operand_sorts_fit(const ExprStore& store, const Node& n) {
  const Sort result = sort_of(n.op);
  Sort wrong_a = Sort::Neutral, wrong_b = Sort::Neutral;
  if ((result == Sort::Real && n.op != Op::IntToReal && n.op != Op::BitsFloat) ||
      n.op == Op::RealToInt || n.op == Op::FloatBits) {
    wrong_a = Sort::Int;
    wrong_b = Sort::Pred;
  } else if (n.op == Op::IAdd || n.op == Op::IMul || n.op == Op::INeg || n.op == Op::IntToReal ||
             n.op == Op::BitsFloat) {
    wrong_a = Sort::Real;
    wrong_b = Sort::Pred;
  } else {
    return true;
  }
  const ExprId kids[3] = {n.a, n.b, n.c};
  for (int i = 0; i < child_count(n.op); ++i) {
    if (kids[i] == kNoExpr)
      continue;
    const Sort s = sort_of(store.op(kids[i]));
    if (s == wrong_a || s == wrong_b)
      return false;
  }
  return true;
}
} // namespace

namespace {
// The f16 operations whose result may exceed the operands' magnitude.
bool f16_may_overflow(Op op) {
  return op == Op::Add || op == Op::Sub || op == Op::Mul || op == Op::Div || op == Op::Fma ||
         op == Op::Rcp || op == Op::Rsqrt || op == Op::Exp || op == Op::Ex2 || op == Op::Narrow;
}
// Whether a real input (an element of a float array: Input outside a FloatBits, which is the
// integer view of an integer array's element) or a parameter is below `n`. Over the reals the
// overflow of real data is a rounding (docs/semantics.md), that of integer data is not. Leaves
// first (reductions are left-deep chains); a search past its budget answers no, which only
// adds an infinity to the signs.
bool reaches_real_data(const ExprStore& s, const Node& n) {
  constexpr int kBudget = 256;
  std::array<ExprId, 4 * kBudget> stack; // each visit pushes at most 3, pops 1
  size_t top = 0;
  bool found = false;
  // A real leaf is found when pushed, so that a chain's leaves (fma(a, b, acc): a and b) end the
  // search before it walks down the chain's accumulator.
  const auto push = [&](ExprId id) {
    if (id == kNoExpr || !(s.taint(id) & kTaintData))
      return;
    const Op op = s.op(id);
    if (op == Op::Input || op == Op::Param)
      found = true;
    else if (top < stack.size())
      stack[top++] = id;
  };
  const auto push_children = [&](const Node& m) {
    const int k = child_count(m.op);
    push(k >= 1 ? m.a : kNoExpr);
    push(k >= 2 ? m.b : kNoExpr);
    push(k >= 3 ? m.c : kNoExpr);
  };
  push_children(n);
  for (int visited = 0; !found && top > 0 && visited < kBudget; ++visited) {
    const Node& m = s.node(stack[--top]);
    if (m.op == Op::FloatBits && s.op(m.a) == Op::Input)
      continue; // an integer array's element: integer data
    if (top + 3 > stack.size())
      return false;
    push_children(m);
  }
  return found;
}
} // namespace

Node ExprStore::with_flags(Node input) const {
  VOLTA_ASSERT(operand_sorts_fit(*this, input),
               "operands have the sorts their operator takes (no integer data in real arithmetic)");
  Node n = input;
  VOLTA_ASSERT(static_cast<size_t>(n.op) < std::size(kOpTraits), "an operator of the enum");
  const OpTraits traits = kOpTraits[static_cast<size_t>(n.op)];
  VOLTA_ASSERT(traits.children < 1 || n.a == kNoExpr || n.a < size(),
               "a node's first child is a node of this store");
  VOLTA_ASSERT(traits.children < 2 || n.b == kNoExpr || n.b < size(),
               "a node's second child is a node of this store");
  VOLTA_ASSERT(traits.children < 3 || n.c == kNoExpr || n.c < size(),
               "a node's third child is a node of this store");
  // The operators whose taint the tables do not decide, out of line: every created node passes
  // here, and the common path stays one test longer than the tables alone.
  if (traits.special) [[unlikely]]
    return with_special_flags(*this, input);
  uint16_t t = traits.own_taint;
  // A float operation with no PTX rounding (FloatMode::Unspecified: a tensor-core product, a
  // node the prover or the idiom lifter built) or a lifted idiom: its bits are not known.
  if (traits.float_op && ((n.aux & 7) == 0 || (traits.lifted_by_aux && (n.aux & kLiftedAux))))
    t |= kTaintIdealized;
  if (traits.children >= 1 && n.a != kNoExpr)
    t |= taint(n.a);
  if (traits.children >= 2 && n.b != kNoExpr)
    t |= taint(n.b);
  if (traits.children >= 3 && n.c != kNoExpr)
    t |= taint(n.c);
  // A float operation on constants alone that may overflow (ex2 of 200, a chain of products):
  // an infinity of its own (float_fold.hpp). Rare: data flows into nearly every operation.
  if (traits.float_op && !(t & (kTaintData | kTaintInfinity)) &&
      (((n.aux >> 4) & 7) != 0 || (traits.lifted_by_aux && (n.aux & kLiftedAux))) &&
      constant_may_overflow(*this, n)) [[unlikely]]
    t |= kTaintInfinity;
  // An f16 operation on integer data (no real input below) may overflow: integers are exact, and
  // f16 ends at 65504 (__float2half((float)u) of 70000, (float)(short)x squared and narrowed).
  if (traits.float_op && ((n.aux >> 4) & 7) == kFormatF16 && (t & kTaintData) &&
      !(t & kTaintInfinity) && f16_may_overflow(n.op) && !reaches_real_data(*this, n)) [[unlikely]]
    t |= kTaintInfinity;
  n.taint = t;
  return n;
}

ExprId ExprStore::append(Node input) {
  Node n = with_flags(input);
  n.taint |= kTransient;
  return allocate(n);
}

ExprId ExprStore::append(Node input, Stream& stream) {
  Node n = with_flags(input);
  n.taint |= kTransient;
  return allocate_in(n, stream);
}

ExprId ExprStore::intern(Node input) {
  const Node n = with_flags(input);
  if (n.taint & kTransient)
    return allocate(n);
  const uint64_t h = hash_node(n);
  Shard& shard = shards_[h & ((size_t{1} << kShardBits) - 1)];
  SpinLock guard(shard.lock);
  size_t mask = shard.slots.size() - 1;
  size_t i = (h >> kShardBits) & mask;
  while (true) {
    const ExprId id = shard.slots[i];
    if (id == kNoExpr)
      break;
    if (node(id) == n)
      return id;
    i = (i + 1) & mask;
  }
  const ExprId id = allocate(n);
  shard.slots[i] = id;
  if (++shard.count * 2 > shard.slots.size())
    grow(shard);
  return id;
}

ExprStore::Footprint ExprStore::footprint() const {
  Footprint f;
  f.ids = size();
  for (size_t i = 0; i < kMaxChunks; ++i) {
    if (chunks_[i].load(std::memory_order_acquire) != nullptr)
      f.node_bytes += kChunkBytes + kMetaChunkBytes;
  }
  for (size_t i = 0; i < (size_t{1} << kShardBits); ++i)
    f.table_bytes += shards_[i].slots.capacity() * sizeof(ExprId);
  return f;
}

ExprId ExprStore::input_block(uint32_t array, uint32_t block) {
  static_assert(kBlock == kInputBlock);
  const uint64_t key = uint64_t{array} << 32 | block;
  std::lock_guard guard(inputs_mutex_);
  auto [it, fresh] = input_blocks_.emplace(key, 0);
  if (fresh) {
    Stream ids;
    reserve_block(ids);
    if (ids.next == 1)
      reserve_block(ids); // block 0 starts at id 1: skip it (id 1 is never an input)
    it->second = ids.next;
    block_owner_[ids.next / kBlock] = static_cast<uint16_t>(array + 1);
  }
  return it->second;
}

ExprId ExprStore::input_at(ExprId block_start, uint32_t array, uint32_t index) {
  const ExprId id = block_start + index % kInputBlock;
  if (id < base_limit_)
    return id; // a fork's base wrote the whole block (seal), in a chunk the fork only reads
  put(id, with_flags(Node{Op::Input, 0, 0, array, index, 0}));
  return id;
}

ExprId ExprStore::input(uint32_t array, uint32_t index) {
  const ExprId start = input_block(array, index / kInputBlock);
  // Only handed-out ids are ever read; (re)writing the node under the lock is idempotent.
  std::lock_guard guard(inputs_mutex_);
  return input_at(start, array, index);
}

ExprId ExprStore::constant(const Rational& input) {
  Rational value = input;
  value.canonicalize(); // a hand-built 0/4 must be the same constant as 0
  uint32_t index;
  {
    std::lock_guard guard(constants_mutex_);
    const uint64_t h = hash_rational(value);
    auto [first, last] = rational_index_.equal_range(h);
    bool found = false;
    for (auto it = first; it != last; ++it) {
      if (rational_at(it->second) == value) {
        index = it->second;
        found = true;
        break;
      }
    }
    if (!found) {
      index = rational_count_++;
      const size_t chunk = index >> kRationalChunkBits;
      if (chunk >= kMaxRationalChunks)
        throw std::length_error("too many distinct constants");
      std::unique_ptr<Rational>* slots = rational_chunks_[chunk].load(std::memory_order_relaxed);
      if (slots == nullptr) {
        rational_chunk_owner_.push_back(
            std::make_unique<std::unique_ptr<Rational>[]>(size_t{1} << kRationalChunkBits));
        slots = rational_chunk_owner_.back().get();
        rational_chunks_[chunk].store(slots, std::memory_order_release);
      }
      slots[index & ((1u << kRationalChunkBits) - 1)] = std::make_unique<Rational>(value);
      rational_index_.emplace(h, index);
    }
  }
  return intern(Node{Op::Const, 0, 0, index, 0, 0});
}

const Rational& ExprStore::rational(ExprId const_node) const {
  const Node& n = node(const_node);
  if (n.op != Op::Const)
    throw std::logic_error("rational() of a non-constant node");
  return rational_at(n.a);
}

const Rational& ExprStore::rational_at(uint32_t index) const {
  // The Const node carrying `index` was published after the pointer (constant() writes the
  // slot before it interns the node), and the chunk pointer with release.
  const std::unique_ptr<Rational>* slots =
      rational_chunks_[index >> kRationalChunkBits].load(std::memory_order_acquire);
  return *slots[index & ((1u << kRationalChunkBits) - 1)];
}

std::optional<ExprId> ExprStore::float_bits(uint64_t bits, int width) {
  // A small direct-mapped cache per worker thread in front of the shared one: a kernel uses a
  // few float immediates over and over, and the shared cache takes a lock. Keyed by all the bits
  // and the width (an f64's sign bit is its top bit: 1.0 and -1.0 must not share a slot).
  struct Recent {
    uint64_t generation = 0, bits = 0;
    int width = 0;
    std::optional<ExprId> id;
  };
  thread_local std::array<Recent, 64> recent;
  Recent& slot = recent[((bits ^ static_cast<uint64_t>(width)) * 0x9E3779B97F4A7C15ull) >> 58];
  if (slot.generation == generation_ && slot.bits == bits && slot.width == width)
    return slot.id;
  const std::optional<ExprId> id = float_bits_shared(bits, width);
  slot = Recent{generation_, bits, width, id};
  return id;
}

std::optional<ExprId> ExprStore::float_bits_shared(uint64_t bits, int width) {
  const std::pair<uint64_t, int> key{bits, width};
  {
    std::lock_guard guard(constants_mutex_);
    auto it = float_bits_cache_.find(key);
    if (it != float_bits_cache_.end())
      return it->second;
  }
  FloatClass cls;
  std::optional<Rational> value;
  switch (width) {
  case 16:
    cls = classify_f16_bits(static_cast<uint16_t>(bits));
    value = rational_from_f16_bits(static_cast<uint16_t>(bits));
    break;
  case 32:
    cls = classify_f32_bits(static_cast<uint32_t>(bits));
    value = rational_from_f32_bits(static_cast<uint32_t>(bits));
    break;
  default:
    cls = classify_f64_bits(bits);
    value = rational_from_f64_bits(bits);
    break;
  }
  ExprId id;
  const bool sign = (bits >> (width - 1)) & 1;
  switch (cls) {
  case FloatClass::Finite:
    id = *value == 0 && sign ? neg_zero() : constant(*value);
    break;
  case FloatClass::PosInf:
    id = pos_inf();
    break;
  case FloatClass::NegInf:
    id = neg_inf();
    break;
  default:
    return std::nullopt;
  }
  std::lock_guard guard(constants_mutex_);
  float_bits_cache_.emplace(key, id);
  return id;
}

std::optional<ExprId> ExprStore::bf16_bits(uint16_t bits) {
  switch (classify_bf16_bits(bits)) {
  case FloatClass::Finite:
    return (bits & 0x8000) && *rational_from_bf16_bits(bits) == 0
               ? neg_zero()
               : constant(*rational_from_bf16_bits(bits));
  case FloatClass::PosInf:
    return pos_inf();
  case FloatClass::NegInf:
    return neg_inf();
  default:
    return std::nullopt;
  }
}

ExprId ExprStore::raw_bits(uint64_t bits, int width) {
  return intern(Node{Op::RawBits, static_cast<uint8_t>(width), 0, static_cast<uint32_t>(bits),
                     static_cast<uint32_t>(bits >> 32), 0});
}

uint32_t ExprStore::add_array_name(std::string name) {
  std::lock_guard guard(names_mutex_);
  for (size_t i = 0; i < array_names_.size(); ++i) {
    if (array_names_[i] == name)
      return static_cast<uint32_t>(i);
  }
  array_names_.push_back(std::move(name));
  return static_cast<uint32_t>(array_names_.size() - 1);
}

void ExprStore::mark_integer_array(uint32_t id) {
  std::lock_guard guard(names_mutex_);
  if (integer_arrays_.size() <= id)
    integer_arrays_.resize(id + 1, false);
  integer_arrays_[id] = true;
}

bool ExprStore::integer_array(uint32_t id) const {
  std::lock_guard guard(names_mutex_);
  return id < integer_arrays_.size() && integer_arrays_[id];
}

void ExprStore::set_element_format(uint32_t id, uint8_t wc) {
  VOLTA_ASSERT(wc <= kFormatBF16, "a float format's width code");
  std::lock_guard guard(names_mutex_);
  if (element_formats_.size() <= id)
    element_formats_.resize(id + 1, 0);
  // Two kernels that declare one array in different formats: no format is the array's.
  uint8_t& f = element_formats_[id];
  f = f == 0 || f == wc + 1 ? static_cast<uint8_t>(wc + 1) : kConflictingFormats;
}

std::optional<uint8_t> ExprStore::element_format(uint32_t id) const {
  std::lock_guard guard(names_mutex_);
  if (id >= element_formats_.size() || element_formats_[id] == 0 ||
      element_formats_[id] == kConflictingFormats)
    return std::nullopt;
  return static_cast<uint8_t>(element_formats_[id] - 1);
}

uint32_t ExprStore::add_param_name(std::string name) {
  std::lock_guard guard(names_mutex_);
  for (size_t i = 0; i < param_names_.size(); ++i) {
    if (param_names_[i] == name)
      return static_cast<uint32_t>(i);
  }
  param_names_.push_back(std::move(name));
  return static_cast<uint32_t>(param_names_.size() - 1);
}

const std::string& ExprStore::array_name(uint32_t id) const {
  std::lock_guard guard(names_mutex_);
  return array_names_.at(id);
}

const std::string& ExprStore::param_name(uint32_t id) const {
  std::lock_guard guard(names_mutex_);
  return param_names_.at(id);
}

size_t ExprStore::array_count() const {
  std::lock_guard guard(names_mutex_);
  return array_names_.size();
}

} // namespace volta::symbolic
