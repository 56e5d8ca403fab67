// Executes one CTA: every thread, warp by warp in lockstep (one decode, all lanes at the same
// instruction), with per-thread state in flat arrays. Integers, addresses and predicates are
// concrete; data is symbolic. Races, barriers, bounds, alignment and uninitialized values are
// checked on the way; the first problem stops the CTA with a Failure.
//
// Scheduling: a warp runs the lanes at the smallest program counter among its runnable lanes,
// which reconverges divergent paths naturally; a lane stops at a CTA barrier, at a warp
// collective whose other member lanes have not arrived, or at exit. When no warp can run, the
// scheduler fires the barriers every participant reached; if none can fire, the CTA is
// deadlocked (the run loop is shared with the emulator: cta_schedule.hpp). Because the race check
// proves that no two unordered accesses conflict, this one schedule gives the result of every
// schedule (docs/architecture.md, "Execution: why one schedule is enough").
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "engine/exec/cta_barriers.hpp"
#include "engine/exec/cta_mbarriers.hpp"
#include "engine/exec/cta_schedule.hpp"
#include "engine/exec/idioms.hpp"
#include "engine/exec/launch_context.hpp"
#include "engine/exec/mbarrier_order.hpp"
#include "engine/exec/named_barrier_order.hpp"
#include "engine/exec/race_shadow.hpp"
#include "engine/exec/region_map.hpp"
#include "engine/exec/variable_extents.hpp"
#include "engine/exec/warpgroup_alignment.hpp"
#include "engine/exec/warpgroup_mma_flight.hpp"
#include "engine/symbolic/sign_analysis.hpp"

namespace volta::exec {

// The format of 16-bit float data (exec_formats.cpp).
enum class HalfFormat : uint8_t { Unknown, F16, BF16 };

class CtaRunner {
public:
  CtaRunner(LaunchContext& ctx, uint32_t cta_index);
  ~CtaRunner();
  CtaRunner(const CtaRunner&) = delete;
  CtaRunner& operator=(const CtaRunner&) = delete;
  // Runs to completion or to the first failure (reported to the context). Returns false when it
  // stopped early (failure, cancellation or a lower CTA's failure).
  bool run();

  const KernelStats& stats() const { return stats_; }

private:
  // The id streams the previous CTA run on this worker thread left, for the next one.
  static std::vector<symbolic::ExprStore::Stream>& spare_streams();
  static constexpr uint32_t kAll = 0xffffffffu;

  // ---- register file
  uint64_t& bits(uint32_t reg, uint32_t t) { return bits_[size_t{reg} * row_stride_ + t]; }
  ExprId& node(uint32_t reg, uint32_t t) { return nodes_[size_t{reg} * row_stride_ + t]; }
  Value reg_value(uint32_t reg, uint32_t t) {
    const size_t i = size_t{reg} * row_stride_ + t;
    return Value{bits_[i], nodes_[i], (float_[i] & 1) != 0, (float_[i] & 2) != 0,
                 (float_[i] & 4) != 0};
  }
  void set(uint32_t reg, uint32_t t, Value v) {
    const size_t i = size_t{reg} * row_stride_ + t;
    bits_[i] = v.bits;
    nodes_[i] = v.node;
    float_[i] = static_cast<uint8_t>(v.fl | (v.bf16 ? 2 : 0) | (v.f16 ? 4 : 0));
  }
  void set_dst(const Operand& d, uint32_t t, Value v) {
    if (d.kind == OpKind::Reg)
      set(d.reg, t, v);
  }

  // ---- operand access
  // Inline: every operand of every instruction comes through here, and an out-of-line call
  // returning the 16-byte Value cost a store-forwarding stall when the caller re-read it.
  Value read(const Operand& o, uint32_t t) {
    switch (o.kind) {
    case OpKind::Reg:
      return reg_value(o.reg, t);
    case OpKind::Imm:
      return Value{o.imm, 0};
    case OpKind::Special:
      return read_special(o, t);
    default:
      return Value{0, 0};
    }
  }
  // read() of a special register: out of line, so that register and immediate reads (the hot
  // cases) need no stack frame.
  [[gnu::noinline]] Value read_special(const Operand& o, uint32_t t);
  // The real value of an operand used as a float of `type` (Const for concrete bits).
  // The common case of real(), inline: a register holding a node that is a number (not raw
  // bits). Gives the node and its operator.
  // Which operators are numbers is ops.def's `number` column; a constant is a real number only
  // when it came out of float data (an integer constant's bits read as a float are not its value).
  bool register_number(const Operand& o, uint32_t t, ExprId& node, symbolic::Op& op) const {
    if (o.kind != OpKind::Reg)
      return false;
    return number_at(size_t{o.reg} * row_stride_ + t, node, op);
  }
  // register_number of register-file slot i (register * row_stride_ + thread).
  bool number_at(size_t i, ExprId& node, symbolic::Op& op) const {
    node = nodes_[i];
    if (node == 0)
      return false;
    op = ctx_.store.op(node);
    // One table lookup for the three tests (the operands of every float instruction ask).
    const uint8_t c = kNumberClass[static_cast<uint8_t>(op)];
    if (c == kNumber) [[likely]]
      return true;
    return c == kConstant && (float_[i] & 1) != 0;
  }
  // register_number's classes of operators, from ops.def's `number` column: a table of 256
  // bytes indexed by the operator's byte (one load in the hottest read of the engine).
  static constexpr uint8_t kNotNumber = 0, kNumber = 1, kConstant = 2;
  static constexpr std::array<uint8_t, 256> kNumberClass = [] {
    static_assert(static_cast<uint8_t>(symbolic::OpNumber::Never) == kNotNumber &&
                  static_cast<uint8_t>(symbolic::OpNumber::Always) == kNumber &&
                  static_cast<uint8_t>(symbolic::OpNumber::FromFloat) == kConstant);
    std::array<uint8_t, 256> c{};
    for (size_t op = 0; op < symbolic::kOpCount; ++op)
      c[op] = static_cast<uint8_t>(symbolic::kOps[op].number);
    return c;
  }();
  ExprId real(const Operand& o, uint32_t t, ValType type) {
    ExprId node;
    symbolic::Op op;
    if (register_number(o, t, node, op))
      return node;
    return real_general(o, t, type);
  }
  ExprId real_general(const Operand& o, uint32_t t, ValType type);
  ExprId real_of(Value v, ValType type);
  // The float view of an untyped select of bit patterns (`selp.b16` of two `mov.b16`
  // constants, then `cvt.f32.f16`): each arm's bits read as that format, never their integer
  // value (0x3C00 is 1.0, not 15360).
  // Each shared select is viewed once (`memo`): arms that name one select are no tree.
  ExprId float_view_of_bits_select(ExprId node, ValType type);
  // What a .ftz instruction of `type` reads of `v`: a float view of bits (NaN-tainted: any
  // pattern, subnormals included) as |v| < the smallest normal ? 0 : v; anything else as it is
  // (the flush of real data is an underflow the contract idealizes).
  ExprId flushed_bits_view(ExprId v, ValType type);
  ExprId float_view_of_bits_select(ExprId node, ValType type, uint32_t depth,
                                   std::unordered_map<ExprId, ExprId>& memo);
  // The real value of an integer operand (Const of the integer for concrete bits).
  ExprId int_real(Value v, ValType type);
  // v is a 16-bit bf16 value: tagged so by the instruction that made it, or an input element of
  // an array declared bf16 (whose real view is its bytes read as a bf16).
  bool is_bf16_data(Value v) const { return half_format(v) == HalfFormat::BF16; }

