// The emulator's machine: global memory shared by the CTAs of a launch, and one CTA's threads
// (registers, shared/local memory, scheduling). Internal to engine/emulate.
#pragma once

#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/emulate/conversion_memo.hpp"
#include "engine/emulate/emulator.hpp"
#include "engine/emulate/float_semantics.hpp"
#include "engine/exec/cta_barriers.hpp"
#include "engine/exec/cta_mbarriers.hpp"
#include "engine/exec/cta_schedule.hpp"
#include "engine/exec/variable_extents.hpp"
#include "engine/exec/warpgroup_alignment.hpp"
#include "engine/exec/warpgroup_mma_flight.hpp"

namespace volta::emulate {

// Thrown by the instruction semantics; the CTA adds the location.
struct Trouble : std::runtime_error {
  std::string kind;
  Trouble(std::string k, const std::string& message)
      : std::runtime_error(message), kind(std::move(k)) {}
};

// A byte range of the global address space: an array of the launch or a module variable.
struct GlobalRegion {
  std::string name;
  uint64_t base = 0;
  bool is_array = false;
  launch::ArrayKind kind = launch::ArrayKind::InOut;
  // Made page by page on first touch; written flags per byte where a kernel may store.
  std::shared_ptr<PagedBytes> memory;
  uint64_t size() const { return memory->size(); }
};

struct LaunchState {
  const exec::Program& prog;
  const launch::KernelConfig& config;
  EmulateOptions options;
  std::vector<GlobalRegion> regions; // sorted by base
  std::vector<uint8_t> params;       // the kernel parameter buffer
  std::vector<uint8_t> constants;    // the .const window
  std::vector<uint32_t> flags;       // per instruction: kFlag* bits decoded from its text
  uint64_t instructions = 0;
  uint64_t foreign_reads = 0;       // EmulationResult::foreign_reads
  uint64_t uninitialized_reads = 0; // of shared or local bytes no thread wrote
  std::string first_uninitialized_read;
  ConversionMemo conversions; // results of narrow-source cvt, shared by the launch's CTAs

  GlobalRegion* find(uint64_t address, uint64_t size);
};

inline constexpr uint32_t kFlagWrap = 1;      // shf.wrap
inline constexpr uint32_t kFlagNaN = 2;       // min/max .NaN
inline constexpr uint32_t kFlagXorSign = 4;   // min/max .xorsign.abs (not modeled)
inline constexpr uint32_t kFlagRna = 8;       // cvt.rna (not modeled)
inline constexpr uint32_t kFlagPrmtMode = 16; // prmt with a mode (not modeled)

class Cta {
public:
  Cta(LaunchState& launch, uint32_t index);
  // Runs every thread to exit; throws Trouble (with located_ set) on the first problem.
  void run();
  // Location of the last instruction started, for error reports.
  uint32_t current_pc() const { return pc_now_; }
  uint32_t current_thread() const { return thread_now_; }

private:
  using State = exec::ThreadState;

  // ---- registers and operands
  uint64_t& reg(uint32_t r, uint32_t t) { return regs_[size_t{r} * threads_ + t]; }
  uint64_t read(const exec::Operand& o, uint32_t t, exec::ValType as);
  uint64_t special(exec::Special s, uint32_t t);
  void write(const exec::Operand& d, uint32_t t, uint64_t bits);

  // ---- scheduling: the shared run loop (exec/cta_schedule.hpp) and this machine's hooks. A
  // problem throws Trouble, so the loop never sees a stopped machine.
  template <class M>
  friend bool exec::run_cta(M& m);
  template <class M>
  friend void exec::run_warp(M& m, uint32_t w);
  template <class M>
  friend void exec::exit_lanes(M& m, uint32_t w, uint32_t mask);
  State* states() { return state_.data(); }
  uint32_t* pcs() { return pc_.data(); }
  uint32_t threads() const { return threads_; }
  uint32_t warps() const { return warps_; }
  uint32_t program_size() const { return static_cast<uint32_t>(prog_.insts.size()); }
  const exec::Inst& instruction(uint32_t pc) const { return prog_.insts[pc]; }
  static constexpr bool stopped() { return false; }
  static constexpr bool round_may_start() { return true; }
  static constexpr bool round_may_end() { return true; }
  void report_stuck() { stuck(); }
  [[noreturn]] void stuck(); // throws the deadlock at the first thread still waiting
  // Counts the instructions and throws past the budget or on cancellation.
  bool begin_instruction(uint32_t pc, uint32_t w, uint32_t mask, uint32_t lanes) {
    pc_now_ = pc;
    thread_now_ = w * 32 + static_cast<uint32_t>(std::countr_zero(mask));
    launch_.instructions += lanes;
    const uint64_t budget = launch_.options.max_instructions;
    if ((budget != 0 && launch_.instructions > budget) ||
        (launch_.options.cancel && launch_.options.cancel->load(std::memory_order_relaxed)))
        [[unlikely]]
      stop_running();
    return true;
  }
  [[noreturn]] void stop_running(); // throws the instruction budget, else the cancellation
  void execute(const exec::Inst& in, uint32_t pc, uint32_t w, uint32_t mask) {
    step(in, pc, w, mask);
  }
  // After step: the scheduled lanes' common next pc, where step knows it (exec/cta_schedule.hpp).
  uint32_t next_pc_hint() const { return next_pc_; }
  static constexpr bool end_instruction(const exec::Inst&, uint32_t, uint32_t, uint32_t, uint32_t) {
    return true;
  }
  static constexpr void end_warp() {}
  static constexpr void on_exit(uint32_t) {}
  bool fire_barriers();
  // Barrier `id`'s phase has its arrivals: checks the forms and releases its waiters.
  void complete_phase(uint32_t id);
  uint32_t exited_lanes(uint32_t w) const {
    return exec::lanes_in_state(state_.data(), threads_, w, State::Exited);
  }
  void step(const exec::Inst& in, uint32_t pc, uint32_t w, uint32_t mask);
  bool gather(uint32_t pc, uint32_t w, uint32_t& mask, uint32_t members);
  // The member lanes of the collective `in` that lanes `mask` of warp w reach; `mask` becomes
  // the lanes of it that execute it now (one member mask's group).
  uint32_t collective_members(const exec::Inst& in, uint32_t w, uint32_t& mask);

