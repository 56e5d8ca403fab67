// The executable form of one PTX kernel: instructions decoded once into a compact form with
// registers resolved to slots, labels to instruction indices and variable names to addresses,
// so that the interpreter never looks at strings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ptx/ast.hpp"

namespace volta::exec {

// The operation an instruction performs, decoded from opcode + suffixes: one enumerator per row
// of instructions.def (whose family column instruction_family.hpp reads).
enum class XOp : uint8_t {
#define XOP(name, family) name,
#include "engine/exec/instructions.def"
#undef XOP
};

// The type of a value, a register, an instruction: PTX's own scalar type, one enum for the
// whole engine. The interpreter models every type but b128 and the fp8 ones (modeled_type);
// lowering refuses an instruction, a register operand or a parameter of another type, so that
// the switches below never see one.
using ValType = ptx::ScalarType;
bool modeled_type(ValType t);
// Width in bits, signedness and floatness: ptx/ast's, the one definition of each.
inline uint32_t width_of(ValType t) {
  return ptx::bit_width(t);
}
using ptx::is_float;
using ptx::is_signed;

enum class OpKind : uint8_t { None, Reg, Imm, Special, Sink };

// Special registers, read-only and concrete.
enum class Special : uint8_t {
  TidX,
  TidY,
  TidZ,
  NtidX,
  NtidY,
  NtidZ,
  CtaidX,
  CtaidY,
  CtaidZ,
  NctaidX,
  NctaidY,
  NctaidZ,
  LaneId,
  WarpId,
  NWarpId,
  SmId,
  NSmId,
  GridId,
  LaneMaskEq,
  LaneMaskLt,
  LaneMaskLe,
  LaneMaskGt,
  LaneMaskGe,
  Clock,
  Clock64,
  GlobalTimer,
  DynSmemSize,
  // Timers and counters whose value differs from run to run: %clock_hi, %globaltimer_lo/_hi,
  // the performance-monitoring counters %pm0..%pm7 and %pm0_64..%pm7_64.
  ClockHi,
  GlobalTimerLo,
  GlobalTimerHi,
  PerfCounter,
  // The cluster registers (sm_90) of the launch's cluster (one CTA when none is given; launches
  // with clusters of more than one CTA are refused by run_kernel): %cluster_ctarank,
  // %cluster_nctarank, %cluster_ctaid.{x,y,z}, %cluster_nctaid.{x,y,z}, %clusterid.{x,y,z},
  // %nclusterid.{x,y,z}.
  ClusterCtaRank,
  ClusterNCtaRank,
  ClusterCtaidX,
  ClusterCtaidY,
  ClusterCtaidZ,
  ClusterNCtaidX,
  ClusterNCtaidY,
  ClusterNCtaidZ,
  ClusterIdX,
  ClusterIdY,
  ClusterIdZ,
  NClusterIdX,
  NClusterIdY,
  NClusterIdZ,
  // Registers the ISA lists that no launch configuration here gives a value: %envreg<32>
  // (set by the driver), %is_explicit_cluster (whether a kernel's compile-time cluster
  // dimensions count as explicit is not documented), the reserved shared-memory offsets,
  // %aggr_smem_size, %current_graph_exec. Refused at the read.
  Unmodelled,
};

struct Operand {
  OpKind kind = OpKind::None;
  bool negated = false; // `!%p`
  uint8_t special = 0;
  uint32_t reg = 0;
  uint64_t imm = 0;
  bool imm_is_float = false; // 0f/0d/decimal literal: imm holds its IEEE bits
  uint8_t imm_width = 0;     // 32 or 64 for float immediates
};

enum class ShflMode : uint8_t { Up, Down, Bfly, Idx };
// cp.async's optional fourth operand (Inst::sub), srcs[1] when present.
enum class CpAsyncExtra : uint8_t {
  None,     // copy cp-size bytes
  SrcSize,  // copy src-size bytes, zero-fill the rest up to cp-size
  IgnoreSrc // a predicate: when true, write cp-size zero bytes and read nothing
};
enum class VoteMode : uint8_t { All, Any, Uni, Ballot };
enum class AtomOp : uint8_t { Add, Min, Max, Inc, Dec, And, Or, Xor, Exch, Cas };
enum class MmaShape : uint8_t { None, M16N16K16, M16N8K16, M16N8K8, M8N8K4, M32N8K16, M8N32K16 };
enum class WmmaPart : uint8_t { A, B, C, D };
// How the threads of a CTA barrier (BarSync, BarArrive) must reach it, in Inst::sub (PTX ISA,
// "barrier"). Without either bit (`barrier.sync` on sm_70 and later) threads may arrive from
// different instructions: the barrier is the barrier id, whichever instruction names it.
// kBarrierAligned: `.aligned` (`bar.sync` is `barrier.sync.aligned`), every thread executes
// this one instruction. kBarrierWarpAligned: no `.aligned`, but the target is below sm_70, so
// every lane of a warp reaches the barrier at one instruction.
inline constexpr uint8_t kBarrierAligned = 1;
inline constexpr uint8_t kBarrierWarpAligned = 2;
// Inst::sub of an XOp::Fence that is `fence.proxy.async` (exec_warpgroup_mma.cpp).
inline constexpr uint8_t kFenceProxyAsync = 1;
// Inst::sub of an XOp::BulkWait that is `cp.async.bulk.wait_group.read` (its groups' reads of
// shared memory done; their writes to global memory may still be landing).
inline constexpr uint8_t kBulkWaitRead = 1;

// Inst::sub of the mbarrier instructions. MbarArrive: kMbarDrop (arrive_drop), kMbarExpectTx
// (its operand is a tx byte count, the arrival count 1). MbarTx: kMbarComplete (complete_tx;
// without it expect_tx). MbarWait: kMbarParity (the operand is a phase parity, not a state).
inline constexpr uint8_t kMbarDrop = 1;
inline constexpr uint8_t kMbarExpectTx = 2;
inline constexpr uint8_t kMbarComplete = 1;
inline constexpr uint8_t kMbarParity = 1;

// State spaces after generic-address resolution.
enum class Space : uint8_t { Generic, Global, Shared, Local, Param, Const };

enum class Rounding : uint8_t { None, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi };

// A memory operand `[base+offset]`; a symbol base is already folded into `offset`.
struct MemRef {
  bool present = false;
  bool has_base = false;
  uint32_t base = 0; // register slot
  int64_t offset = 0;
};

struct Inst {
  XOp op = XOp::Nop;
  ValType type = ValType::None;  // the main type (destination; operands for setp/mul.wide)
  ValType type2 = ValType::None; // cvt source type; atom/mma extra types
  Space space = Space::Generic;
  Rounding rounding = Rounding::None;
  uint8_t vec = 1; // vector width of ld/st
  bool has_guard = false;
  bool guard_negated = false;
  bool sat = false, relu = false, ftz = false, approx = false, volatile_ = false;
  bool wide = false, hi = false;
  // ld.global.nc (__ldg) and ldu: a load through a path that is not coherent with the kernel's
  // own writes, defined only for data no thread writes during the kernel (race_shadow.hpp).
  bool non_coherent = false;
  uint8_t cmp = 0;        // ptx::CmpOp
  uint8_t bool_op = 0;    // ptx::BoolOp
  uint8_t sub = 0;        // op-specific selector (shfl/vote mode, atom op, barrier form ...)
  uint8_t groups[4] = {}; // sizes of brace groups in srcs (mma/wmma: d is in dsts)
  uint8_t layout = 0;     // wmma/mma: bit 0 = A column-major, bit 1 = B column-major
  uint8_t shape = 0;      // MmaShape
  bool trans = false;     // ldmatrix .trans
  // A float instruction's value-changing modifiers as its nodes carry them (symbolic::FloatMods
  // aux: rounding mode, .ftz, the element format, .NaN); a cvt's are the destination's.
  uint8_t float_mods = 0;
  uint32_t guard_reg = 0;
  std::vector<Operand> dsts; // registers or sinks, in order (vector elements, setp pair)
  std::vector<Operand> srcs; // in order, vector elements flattened
  MemRef mem[2];             // cp.async has two
  uint32_t target = 0;       // branch target (instruction index)
  uint32_t call_id = 0;      // index into Program::callees
  uint32_t line = 0;         // PTX position
  uint32_t column = 0;
  int32_t debug_file = -1; // CUDA position from .loc (-1: none)
  uint32_t debug_line = 0;
  std::string text; // the instruction as printed, for reports
};

// A call target: an extern function the engine understands (`__symexpf`) or an internal .func.
struct Callee {
  std::string name;
  bool is_symexp = false;
};

struct RegisterInfo {
  std::string name;
  ValType type = ValType::None;
};

// A variable placed in memory by the layout.
struct PlacedVariable {
  std::string name;
  Space space = Space::Shared;
  uint64_t address = 0; // in its space's window
  uint64_t size = 0;
  bool dynamic = false; // extern .shared [] (dynamic shared memory)
  uint32_t line = 0;
};

struct Program {
  std::string ptx_path;
  std::string entry;
  std::vector<Inst> insts;
  std::vector<RegisterInfo> registers;
  std::vector<Callee> callees;