  // ---- memory formats (exec_formats.cpp)
  // The input array whose element `node` is (an Input node of this launch), or nullptr.
  const Region* input_region(ExprId node) const;
  // The format of 16-bit float data in register value v (of both halves of a packed v): its tag
  // (set by the instruction that made it, or by the load of an input element), else Unknown.
  HalfFormat half_format(const Value& v) const;
  // Tags v, `bytes` loaded from input array r (whole elements, raw bytes), with r's format.
  void tag_input(Value& v, const Region& r, uint32_t bytes) const;
  // `x`, the real that real_of (or a half of a packed register) gives for v, as an instruction of
  // 16-bit format `reader` (F16 or BF16) reads it: x itself in the reader's format or an unknown
  // one; a reinterpretation of its bits when it is data of the other format. real_of applies it
  // to every read of a 16-bit float type.
  ExprId read_half(const Value& v, ExprId x, ValType reader);
  // The real of half h of packed register value v read as `type` (F16 or BF16) by mma / wmma.
  ExprId packed_half(const Value& v, uint32_t h, ValType type);
  // The format in which a 16-bit register that holds a or b (a select, a merge) is read: bf16
  // when either is bf16 data, else f16 when either is f16 data (the other is then read as a
  // reinterpretation in that format), else None (neither format is known).
  ValType half_view(const Value& a, const Value& b) const;
  // The format of a register packed from 16-bit parts (mov.b32 {lo, hi}, ldmatrix): that of
  // its first symbolic float part (concrete parts are bits and take it). A Value has one format
  // for all of its halves, and a half unpacked later must keep its own (an f16 packed beside a
  // bf16 and unpacked into a bf16 array stores the f16's bytes): a float part of another format
  // is rewritten into its bits (float_bits), and so is every part of a known format when one
  // part's format is unknown (the packed value's is then Unknown).
  HalfFormat pack_formats(std::span<Value> parts);
  // Integer parts of a pack beside float ones, made independent of the packed value's tags.
  void pin_integer_parts(std::span<Value> parts, uint32_t part_width, HalfFormat format);
  // One register packed from `parts` of `part_width` bits each (low part first), its format by
  // pack_formats.
  Value pack_parts(std::span<Value> parts, uint32_t part_width);
  // The value of `bytes` loaded cells, tagged with the format their stores left (tag_loaded);
  // halves stored with different formats are loaded apart and packed (pack_parts).
  Value load_tagged(const ByteCell* cells, uint32_t bytes);
  // The FloatBits format code of v as 16-bit data (int_view): bf16 for bf16 data, else f16.
  uint8_t half_int_format(const Value& v) const;
  // How a store of v with type `type`, `bytes` bytes per value, leaves its bytes (StoredAs).
  uint8_t stored_as_of(const Value& v, ValType type, uint32_t bytes) const;
  // The format tags of a value loaded from `bytes` cells stored as f16 / bf16 data.
  void tag_loaded(Value& v, const ByteCell* cells, uint32_t bytes) const;
  // The real x when integer instruction `in` on operands v widens bf16 bits to an f32 (shl.b32
  // by 16 of the bf16's 16 bits, and.b32 with 0xffff0000 of a pair of halves), else 0.
  ExprId bf16_widening(const Inst& in, const Value* v) const;
  // The real of `half`, one 16-bit half of register value v, when it is bf16 data (or the bits of
  // bf16 data), else 0.
  ExprId bf16_half_real(const Value& v, ExprId half) const;
  // Is `node` a tree of selects whose leaves are all integer constants in [0, 2^width)?
  bool select_of_width(ExprId node, uint32_t width) const;
  // The value as integer data of `type`'s width (docs/semantics.md): concrete bits and integer
  // constants as constants, integer selects of such constants as they are, float data by its
  // bits (FloatBits), integers of another width extended or truncated (signedness of `type`).
  ExprId int_view(Value v, ValType type);
  // The low `bytes` bytes of a register's value, which a narrower store writes (exec_memory.cpp)
  // and a cvt of a narrower source type reads (exec_values.cpp).
  // Refuses (UNSUPPORTED) a float of unknown encoding: the low bytes of a .b64 register.
  Value low_bytes_of(Value v, const Operand& reg, uint32_t bytes, const Inst& in, uint32_t t);
  // Concrete bits of a value that must be concrete (address, shift amount, predicate...).
  // Reports UNINITIALIZED / UNSUPPORTED and returns nullopt otherwise.
  std::optional<uint64_t> concrete(Value v, uint32_t t, const char* what) {
    if (!v.symbolic())
      return v.bits; // the common case, inline: addresses are concrete
    return concrete_symbolic(v, t, what);
  }
  std::optional<uint64_t> concrete_symbolic(Value v, uint32_t t, const char* what);
  std::optional<uint64_t> concrete_operand(const Operand& o, uint32_t t, const char* what) {
    return concrete(read(o, t), t, what);
  }