  // ---- per-thread instruction semantics (instruction_values.cpp)
  void exec_integer(const exec::Inst& in, uint32_t t);
  // Integer operations (integer_result), float operations (float_result), comparisons
  // (compare_result), selp and mov for every lane of `mask` in one loop, their register and
  // immediate operands gathered once per warp: the values exec_integer, exec_float, exec_setp,
  // exec_selp and exec_mov write. False (nothing done) for the forms they
  // alone handle (two destinations, packing, .xorsign, other operand kinds).
  bool generic_warp(const exec::Inst& in, uint32_t pc, uint32_t w, uint32_t mask);
  bool values_warp_applies(const exec::Inst& in, uint32_t pc) const;
  template <size_t N, class Value>
  bool values_warp(const exec::Inst& in, uint32_t w, uint32_t mask, const exec::ValType (&as)[N],
                   Value value);
  // The value exec_cvt writes (not packed), from its source's bits.
  uint64_t convert_result(const exec::Inst& in, uint64_t source);
  // The value exec_integer writes, from its operands' bits.
  uint64_t integer_result(const exec::Inst& in, const uint64_t (&x)[4]);
  // The value exec_float writes, from its operands' bits (xorsign refused before).
  uint64_t float_result(const exec::Inst& in, const uint64_t (&srcs)[3]);
  // The value exec_setp / set writes into its first destination (a predicate: 0 or 1).
  uint64_t compare_result(const exec::Inst& in, const uint64_t (&x)[3]);
  void exec_float(const exec::Inst& in, uint32_t t);
  // The common f32 add, sub, mul and fma (round to nearest, no modifier, register or immediate
  // operands) for every lane of `mask` in one loop: what exec_float does lane by lane, without
  // its per-lane decoding. False (nothing done) for any other form.
  bool float_warp(const exec::Inst& in, uint32_t pc, uint32_t w, uint32_t mask);
  void exec_setp(const exec::Inst& in, uint32_t t);
  void exec_cvt(const exec::Inst& in, uint32_t t);
  // exec_cvt for the lanes of `mask`, through the launch's ConversionMemo where the source is a
  // register of at most 16 bits (false, nothing done, for another form).
  bool convert_warp(const exec::Inst& in, uint32_t pc, uint32_t w, uint32_t mask);
  void exec_mov(const exec::Inst& in, uint32_t t);
  void exec_selp(const exec::Inst& in, uint32_t t);
  void exec_cvta(const exec::Inst& in, uint32_t t);

  // ---- memory (machine.cpp)
  uint8_t* locate(exec::Space space, uint64_t address, uint32_t size, uint32_t t, bool write,
                  uint8_t** written = nullptr);
  void note_uninitialized(const uint8_t* flags, uint32_t size, uint32_t t);
  uint64_t address(const exec::MemRef& m, uint32_t t);
  uint64_t load(exec::Space space, uint64_t address, uint32_t size, uint32_t t);
  void store(exec::Space space, uint64_t address, uint32_t size, uint64_t bits, uint32_t t);
  void exec_ld(const exec::Inst& in, uint32_t t);
  void exec_st(const exec::Inst& in, uint32_t t);
  // Scalar shared and global loads and stores for every lane of `mask` in one loop
  // (warp_access.cpp): exec_ld / exec_st's results, with those functions themselves for any lane
  // that is not the plain case. False (nothing done) for another form.
  bool load_warp(const exec::Inst& in, uint32_t w, uint32_t mask);
  bool store_warp(const exec::Inst& in, uint32_t w, uint32_t mask);
  bool access_warp_applies(const exec::Inst& in, size_t values) const;
  template <uint32_t Size>
  void load_lanes(const exec::Inst& in, uint32_t w, uint32_t mask);
  void exec_atom(const exec::Inst& in, uint32_t t);
  void exec_cp_async(const exec::Inst& in, uint32_t t);
  // A tensor copy's map address and coordinates (srcs[0], srcs[1..rank]) for thread t.
  struct TensorBoxOperands {
    uint64_t map = 0;
    uint32_t rank = 0;
    std::array<int32_t, 5> coords{};
    std::span<const int32_t> coordinates() const { return {coords.data(), rank}; }
  };
  TensorBoxOperands tensor_box_operands(const exec::Inst& in, uint32_t t); // tensor_load.cpp
  void exec_tensor_load(const exec::Inst& in, uint32_t t);                 // tensor_load.cpp
  void exec_tensor_store(const exec::Inst& in, uint32_t t);                // tensor_store.cpp
  void exec_call(const exec::Inst& in, uint32_t t);