  // The program has wgmma.mma_async: the CTA machines track the generic proxy's shared writes
  // and the wgmma state of each warp (warpgroup_mma_flight.hpp).
  bool uses_wgmma = false;
  // The program has a TMA tensor store (cp.async.bulk.tensor ... .bulk_group), which reads shared
  // memory through the async proxy: the CTA machines track the generic proxy's shared writes.
  bool uses_tensor_store = false;
  std::vector<PlacedVariable> variables; // shared, local, const and module .global variables
  std::vector<std::string> cuda_files;   // .file index -> path ("" when absent)
  uint64_t shared_static_bytes = 0;      // end of static shared variables (with red zones)
  uint64_t shared_dynamic_base = 0;      // where dynamic shared memory starts
  uint64_t local_bytes = 0;              // per-thread local memory
  uint64_t param_bytes = 0;              // kernel parameter buffer
  std::vector<uint64_t> param_offsets;   // offset of each kernel parameter
  std::vector<ValType> param_types;
  std::vector<std::string> param_names;
  // Size in bytes of each kernel parameter, and whether it is an aggregate (an array
  // declaration such as `.param .align 8 .b8 NAME[472]`, a by-value struct).
  std::vector<uint64_t> param_sizes;
  std::vector<bool> param_aggregate;
  // Module `.global`/.const initial contents: (address, bytes)
  std::vector<std::pair<uint64_t, std::vector<uint8_t>>> initial_data;
  uint32_t scratch_param_bytes = 0; // per-thread space for call-sequence `.param` variables
  // Why an instruction lowered to XOp::Unsupported is refused, where the opcode alone does not
  // say it (pc -> reason, completing "'INSTRUCTION' ...").
  std::unordered_map<uint32_t, std::string> unsupported_reasons;
};

// What is wrong with a lowered program (a branch target or register out of range, a callee
// that does not exist), or nullopt: the contract between lowering and the executor, which
// indexes with these numbers unchecked. Asserted after every lowering in builds with asserts.
std::optional<std::string> malformation(const Program& program);

} // namespace volta::exec