  // ---- scheduling: the shared run loop (cta_schedule.hpp) and this machine's hooks
  template <class M>
  friend bool run_cta(M& m);
  template <class M>
  friend void run_warp(M& m, uint32_t w);
  template <class M>
  friend void exit_lanes(M& m, uint32_t w, uint32_t mask);
  ThreadState* states() { return state_.data(); }
  uint32_t* pcs() { return pc_.data(); }
  uint32_t threads() const { return threads_; }
  uint32_t warps() const { return warps_; }
  uint32_t program_size() const { return static_cast<uint32_t>(prog_.insts.size()); }
  const Inst& instruction(uint32_t pc) const { return prog_.insts[pc]; }
  bool stopped() const { return failed_; }
  // A round over the warps starts unless the launch is cancelled or a lower CTA failed.
  bool round_may_start() { return !ctx_.should_stop(cta_); }
  // A round ends within the instruction budget, or reports it.
  bool round_may_end();
  bool begin_instruction(uint32_t pc, uint32_t, uint32_t, uint32_t) {
    current_pc_ = pc;
    return true;
  }
  uint32_t next_pc_hint() const { return next_pc_; }
  // Notes, statistics, and the cancel flag and budget now and then.
  bool end_instruction(const Inst& in, uint32_t pc, uint32_t w, uint32_t mask, uint32_t lanes) {
    if (ctx_.options.origins != nullptr) [[unlikely]]
      note_origins(in, pc, w * 32, mask);
    if (!partial_log_.empty())
      note_partials(pc);
    ++stats_.warp_instructions;
    stats_.instructions += lanes;
    warp_executed_ += lanes;
    // The cancel flag after every warp-instruction (two relaxed loads): an instruction on a
    // deeply shared value (a select chain 10^4 long) may cost a walk of its operands, so even
    // 1024 of them took 0.3 s past a 3 s limit under ASan (CI, 2026-12-07).
    if (ctx_.should_stop(cta_))
      return false;
    if (warp_executed_ >= 65536)
      return flush_executed();
    return true;
  }
  // Adds the instructions of the warp run so far to the launch's count: false when the launch
  // is cancelled or over its budget.
  bool flush_executed();
  void end_warp() {
    ctx_.instructions.fetch_add(warp_executed_, std::memory_order_relaxed);
    warp_executed_ = 0;
  }
  // A thread exits (ret, exit, the end of the kernel): its copies in flight complete first.
  void on_exit(uint32_t t);
  // CTA barriers (exec_barrier.cpp): fires the barrier every participant reached; false when
  // none can fire (or after a failure).
  bool fire_barriers();
  // Every live thread waits at barrier `id`, but some threads exited: true when the exits
  // release it (no thread count); reports the deadlock otherwise.
  bool released_by_exits(uint32_t id);
  // A deadlock, with who waits where; `why` (when given) comes first.
  void report_stuck(const std::string& why = {});
  // A phase of named barrier `id` (with a thread count, or bar.arrive) has its arrivals:
  // checks them, releases its waiters, and orders them after the arrivals (NamedBarrierOrder).
  // False after a failure.
  bool complete_named(uint32_t id);
  // Reports a BarrierDivergence between two waiting threads.
  void report_divergence(BarrierDivergence d);
  // An arrival that another schedule could group into another phase (named_barrier_order.hpp):
  // remembered, and reported at the end of the CTA when nothing else was.
  void note_schedule_dependence(uint32_t id, uint32_t w, uint32_t t);
  void note_schedule_dependence(std::string why, uint32_t t);
  uint32_t running_lanes(uint32_t w) const {
    return lanes_in_state(state_.data(), threads_, w, ThreadState::Running);
  }
  uint32_t exited_lanes(uint32_t w) const {
    return lanes_in_state(state_.data(), threads_, w, ThreadState::Exited);
  }
  uint32_t existing_lanes(uint32_t w) const { return existing_lanes_of(threads_, w); }

