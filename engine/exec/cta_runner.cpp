#include "engine/exec/cta_runner.hpp"

#include <algorithm>
#include <bit>
#include <fmt/format.h>

#include "engine/exec/address_map.hpp"
#include "engine/exec/special_registers.hpp"
#include "support/invariant.hpp"

namespace volta::exec {

CtaRunner::CtaRunner(LaunchContext& ctx, uint32_t cta_index)
    : ctx_(ctx), prog_(ctx.program), b_(ctx.store), idioms_(b_, stats_.idioms), cta_(cta_index),
      threads_(static_cast<uint32_t>(ctx.config.threads_per_cta())), warps_((threads_ + 31) / 32),
      row_stride_(warps_ * 32) {
  const auto& g = ctx.config.grid;
  ctaid_ = {cta_index % g[0], (cta_index / g[0]) % g[1], cta_index / (g[0] * g[1])};
  const size_t regs = prog_.registers.size();
  bits_.assign(regs * row_stride_, 0);
  nodes_.assign(regs * row_stride_, ctx.undef);
  float_.assign(regs * row_stride_, 0);
  pc_.assign(threads_, 0);
  state_.assign(threads_, ThreadState::Running);
  barriers_.reset(threads_);
  named_.reset(warps_, threads_);
  mbarrier_order_.reset(threads_, warps_);
  mbar_wait_.assign(threads_, {0, 0});
  warpgroups_.reset(threads_);
  warp_phase_.assign(warps_, 0);
  warp_syncs_.assign(warps_, WarpSyncLog{});
  last_access_stamp_.assign(threads_, 0);
  exits_.stamp_of.assign(threads_, 0);
  shared_size_ = prog_.shared_dynamic_base + ctx.config.dyn_shared_bytes;
  // Shared memory starts uninitialized.
  shared_.assign(shared_size_, ByteCell{ctx.undef, 0, 0});
  if (ctx.options.check_races)
    shared_shadow_pages_.resize((shared_size_ + 4095) / 4096);
  extents_ = variable_extents(prog_, ctx.config.dyn_shared_bytes);
  if (prog_.uses_wgmma || prog_.uses_tensor_store) { // both read shared memory asynchronously
    wgmma_ = std::make_unique<WgmmaState>(warps_, threads_);
    if (ctx.options.check_races)
      fence_shadow_ = std::make_unique<ShadowPage>(4 * threads_);
  }
  local_.assign(size_t{threads_} * prog_.local_bytes, ByteCell{ctx.undef, 0, 0});
  scratch_.assign(size_t{threads_} * prog_.scratch_param_bytes, ByteCell{ctx.undef, 0, 0});
  // Thread t continues in the id block where thread t of this worker's previous CTA stopped:
  // a fresh block of 1024 ids per GPU thread would leave most of each block unused when a
  // thread creates a few hundred nodes (a naive GEMM thread of n = 256: a quarter of it), and
  // the pages of those holes count in the resident memory of large grids all the same.
  streams_ = std::move(spare_streams());
  streams_.resize(threads_);
  b_.set_partial_log(&partial_log_);
  uncommitted_.resize(threads_);
  committed_.resize(threads_);
  stats_.ctas = 1;
}

CtaRunner::~CtaRunner() {
  spare_streams() = std::move(streams_);
}

std::vector<symbolic::ExprStore::Stream>& CtaRunner::spare_streams() {
  thread_local std::vector<symbolic::ExprStore::Stream> spare;
  return spare;
}

// ---------------------------------------------------------------------------------------------
// Scheduling
// ---------------------------------------------------------------------------------------------

bool CtaRunner::run() {
  VOLTA_ASSERT(state_.size() == threads_ && pc_.size() == threads_, "a state and a pc per thread");
  VOLTA_ASSERT(warps_ == (threads_ + 31) / 32, "warps of 32 threads cover the CTA");
  stamp_ = ctx_.next_stamp.fetch_add(1);
  if (!run_cta(*this))
    return false; // cancelled, a lower CTA failed, or over the budget: nothing to publish
  wgmma_end_check();
  bulk_end_check();
  if (!failed_) {
    if (auto problem = warpgroups_.finished()) {
      fail(Verdict::BarrierDivergence, "invalid warpgroup synchronization", *problem, 0);
      publish_decisions();
      return false;
    }
  }
  if (!failed_ && races_found_ == 0 && !schedule_dependence_.empty()) {
    // Nothing went wrong in the one schedule run, but another one may group the arrivals at a
    // named barrier differently: no positive verdict (named_barrier_order.hpp).
    current_pc_ = schedule_dependence_pc_;
    fail_unsupported(prog_.insts[schedule_dependence_pc_], schedule_dependence_thread_,
                     schedule_dependence_);
  }
  publish_decisions();
  return !failed_;
}

bool CtaRunner::round_may_end() {
  const uint64_t budget = ctx_.options.max_instructions;
  if (budget == 0 || ctx_.instructions.load(std::memory_order_relaxed) <= budget)
    return true;
  Failure f;
  f.verdict = Verdict::Unknown;
  f.category = FailureCategory::InstructionBudget;
  f.kind = "instruction budget";
  f.message =
      fmt::format("stopped after the instruction budget of {} executed instructions", budget);
  ctx_.report(cta_, std::move(f));
  return false;
}

bool CtaRunner::flush_executed() {
  ctx_.instructions.fetch_add(warp_executed_, std::memory_order_relaxed);
  warp_executed_ = 0;
  const uint64_t budget = ctx_.options.max_instructions;
  return !ctx_.should_stop(cta_) &&
         (budget == 0 || ctx_.instructions.load(std::memory_order_relaxed) <= budget);
}

void CtaRunner::on_exit(uint32_t t) {
  // Copies still in flight complete before the thread leaves.
  for (const auto& g : committed_[t])
    complete_copies(t, g);
  committed_[t].clear();
  complete_copies(t, uncommitted_[t]);
  uncommitted_[t].clear();
  note_exit(t);
}

void CtaRunner::note_partials(uint32_t pc) {
  for (ExprId id : partial_log_)
    partial_pcs_.emplace(id, pc);
  partial_log_.clear();
}

void CtaRunner::note_origins(const Inst& in, uint32_t pc, uint32_t base, uint32_t mask) {
  for (const Operand& d : in.dsts) {
    if (d.kind != OpKind::Reg)
      continue;
    for (uint32_t m = mask; m != 0; m &= m - 1) {
      const uint32_t t = base + static_cast<uint32_t>(std::countr_zero(m));
      const ExprId id = node(d.reg, t);
      if (id == 0 || id == ctx_.undef)
        continue;
      auto [it, inserted] = origins_.made.emplace(id, pc);
      if (!inserted && pc < it->second)
        it->second = pc;
    }
  }
}

void CtaRunner::publish_decisions() {
  if (ctx_.options.origins != nullptr)
    ctx_.options.origins->merge(prog_, cta_, origins_);
  if (partial_pcs_.empty() && control_roots_.empty())
    return;
  std::lock_guard guard(ctx_.decisions_mutex);
  for (const auto& [id, pc] : partial_pcs_) {
    auto [it, inserted] = ctx_.partial_pcs.emplace(id, pc);
    if (!inserted && pc < it->second)
      it->second = pc; // the earliest line, whatever the order of the CTAs
  }
  ctx_.control_roots.insert(ctx_.control_roots.end(), control_roots_.begin(), control_roots_.end());
}

// ---------------------------------------------------------------------------------------------
// Operands
// ---------------------------------------------------------------------------------------------

Value CtaRunner::read_special(const Operand& o, uint32_t t) {
  const auto s = static_cast<Special>(o.special);
  if (is_clock(s)) {
    fail_unsupported(prog_.insts[current_pc_], t,
                     "reads a clock register, whose value differs from run to run");
    return Value{0, 0};
  }
  if (s == Special::Unmodelled) {
    fail_unsupported(prog_.insts[current_pc_], t,
                     "reads a special register that depends on the driver or on a cluster "
                     "launch, which is not modelled");
    return Value{0, 0};
  }
  if (is_schedule_dependent(s)) {
    // %warpid is not tid / 32 (a warp may migrate), %smid and %gridid depend on the hardware:
    // an unknown, new at every read (the serial keeps reads apart and is never reported).
    const uint32_t serial = ctx_.next_fresh.fetch_add(1, std::memory_order_relaxed);
    return Value{
        0, ctx_.store.intern(symbolic::Node{
               symbolic::Op::Fresh, static_cast<uint8_t>(symbolic::FreshKind::SpecialRegister), 0,
               serial, prog_.insts[current_pc_].line, static_cast<uint32_t>(s)})};
  }
  const auto v = launch_special_value(s, ctx_.config, ctaid_, t);
  if (!v) // a register without a launch value read as 0 would be a wrong value, not a refusal
    VOLTA_UNREACHABLE("every other special register is refused or fresh above");
  return Value{*v, 0};
}

namespace {
// The FloatBits / BitsFloat format code of a float type.
uint8_t float_format(ValType type) {
  switch (type) {
  case ValType::F16:
  case ValType::F16x2:
    return 1;
  case ValType::BF16:
  case ValType::BF16x2:
    return symbolic::kFormatBF16;
  case ValType::F64:
  case ValType::B64:
  case ValType::U64:
  case ValType::S64:
    return 3;
  default:
    return width_of(type) == 16 ? 1 : 2;
  }
}
} // namespace

namespace {
// Operators whose value is a real number by construction (inputs, parameters, the real
// constants and arithmetic over the reals): kind_of says Real for them without looking further,
// so real_of takes them as they are without reading the whole node.
constexpr bool real_by_operator(symbolic::Op op) {
  using symbolic::Op;
  switch (op) {
  case Op::Input:
  case Op::Param:
  case Op::PosInf:
  case Op::NegInf:
  case Op::Ln2:
  case Op::Add:
  case Op::Sub:
  case Op::Mul:
  case Op::Div:
  case Op::Fma:
  case Op::Neg:
  case Op::Abs:
  case Op::Min:
  case Op::Max:
  case Op::Rcp:
  case Op::Sqrt:
  case Op::Rsqrt:
  case Op::Exp:
  case Op::Ex2:
  case Op::Lg2:
  case Op::Sin:
  case Op::Cos:
  case Op::Tanh:
  case Op::Narrow:
    return true;
    // leaves
  case Op::Const:
  case Op::Undef:
  case Op::RawBits:
  // predicates and selects over symbolic values
  case Op::Cmp:
  case Op::And:
  case Op::Or:
  case Op::Xor:
  case Op::Not:
  case Op::Select:
  // bit-level views of symbolic values
  case Op::Pack:
  case Op::Extract:
  case Op::BitOp:
  case Op::AtomicResult:
  // integer data
  case Op::IAdd:
  case Op::IMul:
  case Op::INeg:
  case Op::ICmp:
  // conversions between the types, each its own operator
  case Op::IntToReal:
  case Op::RealToInt:
  case Op::RoundReal:
  case Op::FloatBits:
  case Op::BitsFloat:
  case Op::Fresh:
    return false;
  }
  symbolic::unknown_op(op); // a value outside ops.def
}
} // namespace

ExprId CtaRunner::real_of(Value v, ValType type) {
  auto& s = ctx_.store;
  if (v.symbolic()) {
    const symbolic::Op op = s.op(v.node);
    if (type == ValType::F16 || type == ValType::BF16) [[unlikely]] {
      // 16-bit float data of the other format is another number (exec_formats.cpp); an integer
      // constant is read by its bits below.
      // (A select of float data is one too: a select of reals, or of float constants.)
      // Conversions to a float are 16-bit float data too (cvt.rz.f16.u32 read by cvt.f32.bf16 is
      // its f16 bits read as a bf16, not the integer: fuzzer 19:155019).
      if (real_by_operator(op) || (op == symbolic::Op::Const && v.fl) ||
          op == symbolic::Op::IntToReal || op == symbolic::Op::RoundReal ||
          op == symbolic::Op::BitsFloat ||
          (op == symbolic::Op::Select &&
           (v.fl || symbolic::kind_of(s, v.node) == symbolic::ValueKind::Real)))
        return read_half(v, v.node, type);
    }
    if (real_by_operator(op))
      return v.node; // the common case (float data through cvt, mov, ...)
    if (op != symbolic::Op::RawBits) {
      if (v.node == ctx_.undef || op == symbolic::Op::Undef)
        return v.node;
      // Integer data read as a float is a reinterpretation of its bits, never its value.
      const symbolic::ValueKind kind = symbolic::kind_of(s, v.node);
      // A select of integer data: the select of its arms' float views (each arm's bits, an input
      // element's as the view of an input), not one opaque view of the select.
      if (op == symbolic::Op::Select && kind == symbolic::ValueKind::Int && !v.fl && is_float(type))
        return float_view_of_bits_select(v.node, type);
      if (kind == symbolic::ValueKind::Int ||
          (op == symbolic::Op::Const && !v.fl && is_float(type)))
        return b_.bits_float(v.node, float_format(type));
      if (kind == symbolic::ValueKind::Any && op == symbolic::Op::Select && !v.fl && is_float(type))
        return float_view_of_bits_select(v.node, type);
      // A piece or a packing of bits (the low half of an f32's encoding read as a bf16, two
      // halves read as an f32) holds any IEEE pattern, a NaN among them, whatever the value it
      // came from was: a float view of bits, never the bits node taken for a number (fuzzer
      // 19:182261: `x != x` of such a view was decided false).
      // (So is any other value of unknown bits: an atomic's old value, a fresh symbol.)
      if ((op == symbolic::Op::Extract || op == symbolic::Op::Pack ||
           op == symbolic::Op::AtomicResult || op == symbolic::Op::Fresh) &&
          is_float(type))
        return b_.bits_float(v.node, float_format(type));
      return v.node;
    }
    const symbolic::Node& n = s.node(v.node);
    v = Value{uint64_t{n.b} << 32 | n.a, 0};
  }
  std::optional<ExprId> id;
  switch (type) {
  case ValType::F16:
    id = s.float_bits(v.bits & 0xffff, 16);
    break;
  case ValType::BF16:
    id = s.bf16_bits(static_cast<uint16_t>(v.bits));
    break;
  case ValType::F64:
    id = s.float_bits(v.bits, 64);
    break;
  case ValType::TF32:
  case ValType::F32:
    id = s.float_bits(v.bits & 0xffffffffu, 32);
    break;
  default:
    return int_real(v, type);
  }
  if (!id) {
    fail_unsupported(prog_.insts[current_pc_], 0, "a NaN value is used as a number");
    return s.constant(0);
  }
  return *id;
}

ExprId CtaRunner::flushed_bits_view(ExprId v, ValType type) {
  auto& s = ctx_.store;
  if (v == ctx_.undef || !(s.taint(v) & symbolic::kTaintNaN))
    return v;
  int min_exp = 0; // the smallest normal is 2^min_exp
  switch (type) {
  case ValType::F32:
  case ValType::BF16:
    min_exp = -126;
    break;
  case ValType::F16:
    min_exp = -14;
    break;
  default:
    return v; // .ftz applies to f32, f16 and bf16 only
  }
  const ExprId smallest_normal =
      s.constant(symbolic::Rational(mpz_class(1), mpz_class(1) << -min_exp));
  // (abs with the instruction's format: a node of unspecified mode is an idealization, whose
  // bits are never the same term as another kernel's.)
  const symbolic::FloatMods exact{symbolic::FloatMode::Default, false, float_format(type), false};
  const ExprId tiny = b_.cmp(symbolic::CmpKind::Lt, b_.abs(v, exact), smallest_normal);
  return b_.select(tiny, s.constant(0L), v);
}

ExprId CtaRunner::float_view_of_bits_select(ExprId node, ValType type) {
  std::unordered_map<ExprId, ExprId> memo;
  return float_view_of_bits_select(node, type, 0, memo);
}

ExprId CtaRunner::float_view_of_bits_select(ExprId node, ValType type, uint32_t depth,
                                            std::unordered_map<ExprId, ExprId>& memo) {
  if (const auto seen = memo.find(node); seen != memo.end())
    return seen->second;
  auto& s = ctx_.store;
  const symbolic::Op op = s.op(node);
  if (op == symbolic::Op::Undef || node == ctx_.undef)
    return node;
  if (op != symbolic::Op::Select)
    return symbolic::kind_of(s, node) == symbolic::ValueKind::Real
               ? node
               : b_.bits_float(node, float_format(type));
  // A chain of selects over constants is as deep as the kernel's code; past this depth the
  // view is refused rather than walked.
  constexpr uint32_t kMaxDepth = 64;
  if (depth >= kMaxDepth) {
    fail_unsupported(prog_.insts[current_pc_], 0,
                     "reads as a float a chain of more than 64 selects of bit patterns");
    return s.constant(0);
  }
  const symbolic::Node n = s.node(node);
  const ExprId if_true = float_view_of_bits_select(n.b, type, depth + 1, memo);
  const ExprId if_false = float_view_of_bits_select(n.c, type, depth + 1, memo);
  return memo[node] = b_.select(n.a, if_true, if_false, n.aux);
}

ExprId CtaRunner::real_general(const Operand& o, uint32_t t, ValType type) {
  if (o.kind == OpKind::Imm && o.imm_is_float && o.imm_width == 64 && type != ValType::F64) {
    // A 0d literal in a narrower instruction is rounded to that format by ptxas.
    const float narrowed = static_cast<float>(std::bit_cast<double>(o.imm));
    return real_of(Value{std::bit_cast<uint32_t>(narrowed), 0}, ValType::F32);
  }
  return real_of(read(o, t), type);
}

ExprId CtaRunner::int_real(Value v, ValType type) {
  if (v.symbolic())
    return v.node;
  const uint32_t w = width_of(type) == 0 ? 64 : width_of(type);
  if (is_signed(type)) {
    const int64_t x = w == 64 ? static_cast<int64_t>(v.bits)
                              : static_cast<int64_t>(v.bits << (64 - w)) >> (64 - w);
    return ctx_.store.constant(symbolic::Rational(std::to_string(x)));
  }
  const uint64_t x = w == 64 ? v.bits : v.bits & ((uint64_t{1} << w) - 1);
  return ctx_.store.constant(symbolic::Rational(std::to_string(x)));
}

bool CtaRunner::select_of_width(ExprId node, uint32_t width) const {
  const auto& s = ctx_.store;
  return symbolic::every_select_leaf(s, node, [&](ExprId leaf) {
    if (s.op(leaf) != symbolic::Op::Const)
      return false;
    const symbolic::Rational& q = s.rational(leaf);
    return q.get_den() == 1 && q >= 0 && q < symbolic::Rational(mpz_class(1) << width);
  });
}

ExprId CtaRunner::int_view(Value v, ValType type) {
  const uint32_t w = width_of(type) == 0 ? 32 : width_of(type);
  const uint8_t wc = symbolic::width_code(w);
  if (!v.symbolic())
    return b_.int_const(v.bits, wc);
  auto& s = ctx_.store;
  const ExprId node = v.node;
  const symbolic::Op op = s.op(node);
  if (node == ctx_.undef || op == symbolic::Op::Undef)
    return node;
  if (op == symbolic::Op::RawBits) {
    const symbolic::Node& n = s.node(node);
    return b_.int_const(uint64_t{n.b} << 32 | n.a, wc);
  }
  uint32_t nw = 0;
  // The bits of 16-bit float data are those of its own format (a bf16's are not an f16's).
  const HalfFormat half = w == 16 ? half_format(v) : HalfFormat::Unknown;
  const uint8_t format = half == HalfFormat::BF16  ? symbolic::kFormatBF16
                         : half == HalfFormat::F16 ? uint8_t{1}
                                                   : float_format(type);
  // Fewer bits than a 16-bit float has (cvt.u32.u8 of an f16 or bf16 in a .b16): the low bits of
  // its own encoding, not an f32's (fuzzer 14:47144 read the low byte of a bf16's bits as the
  // low byte of its value's f32 encoding).
  const HalfFormat own_half = w < 16 ? half_format(v) : HalfFormat::Unknown;
  auto own_bits = [&](ExprId id) {
    if (own_half == HalfFormat::Unknown)
      return b_.float_bits(id, format);
    const ExprId bits16 =
        b_.float_bits(id, own_half == HalfFormat::BF16 ? symbolic::kFormatBF16 : uint8_t{1});
    return b_.intop(symbolic::BitOpKind::Ext, symbolic::IntType{wc, is_signed(type)}, bits16,
                    symbolic::kNoExpr, symbolic::kNoExpr, symbolic::kNoExpr, 16);
  };
  switch (symbolic::kind_of(s, node, &nw)) {
  case symbolic::ValueKind::Any: // a constant, or a select of constants
    if (!v.fl) {
      if (auto x = b_.int_value(node, wc))
        return b_.int_const(*x, wc);
      // Integer data selected among integer constants (selp.u32 1, 0 moved through memory):
      // the select is its integer view when every constant is a value of this width (else
      // its bits are not the numbers: a wider view's sign bits, a narrower view's low bits).
      if (op == symbolic::Op::Select && select_of_width(node, w))
        return node;
    }
    return own_bits(node); // a float constant: its bits
  case symbolic::ValueKind::Real:
    return own_bits(node);
  case symbolic::ValueKind::Int:
  case symbolic::ValueKind::Bits:
    if (nw == 0 || nw == w)
      return node;
    return b_.intop(symbolic::BitOpKind::Ext, symbolic::IntType{wc, is_signed(type)}, node,
                    symbolic::kNoExpr, symbolic::kNoExpr, symbolic::kNoExpr, nw);
  case symbolic::ValueKind::Pred:
    return node;
  }
  return node;
}

std::optional<uint64_t> CtaRunner::concrete_symbolic(Value v, uint32_t t, const char* what) {
  const symbolic::Node& n = ctx_.store.node(v.node);
  if (n.op == symbolic::Op::RawBits)
    return uint64_t{n.b} << 32 | n.a;
  const Inst& in = prog_.insts[current_pc_];
  if (v.node == ctx_.undef || n.op == symbolic::Op::Undef) {
    fail(Verdict::Uninitialized, "uninitialized value",
         fmt::format("an uninitialized value is used as {} by '{}' (PTX line {})", what, in.text,
                     in.line),
         t);
    return std::nullopt;
  }
  if (n.op == symbolic::Op::Const) {
    // A float constant used as bits (e.g. an address computed through a float register), or an
    // integer constant.
    if (v.fl) {
      if (auto bits = symbolic::exact_f32_bits(ctx_.store.rational(v.node)))
        return *bits;
    } else if (auto bits = b_.int_value(v.node, 3)) {
      return *bits;
    }
  }
  if (ctx_.store.taint(v.node) & symbolic::kTaintSchedule) {
    fail_unsupported(in, t,
                     fmt::format("{} depends on {}, whose value depends on the hardware and the "
                                 "schedule",
                                 what, describe_special_read(ctx_.store, v.node)));
    return std::nullopt;
  }
  fail_unsupported(
      in, t,
      fmt::format("{} depends on input data (the kernel is outside the structured-CTA class)",
                  what));
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Failures
// ---------------------------------------------------------------------------------------------

Site CtaRunner::site_of(uint32_t cta, uint32_t t, uint32_t pc) const {
  Site s;
  const auto& g = ctx_.config.grid;
  const auto& blk = ctx_.config.block;
  s.cta = cta;
  s.ctaid[0] = cta % g[0];
  s.ctaid[1] = (cta / g[0]) % g[1];
  s.ctaid[2] = cta / (g[0] * g[1]);
  s.thread = t;
  s.tid[0] = t % blk[0];
  s.tid[1] = (t / blk[0]) % blk[1];
  s.tid[2] = t / (blk[0] * blk[1]);
  s.pc = pc;
  if (pc < prog_.insts.size()) {
    const Inst& in = prog_.insts[pc];
    s.ptx_line = in.line;
    s.ptx_column = in.column;
    s.instruction = in.text;
    if (in.debug_file >= 0 && static_cast<size_t>(in.debug_file) < prog_.cuda_files.size()) {
      s.cuda_file = prog_.cuda_files[in.debug_file];
      s.cuda_line = in.debug_line;
    }
  }
  return s;
}

Site CtaRunner::site(uint32_t t, uint32_t pc) const {
  return site_of(cta_, t, pc);
}

void CtaRunner::fail(Verdict v, std::string kind, std::string message, uint32_t t) {
  if (failed_)
    return;
  failed_ = true;
  Failure f;
  f.verdict = v;
  f.kind = std::move(kind);
  f.message = std::move(message);
  f.first = site(t, current_pc_);
  ctx_.report(cta_, std::move(f));
}

void CtaRunner::fail_unsupported(const Inst& in, uint32_t t, const std::string& why) {
  fail(Verdict::Unsupported, "unsupported",
       fmt::format("{}:{}:{}: '{}' {}", prog_.ptx_path, in.line, in.column, in.text, why), t);
}

} // namespace volta::exec