  // ---- warp collectives (warp_ops.cpp)
  void exec_shfl(const exec::Inst& in, uint32_t w, uint32_t mask);
  void exec_vote(const exec::Inst& in, uint32_t w, uint32_t mask);
  void exec_redux(const exec::Inst& in, uint32_t w, uint32_t mask);
  void exec_match(const exec::Inst& in, uint32_t w, uint32_t mask);
  void exec_elect(const exec::Inst& in, uint32_t w, uint32_t mask);
  void exec_setmaxnreg(const exec::Inst& in, uint32_t pc, uint32_t w, uint32_t mask);
  void exec_ldmatrix(const exec::Inst& in, uint32_t w, uint32_t mask);
  void exec_mma(const exec::Inst& in, uint32_t w, uint32_t mask);
  void exec_wmma(const exec::Inst& in, uint32_t w, uint32_t mask);
  // ---- warpgroup MMA and stmatrix (warpgroup_mma.cpp)
  void exec_wgmma(const exec::Inst& in, uint32_t w, uint32_t mask);
  void exec_wgmma_sync(const exec::Inst& in, uint32_t w, uint32_t mask);
  void exec_stmatrix(const exec::Inst& in, uint32_t w, uint32_t mask);
  std::vector<exec::wgmma::WarpInFlight<uint64_t>> wgmma_warps_; // per warp, made on first use
  uint64_t reg_value_of(const exec::Operand& d, uint32_t t) {
    return d.kind == exec::OpKind::Reg ? reg(d.reg, t) : 0;
  }
  void exec_bar(const exec::Inst& in, uint32_t pc, uint32_t w, uint32_t mask);
  void exec_mbarrier(const exec::Inst& in, uint32_t pc, uint32_t w, uint32_t mask);
  uint64_t mbarrier_address(const exec::Inst& in, uint32_t t);
  // The threads blocked at a wait on `addr` whose phase completed go on, their predicate true.
  void wake_mbarrier_waiters(uint64_t addr);

  LaunchState& launch_;
  const exec::Program& prog_;
  uint32_t cta_;
  std::array<uint32_t, 3> ctaid_{};
  uint32_t threads_;
  uint32_t warps_;
  std::vector<uint64_t> regs_;
  std::vector<uint32_t> reg_width_; // bits of each register (1 for predicates)
  std::vector<uint32_t> pc_;
  std::vector<State> state_;
  std::vector<uint8_t> shared_;
  exec::VariableExtents extents_; // an access must stay inside one variable (red zones between)
  std::vector<uint8_t> shared_written_; // per byte: has a thread written it?
  std::vector<uint8_t> local_written_;  // threads x local bytes
  const char* tracked_space_ = nullptr; // set by locate: "shared" or "local", else unchanged
  std::vector<uint8_t> local_;          // threads x local bytes
  std::vector<uint8_t> scratch_;        // threads x call-parameter bytes
  exec::CtaBarriers barriers_; // who waits at which barrier, bar.arrive's arrivals (shared)
  exec::WarpgroupAlignment warpgroups_; // setmaxnreg's warpgroup form (shared)
  exec::CtaMbarriers mbarriers_;        // mbarrier objects in shared memory (shared)
  // Per thread blocked AtMbarrier: the mbarrier's address and the phase it waits for.
  std::vector<std::pair<uint64_t, uint64_t>> mbar_wait_;
  bool in_mbarrier_op_ = false; // locate() checks an mbarrier operation's own bytes
  uint32_t pc_now_ = 0;
  uint32_t thread_now_ = 0;
  uint32_t next_pc_ = exec::kNoPcHint;
  bool warp_paths_ = true; // !EmulateOptions::lane_by_lane
};

// Helpers shared by the semantics files.
FloatFormat float_format(exec::ValType t);
RoundMode round_mode(exec::Rounding r);
inline uint64_t low_bits(uint64_t v, uint32_t w) {
  return w >= 64 ? v : v & ((uint64_t{1} << w) - 1);
}
inline int64_t sign_extend(uint64_t v, uint32_t w) {
  if (w >= 64 || w == 0)
    return static_cast<int64_t>(v);
  const int shift = 64 - static_cast<int>(w);
  return static_cast<int64_t>(v << shift) >> shift;
}

} // namespace volta::emulate