  // ---- execution of one instruction for the lanes in `mask` (all at `pc`)
  void execute(const Inst& in, uint32_t pc, uint32_t w, uint32_t mask);
  void exec_integer(const Inst& in, uint32_t w, uint32_t mask);
  // exec_integer of index arithmetic (concrete register and immediate operands in the lanes of
  // `mask`, a ring or logic operation) as one loop over the warp's 32 slots of the register file:
  // no Value per lane, no per-lane dispatch. False when the instruction or an operand is outside
  // that case (nothing is written then).
  bool integer_warp(const Inst& in, uint32_t w, uint32_t mask, uint32_t width, bool sign);
  // The 32 lanes of a concrete operand of warp w: its slice of the register file, or `imm`
  // filled with the immediate. nullptr when a lane of `mask` holds a node, or for a negated or
  // special operand. The lanes outside `mask` hold anything.
  using LaneBits = std::array<uint64_t, 32>;
  const uint64_t* concrete_lanes(const Operand& o, uint32_t w, uint32_t mask, LaneBits& imm) const;
  // Writes concrete bits value(lane) to register `reg` of the lanes of `mask` of warp w.
  template <class F>
  void write_lanes(uint32_t reg, uint32_t w, uint32_t mask, F&& value) {
    const size_t at = size_t{reg} * row_stride_ + size_t{w} * 32;
    auto write = [&](size_t l) {
      bits_[at + l] = value(l);
      nodes_[at + l] = 0;
      float_[at + l] = 0;
    };
    if (mask == kAll) { // a plain loop the compiler vectorizes
      for (size_t l = 0; l < 32; ++l)
        write(l);
      return;
    }
    for (uint32_t m = mask; m != 0; m &= m - 1)
      write(static_cast<size_t>(std::countr_zero(m)));
  }
  ExprId symbolic_integer(const Inst& in, const Value* v, uint32_t t);
  // An integer node as a register value: a folded constant becomes concrete bits again, so that
  // addresses and branches computed from it stay concrete.
  Value integer_result(ExprId node) {
    if (ctx_.store.op(node) == symbolic::Op::Const) {
      if (auto bits = b_.int_value(node, 3))
        return Value{*bits, 0};
    }
    return Value{0, node, false};
  }
  void exec_float(const Inst& in, uint32_t w, uint32_t mask);
  void exec_setp(const Inst& in, uint32_t w, uint32_t mask);
  void exec_selp(const Inst& in, uint32_t w, uint32_t mask);
  void exec_mov(const Inst& in, uint32_t w, uint32_t mask);
  void exec_cvt(const Inst& in, uint32_t w, uint32_t mask);
  void exec_cvta(const Inst& in, uint32_t w, uint32_t mask);
  void exec_ld(const Inst& in, uint32_t w, uint32_t mask);
  // What every lane of a load shares, worked out once per instruction.
  struct LoadShape {
    uint32_t elem = 1;   // bytes per value
    uint32_t size = 1;   // bytes per lane (elem x vector length)
    uint32_t values = 0; // values delivered (vector length, at most the destinations)
    bool float_type = false;
    bool sign = false;
    // A float load into registers only (the common case): its values go to the registers as
    // they are, without deliver_value's extensions.
    bool plain = false;
  };
  LoadShape load_shape(const Inst& in) const;
  // The addresses of the lanes of `mask` for memory operand `m` (concrete, aligned to `size`, a
  // power of two), with their least and greatest. False when one is symbolic or misaligned.
  bool warp_addresses(const MemRef& m, uint32_t size, uint32_t w, uint32_t mask, LaneBits& address,
                      uint64_t& lo, uint64_t& hi) const;
  // The warp paths of exec_ld (exec_load.cpp): the lanes of `mask` reading one read-only global
  // array, or one shared variable. False when the load is outside that case (nothing is loaded
  // then; the lane loop reports what it finds).
  bool load_warp(const Inst& in, const LoadShape& shape, uint32_t w, uint32_t mask);
  bool shared_load_warp(const Inst& in, const LoadShape& shape, uint32_t w, uint32_t mask);
  // The values of a load from `cells` into thread t's destination registers.
  void deliver_load(const Inst& in, const LoadShape& shape, const ByteCell* cells, uint32_t t);
  // Value number i of a load into thread t's destination register (extended to the register's
  // width by the load's signedness). `stored_float`: the bytes were stored by a float store.
  void deliver_value(const Inst& in, const LoadShape& shape, uint32_t i, Value v, bool stored_float,
                     uint32_t t);
  void exec_st(const Inst& in, uint32_t w, uint32_t mask);
  void exec_atom(const Inst& in, uint32_t w, uint32_t mask);
  void exec_cp_async(const Inst& in, uint32_t w, uint32_t mask);
  void exec_cp_async_wait(const Inst& in, uint32_t w, uint32_t mask);
  void exec_call(const Inst& in, uint32_t w, uint32_t mask);
  // A CTA barrier (exec_barrier.cpp): the lanes of `mask` wait at `pc`.
  void exec_bar(const Inst& in, uint32_t pc, uint32_t w, uint32_t mask);
  // mbarrier operations (exec_mbarrier.cpp): the lanes of `mask` in lane order, as the
  // emulator runs them; each lane that goes on moves its pc itself, a blocked wait stays.
  void exec_mbarrier(const Inst& in, uint32_t pc, uint32_t w, uint32_t mask);
  // The shared address of lane t's mbarrier, its 8 bytes checked (bounds, alignment, the race
  // check: init and inval write the object, the other operations are atomics on it).
  std::optional<uint64_t> mbarrier_address(const Inst& in, uint32_t t, AccessKind kind);
  // A phase of the mbarrier at `addr` completed: its waiters pass their waits and acquire.
  bool wake_mbarrier_waiters(uint64_t addr);
  // Lanes `passed` of thread t's warp passed a wait for `phase` of the mbarrier at `addr`: the
  // warp acquires when they are all its live lanes, else thread t alone (mbarrier_order.hpp);
  // returns the wait's event (the warp's or t's column, and the value after it).
  std::pair<uint32_t, uint32_t> acquire_mbarrier(uint64_t addr, uint32_t t, uint32_t passed,
                                                 int64_t phase);
  // Lanes `passed` of warp w passed their waits (lane l: for phase waits[l].second of the
  // mbarrier at waits[l].first; `alike`: all the same wait), `parity` of them parity waits:
  // they acquire, and the parity waits must not be lapped (mbarrier_order.hpp).
  void pass_mbarrier_waits(uint32_t w, uint32_t passed, uint32_t parity, bool alike,
                           const std::array<std::pair<uint64_t, int64_t>, 32>& waits);
  // bar.arrive on barrier `id` with thread count `count` (exec_barrier.cpp).
  void exec_arrive(const Inst& in, uint32_t pc, uint32_t w, uint32_t mask, uint32_t id,
                   uint32_t count);
  // Warp collectives: returns false when the member lanes have not all arrived (the lanes in
  // `mask` then wait at `pc`).
  // `member_mask`: the member mask operand of the arriving lanes (all equal), or kAll for the
  // collectives without one. Lanes waiting at another bar.warp.sync with the same mask join.
  bool gather_collective(const Inst& in, uint32_t pc, uint32_t w, uint32_t& mask, uint32_t members,
                         uint32_t member_mask);
  // The lanes of `mask` that form one group of a collective with a member mask (the first
  // lane's mask and every lane with the same one); reports a lane outside its own mask or two
  // lanes whose different masks name each other (undefined behaviour). False after a failure.
  bool member_group(const Inst& in, uint32_t w, uint32_t& mask, uint32_t& member_mask);
  void exec_shfl(const Inst& in, uint32_t w, uint32_t mask);
  void exec_vote(const Inst& in, uint32_t w, uint32_t mask);
  bool member_operands(const Inst& in, uint32_t w, uint32_t mask, std::array<Value, 32>& values);
  void exec_redux(const Inst& in, uint32_t w, uint32_t mask);
  void exec_match(const Inst& in, uint32_t w, uint32_t mask);
  void exec_elect(const Inst& in, uint32_t w, uint32_t mask);
  bool exec_setmaxnreg(const Inst& in, uint32_t pc, uint32_t w, uint32_t mask);
  void exec_ldmatrix(const Inst& in, uint32_t w, uint32_t mask);
  // The shared-memory address of each row of an ldmatrix / stmatrix (lane 8 i + r: row r of
  // matrix i, for in.sub matrices); false (the CTA failed) when a lane is missing or an
  // address is not one.
  bool matrix_rows(const Inst& in, uint32_t w, uint32_t mask, std::string_view name,
                   uint64_t (&rows)[32]);
  void exec_wmma_load(const Inst& in, uint32_t w, uint32_t mask);
  void exec_wmma_store(const Inst& in, uint32_t w, uint32_t mask);
  void exec_wmma_mma(const Inst& in, uint32_t w, uint32_t mask);
  void exec_mma(const Inst& in, uint32_t w, uint32_t mask);
  // ---- warpgroup MMA and stmatrix (exec_warpgroup_mma.cpp)
  struct WgmmaState {
    explicit WgmmaState(uint32_t warps, uint32_t threads)
        : warps(warps), agreement(warps), unfenced(threads) {}
    std::vector<wgmma::WarpInFlight<Value>> warps;
    wgmma::WarpgroupAgreement agreement;
    wgmma::UnfencedWrites unfenced;
  };
  std::unique_ptr<WgmmaState> wgmma_; // null unless Program::uses_wgmma
  void exec_wgmma(const Inst& in, uint32_t w, uint32_t mask);
  void exec_wgmma_sync(const Inst& in, uint32_t w, uint32_t mask); // fence, commit, wait
  void exec_stmatrix(const Inst& in, uint32_t w, uint32_t mask);
  void note_proxy_fence(uint32_t w, uint32_t mask);
  // Each thread's last fence.proxy.async that followed a generic write of shared memory, as a
  // write of the thread's word here (4 t): an async-proxy read of a byte that thread u wrote is
  // defined only where u's fence is ordered before it (PTX ISA, "Proxies": the fence must lie in
  // the order between the write and the read), which the race shadow decides as for a read of
  // that word (read_ordered).
  std::unique_ptr<ShadowPage> fence_shadow_;
  // The writer of a byte of [address, address + size) whose fence.proxy.async is not ordered
  // before thread t's async-proxy read now (its last generic write in the race shadow), if any.
  std::optional<uint32_t> unordered_proxy_fence(uint64_t address, uint32_t size, uint32_t t);
  // May thread t read [address, address + size) through the async proxy now (on behalf of
  // `reader`, "the wgmma")? Else a DATA_RACE is reported: a generic write not fenced, or fenced
  // by a fence not ordered before the read.
  bool async_proxy_read_ok(const Inst& in, uint64_t address, uint32_t size, uint32_t t,
                           const char* reader);
  Accessor accessor(uint32_t t) const; // thread t now, as the race shadow sees it
  // While a wgmma of warp w is in flight: instruction `in` neither reads nor writes one of its
  // destination registers (a chained wgmma.mma_async excepted), else reports it.
  bool wgmma_accumulators_untouched(const Inst& in, uint32_t w, uint32_t mask);
  bool wgmma_agree(const Inst& in, uint32_t w, std::initializer_list<uint64_t> operands);
  std::optional<uint64_t> warp_uniform(const Operand& o, uint32_t w, const char* what);
  // At the end of the CTA: every warp of a warpgroup executed the same wgmma instructions.
  bool wgmma_end_check();
  void warp_synchronized(uint32_t w, uint32_t members);

  // ---- memory
  // Resolves an access of `size` bytes for thread t: bounds, alignment and race checks. Returns
  // the cells or nullptr after reporting a failure.
  ByteCell* access(Space space, uint64_t address, uint32_t size, uint32_t alignment, uint32_t t,
                   AccessKind kind, bool is_store_to_global = false);
  // The failure reports of access(), out of its hot path; each returns nullptr.
  [[gnu::cold]] ByteCell* report_out_of_bounds(Space space, uint64_t address, uint32_t size,
                                               uint32_t t, AccessKind kind, std::string what);
  [[gnu::cold]] ByteCell* report_misaligned(Space space, uint64_t address, uint32_t size,
                                            uint32_t alignment, uint32_t t);
  // A data race: reported and logged (LaunchContext::report_race). Returns true when the run
  // goes on (the racy access is then made), false when it stops (the race log is full).
  [[gnu::cold]] bool report_race(Space space, uint64_t byte_address, uint32_t t, AccessKind kind,
                                 const Conflict& c);
  [[gnu::cold]] bool note_race(Failure f);
  // report_race of a conflict with a non-coherent read (race_shadow.hpp): one of the two accesses
  // is a read through ld.global.nc / ldu, the other a write or an atomic.
  [[gnu::cold]] bool report_non_coherent_race(Space space, uint64_t byte_address, uint32_t t,
                                              AccessKind kind, const Conflict& c);
  [[gnu::cold]] std::string describe_outside_global(uint64_t address) const;
  std::optional<uint64_t> address_of(const MemRef& m, uint32_t t) {
    if (!m.has_base)
      return static_cast<uint64_t>(m.offset);
    auto base = concrete(reg_value(m.base, t), t, "a memory address");
    if (!base)
      return std::nullopt;
    return *base + static_cast<uint64_t>(m.offset);
  }
  Value load(ByteCell* cells, uint32_t size) { return load_value(cells, size, ctx_.undef, b_); }
  void materialize_atomics(uint64_t address, ByteCell* cells, uint32_t size);

  // ---- data-dependent decisions (docs/semantics.md, "Domains", "Branches on data")
  // The truth of a symbolic predicate where the signs of its operands decide it over the reals;
  // a decision is recorded as a control root (its operands must be defined).
  std::optional<bool> decide_predicate(ExprId pred);
  void note_partials(uint32_t pc);
  // With RunOptions::origins: the nodes instruction `pc` wrote for the lanes of `mask`.
  void note_origins(const Inst& in, uint32_t pc, uint32_t base, uint32_t mask);
  // A lane whose guard is an undecided predicate on data (exec_branch_merge.cpp): a branch runs
  // both sides and merges the registers; a predicated register instruction merges its results.
  // `cond`: the predicate under which the branch is taken / the instruction executes.
  bool merge_data_branch(const Inst& in, uint32_t pc, uint32_t w, uint32_t lane, ExprId cond);
  bool merge_predicated(const Inst& in, uint32_t pc, uint32_t w, uint32_t lane, ExprId cond);
  // Runs one side of a merged branch for one lane: from `start` until the lane reaches `join`,
  // which its path reaches after `steps` instructions.
  bool run_side(const Inst& branch, uint32_t start, uint32_t join, uint32_t steps, uint32_t w,
                uint32_t lane);
  Value merge_values(ExprId cond, Value if_true, Value if_false, ValType type);
  void publish_decisions();

  // ---- failures
  Site site(uint32_t t, uint32_t pc) const;
  Site site_of(uint32_t cta, uint32_t t, uint32_t pc) const;
  void fail(Verdict v, std::string kind, std::string message, uint32_t t);
  void fail_unsupported(const Inst& in, uint32_t t, const std::string& why);
  bool failed() const { return failed_; }
  std::string describe_address(Space space, uint64_t address) const;

  LaunchContext& ctx_;
  const Program& prog_;
  symbolic::Builder b_;
  IdiomLifter idioms_;
  uint32_t cta_;
  std::array<uint32_t, 3> ctaid_{};
  uint32_t threads_;
  uint32_t warps_;
  // The register file is one row per register of row_stride_ slots, thread t's in slot t: whole
  // warps, so that a warp's 32 slots of a register exist even in a partial last warp (the
  // converged-warp paths read all 32 and use the active lanes').
  uint32_t row_stride_;

  std::vector<uint64_t> bits_;
  std::vector<ExprId> nodes_;
  // Value::fl (bit 0), Value::bf16 (bit 1), Value::f16 (bit 2) per register and thread: a
  // format tag does not make data float data (the raw bytes of a u16 input element read by an
  // integer load carry its f16 format, for a float instruction that may read them).
  std::vector<uint8_t> float_;
  std::vector<uint32_t> pc_;
  std::vector<ThreadState> state_;
  CtaBarriers barriers_; // who waits at which barrier with which count (shared with the emulator)
  NamedBarrierOrder named_;      // the order named barriers give the race check
  CtaMbarriers mbarriers_;       // the CTA's mbarrier objects (shared with the emulator)
  MbarrierOrder mbarrier_order_; // the order their phases give the race check
  // AtMbarrier: the mbarrier a thread waits at and the phase it waits for.
  std::vector<std::pair<uint64_t, uint64_t>> mbar_wait_;
  bool in_mbarrier_op_ = false;   // an access of an mbarrier's own bytes by an mbarrier operation
  WarpgroupAlignment warpgroups_; // setmaxnreg's warpgroup form (shared with the emulator)
  // The first arrival at a named barrier whose phase depends on the schedule (empty: none), as
  // an UNSUPPORTED reason, and where it was.
  std::string schedule_dependence_;
  uint32_t schedule_dependence_thread_ = 0, schedule_dependence_pc_ = 0;
  std::vector<uint32_t> warp_phase_;
  std::vector<WarpSyncLog> warp_syncs_; // per warp: its partial-mask syncs (race_shadow.hpp)
  // Race check of exits: per thread, the epoch of its latest memory access, and the threads
  // that exited with accesses in their last epoch (race_shadow.hpp, ExitLog).
  std::vector<uint32_t> last_access_stamp_;
  ExitLog exits_;
  const ExitLog* exit_log() const { return exits_.stamps.empty() ? nullptr : &exits_; }
  // A thread exits (ret, exit, the end of the kernel): its accesses since the last barrier are
  // ordered with nothing after it.
  void note_exit(uint32_t t) {
    if (last_access_stamp_[t] != stamp_)
      return;
    exits_.stamp_of[t] = stamp_;
    if (exits_.stamps.empty() || exits_.stamps.back() != stamp_)
      exits_.stamps.push_back(stamp_);
  }

  std::vector<symbolic::ExprStore::Stream> streams_; // per thread: where its chain links go
  std::vector<ByteCell> shared_;
  // Race shadow of shared memory, in 4 KiB pages created on first access (accesses are
  // naturally aligned and at most 16 bytes, so none crosses a page).
  std::vector<std::unique_ptr<ShadowPage>> shared_shadow_pages_;
  VariableExtents extents_;              // [start, end) of each shared and local variable
  size_t last_shared_extent_ = SIZE_MAX; // the shared extent of the last access (a hint)
  // Does [address, address + size) lie inside one shared variable?
  bool inside_shared(uint64_t address, uint32_t size);
  std::vector<ByteCell> local_;   // threads_ x local bytes
  std::vector<ByteCell> scratch_; // threads_ x call-parameter bytes
  uint64_t shared_size_ = 0;

  // cp.async: per thread, committed groups of pending copies (dst shared, src global, size).
  struct PendingCopy {
    uint64_t dst;
    uint64_t src;
    uint32_t size;     // cp-size: bytes written to dst
    uint32_t src_size; // bytes read from src (the rest of dst is zero-filled): 0 with ignore-src
    uint32_t pc;
    uint32_t issue_stamp = 0; // the CTA's epoch at issue
    // The bytes the copy writes, read at issue: the source's cells (symbolic pieces and all)
    // for the first src_size bytes, concrete zeros after them.
    std::array<ByteCell, 16> bytes{};
  };
  // The hardware reads the source of a cp.async at some time before the wait that completes
  // it, barriers notwithstanding: a write by another thread since the issue is a race.
  // Reports it; returns true when the run stops.
  bool source_overwritten(const PendingCopy& c, uint32_t t);
  // The thread touches memory an unfinished cp.async of its own reads or writes: a hazard the
  // hardware does not order. Reports it (as a data race); returns true when the run stops.
  bool copy_hazard(Space space, uint64_t address, uint32_t size, uint32_t t, AccessKind kind);
  // Destination bytes of cp.async copies in flight, per 4-byte shared word (copies are 4, 8 or
  // 16 aligned bytes): the issuing thread + 1 (0: none) and the cp.async's pc. Any access by
  // another thread to such a word is a race (a barrier does not complete a copy).
  std::vector<uint32_t> in_flight_owner_;
  std::vector<uint32_t> in_flight_pc_;
  uint32_t in_flight_words_ = 0;
  void mark_in_flight(const PendingCopy& c, uint32_t t);
  void clear_in_flight(const PendingCopy& c, uint32_t t);
  // Reports an access to an in-flight destination by another thread; true when the run stops.
  [[gnu::cold]] bool in_flight_race(uint64_t address, uint32_t size, uint32_t t, AccessKind kind);
  // Reports a DATA_RACE on shared `byte` between thread t now and thread `other` at `other_pc`
  // (an asynchronous copy's issue); true when the run stops.
  [[gnu::cold]] bool report_shared_race(std::string kind, uint64_t byte, uint32_t t, uint32_t other,
                                        uint32_t other_pc, std::string message);
  // cp.async.bulk.tensor loads (exec_tensor_load.cpp; the timing model is tensor_copy.hpp's):
  // each load's issuer, mbarrier and the phase its complete_tx counted in. Its destination words
  // are marked in in_flight_owner_ with kTensorLoadOwner and the load's index in in_flight_pc_,
  // until a write ordered after that phase's completion replaces them.
  struct TensorLoad {
    uint32_t thread = 0, pc = 0;
    uint64_t mbar = 0, phase = 0;
  };
  static constexpr uint32_t kTensorLoadOwner = UINT32_MAX;
  std::vector<TensorLoad> tensor_loads_;
  bool in_async_proxy_ = false; // a tensor load's writes: not generic-proxy writes for wgmma
  void exec_tensor_load(const Inst& in, uint32_t w, uint32_t mask);
  // A tensor copy's map address and coordinates (srcs[0], srcs[1..rank]) for thread t, concrete;
  // nullopt when one is not (reported).
  struct TensorBoxOperands {
    uint64_t map = 0;
    std::array<int32_t, 5> coords{};
  };
  std::optional<TensorBoxOperands> tensor_box_operands(const Inst& in, uint32_t t);
  // An access of `word`, the destination of a tensor load, by thread t: a race unless t is
  // ordered after the completion of the load's phase. True when the run stops.
  [[gnu::cold]] bool tensor_load_race(uint64_t word, uint64_t address, uint32_t t, AccessKind kind);
  // cp.async.bulk.tensor stores and their bulk async-groups (exec_tensor_store.cpp, which states
  // the timing model): each thread's stores not yet retired by a cp.async.bulk.wait_group, with
  // the source bytes each read at its issue (checked unchanged at the retirement).
  struct BulkStore {
    uint32_t pc = 0;
    int64_t group = -1; // the thread's bulk async-group; -1 until cp.async.bulk.commit_group
    std::vector<std::pair<uint64_t, ByteCell>> source; // shared byte address, what was read
  };
  struct BulkGroups {
    std::deque<BulkStore> stores;
    int64_t committed = 0; // groups committed so far
  };
  std::vector<BulkGroups> bulk_; // per thread, sized at the first tensor store
  // Per shared byte: the tensor stores in flight that read it (issued, not yet retired), and how
  // many bytes have one. A write of such a byte, by any thread and whatever orders it, is a race
  // with the async read (tensor_store_source_race).
  std::vector<uint16_t> store_source_readers_;
  uint64_t store_source_bytes_ = 0;
  [[gnu::cold]] bool tensor_store_source_race(uint64_t address, uint32_t size, uint32_t t);
  bool in_tensor_store_ = false; // its own global writes: not the refused generic accesses
  void exec_tensor_store(const Inst& in, uint32_t w, uint32_t mask);
  void exec_bulk_group(const Inst& in, uint32_t w, uint32_t mask);
  bool retire_bulk_stores(const Inst& in, uint32_t t, uint32_t keep);
  // A generic access of a global byte a tensor store writes, or a tensor store's write of a byte
  // that was stored to before (the order of the two is not modelled): refused. False when the
  // run stops.
  [[gnu::cold]] bool tensor_store_conflict(const ByteCell* cells, uint64_t address, uint32_t size,
                                           uint32_t t);
  // At the CTA's end: a tensor store whose source read no wait_group.read waited for.
  bool bulk_end_check();
  // exec_st: the other lanes whose identical store the current access performs (Accessor::lanes).
  uint32_t co_writers_ = 0;
  // exec_st: the values the current access writes (the race shadow keeps them for the benign
  // rule); empty for every other access.
  StoredElements shadow_values_;
  std::array<StoredElement, 8> shadow_elements_;
  std::vector<Value> store_values_; // exec_st: 8 values per lane
  // Returns true when the run goes on after the race (the two lanes then store one after the
  // other).
  // `equal`: the values are provably equal (a conflict only under the strict rule).
  [[gnu::cold]] bool report_store_conflict(const Inst& in, uint64_t address, uint32_t t1,
                                           uint32_t t2, Value v1, Value v2, bool equal);
  // Whether two lanes' values are one store's (docs/semantics.md, "Synchronization"): the same
  // concrete bits, or provably the same bits of one format (symbolic::BitEquality).
  bool provably_same_store(const Value& a, const Value& b);
  // Whether a store of `size` bytes at `address` lies inside memory it may write (shared or
  // global; other spaces: true). A null or wild address is out of bounds before it is anything
  // else: access() reports it.
  bool store_in_bounds(Space space, uint64_t address, uint32_t size);
  std::string describe_value(Value v) const;
  bool completing_copies_ = false;
  bool copies_issued_ = false; // some thread of the CTA issued a cp.async (until then no hazards)
  std::vector<std::vector<PendingCopy>> uncommitted_;
  std::vector<std::deque<std::vector<PendingCopy>>> committed_;
  void complete_copies(uint32_t t, const std::vector<PendingCopy>& group);

  std::map<uint64_t, PendingAtomic> shared_atomics_; // pending atomics on shared memory
  uint32_t stamp_ = 0;
  uint64_t atomic_sequence_ = 0;
  bool failed_ = false;
  uint32_t races_found_ = 0; // data races this CTA reported (their order in the race log)
  uint32_t current_pc_ = 0;
  // Set by execute() when every lane it was given, active or not, is now at this one pc and
  // running, and no other lane of the warp changed state (an instruction without control flow or
  // collective, a branch that all the lanes took); kNoPc otherwise. run_warp then knows the
  // warp's next pc and lanes without scanning them, as long as the warp stays converged.
  static constexpr uint32_t kNoPc = kNoPcHint;
  uint32_t next_pc_ = kNoPc;
  uint64_t warp_executed_ = 0; // lanes x instructions of this warp's run not yet counted
  KernelStats stats_;
  // A direct-mapped cache of global pages (the page table takes a lock).
  GlobalMemory::Page& global_page(uint64_t address) {
    const uint64_t number = address >> GlobalMemory::kPageBits;
    // The slot from a multiplicative hash, not the low bits: arrays are usually placed at
    // bases that are multiples of a large power of two, so K[j] and V[j] of an attention
    // kernel (and A[i] and B[i] of many others) would fall in the same slot and evict each
    // other at every access, each miss taking the global page table's lock.
    auto& slot = page_cache_[(number * 0x9E3779B97F4A7C15ull) >> (64 - kPageCacheBits)];
    if (slot.first != number || slot.second == nullptr)
      slot = {number, &ctx_.global.page(address)};
    return *slot.second;
  }
  static constexpr unsigned kPageCacheBits = 8;
  static constexpr size_t kPageCache = size_t{1} << kPageCacheBits;
  std::array<std::pair<uint64_t, GlobalMemory::Page*>, kPageCache> page_cache_{};

  // The region holding [address, address + size), as GlobalMemory::find, through the two
  // regions found last (a loop reads two or three arrays in turn: A and B of a GEMM) when
  // regions are disjoint.
  const Region* global_region(uint64_t address, uint64_t size) {
    if (!ctx_.global.disjoint())
      return ctx_.global.find(address, size);
    auto holds = [&](const Region* r) {
      return r != nullptr && holds_access(r->base, r->size, address, size);
    };
    if (holds(recent_regions_[0]))
      return recent_regions_[0];
    if (holds(recent_regions_[1])) {
      std::swap(recent_regions_[0], recent_regions_[1]);
      return recent_regions_[0];
    }
    const Region* r = ctx_.global.find(address, size);
    if (r != nullptr) {
      recent_regions_[1] = recent_regions_[0];
      recent_regions_[0] = r;
    }
    return r;
  }
  std::array<const Region*, 2> recent_regions_{};

  // data-dependent decisions
  std::vector<ExprId> partial_log_;          // filled by the builder, emptied per instruction
  std::map<ExprId, uint32_t> partial_pcs_;   // partial operation -> first pc
  std::unordered_set<ExprId> control_roots_; // predicates decided over the reals
  OriginLog::Local origins_;                 // with RunOptions::origins only
  symbolic::SignAnalysis signs_{ctx_.store};
  uint32_t merge_depth_ = 0; // > 0 while a side of a merged branch runs
};

} // namespace volta::exec
