// The pair fuzzer's own small kernel language: one CTA, typed SSA values ("nodes") that print
// one PTX instruction each (or a short fixed sequence), loads from typed input arrays, stores of
// one element per thread to typed output arrays. The generator builds kernels in it, the
// mutator rewrites them, the PTX writer prints them (plain, and instrumented for the oracle), and
// the taint analysis reads them. It knows nothing of the engine: the fuzzer talks to volta-eg
// only through PTX text and launch configurations, as a user would.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace volta::pair_fuzz {

// What a node's value is: the register class follows (f16/bf16 live in .b16 registers, packed
// halves in .b32 ones, as nvcc emits them).
enum class Ty : uint8_t { Pred, I16, I32, I64, F16, BF16, F32, F64, F16x2, BF16x2 };
enum class RegClass : uint8_t { P, H, R, RD, F, FD };
RegClass reg_class(Ty t);
int bit_width(Ty t); // 1 for predicates
bool is_float(Ty t);
bool is_int(Ty t); // I16, I32, I64
bool is_packed(Ty t);
std::string_view to_string(Ty t);

// PTX instruction types (the `.s32` of `add.s32`).
enum class PT : uint8_t {
  None,
  Pred,
  B8,
  B16,
  B32,
  B64,
  U8,
  U16,
  U32,
  U64,
  S8,
  S16,
  S32,
  S64,
  F16,
  BF16,
  F32,
  F64,
  F16x2,
  BF16x2
};
std::string_view to_string(PT t);
int pt_bits(PT t);
bool pt_signed(PT t);
bool pt_float(PT t);
bool pt_int(PT t); // Bn, Un, Sn
PT int_pt(int bits, bool is_signed);
PT bits_pt(int bits);
// The type an integer/float value of `ty` naturally carries (I32 -> u32 / s32, F32 -> f32).
PT natural_pt(Ty ty, bool is_signed = false);

enum class Rnd : uint8_t { None, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi };
std::string_view to_string(Rnd r); // "" for None
bool is_integral_rounding(Rnd r);  // .rni .rzi .rmi .rpi

enum class Cmp : uint8_t {
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  Lo,
  Ls,
  Hi,
  Hs,
  Equ,
  Neu,
  Ltu,
  Leu,
  Gtu,
  Geu,
  Num,
  Nan
};
std::string_view to_string(Cmp c);

enum class Op : uint8_t {
  // leaves
  Const,
  Load,
  Tid, // the thread's index, transformed by `index` (a lane permutation, as a shuffle inlines)
  // arithmetic (integer or float by `t1`)
  Add,
  Sub,
  Mul, // integer: imode lo / hi / wide
  Mad, // integer mad (imode lo / hi / wide); float multiply-add is Fma
  Fma,
  Mul24,
  Mad24,
  Sad,
  Div,
  Rem,
  Abs,
  Neg,
  Min,
  Max,
  // bits
  And,
  Or,
  Xor,
  Not,
  CNot,
  Shl,
  Shr,
  Popc,
  Clz,
  Brev,
  Bfe,
  Bfi,
  Prmt, // selector `bits`, or a third argument
  Lop3, // table `bits`
  Shf,  // funnel shift: `left`, `clamp`
  // float functions
  Rcp,
  Sqrt,
  Rsqrt,
  Ex2,
  Lg2,
  Sin,
  Cos,
  Tanh,
  // conversions and moves
  Cvt,    // t1 <- t2
  Bits,   // mov.bN between an integer and a float register of one width (reinterpretation)
  Pack,   // mov.b32 d, {lo, hi}
  Unpack, // one half of mov.b32 {lo, hi}, s: bits = 0 low, 1 high
  // predicates and selection
  Setp,
  PNot,
  PAnd,
  POr,
  PXor,
  Select, // args: cond, then, else; printed as selp, a branch or a predicated instruction
  // warp and memory
  Shfl,  // shfl.sync.<mode>.b32 over the full warp
  Vote,  // vote.sync.ballot.b32 of a predicate over the full warp (an I32)
  Redux, // redux.sync.<aop>.<t1> of an I32 over the full warp (aop: add min max and or xor)
  Atom,  // an atomic on a `zero` output array; its value (if used) is the returned old value
};
std::string_view to_string(Op op);
// The warp collectives: every lane of the warp takes part, and a lane's value depends on others'.
inline bool is_collective(Op op) {
  return op == Op::Shfl || op == Op::Vote || op == Op::Redux;
}

enum class IMode : uint8_t { Lo, Hi, Wide };
enum class ShflMode : uint8_t { Idx, Bfly, Up, Down };
enum class AtomOp : uint8_t { Add, Min, Max, And, Or, Xor, Exch };
std::string_view to_string(AtomOp a);
enum class Via : uint8_t { Global, SharedSt, CpAsync }; // how a load reaches its array
enum class SelStyle : uint8_t { Selp, Branch, Predicated };

// One step of a thread-index transform: the shuffle-free form of a lane permutation.
struct IdxStep {
  enum class Kind : uint8_t { Xor, Rot, Lane, Fixed } kind = Kind::Xor;
  uint32_t k = 0; // Xor: idx ^ k (k < 32); Rot: lane (lane + k) mod 32 in the same warp;
                  // Lane: lane k of the same warp; Fixed: the constant index k
  bool operator==(const IdxStep&) const = default;
};
uint32_t apply_steps(const std::vector<IdxStep>& steps, uint32_t tid);

struct Node {
  Op op = Op::Const;
  Ty ty = Ty::I32;
  std::vector<int> args;
  PT t1 = PT::None; // the instruction type (cvt: destination)
  PT t2 = PT::None; // cvt: source; setp/selp: unused
  Rnd rnd = Rnd::None;
  bool ftz = false, sat = false, approx = false, full = false, nan = false;
  Cmp cmp = Cmp::Eq;
  IMode imode = IMode::Lo;
  ShflMode smode = ShflMode::Idx;
  AtomOp aop = AtomOp::Add;
  bool left = false, clamp = false; // shf
  uint64_t bits = 0;          // Const value bits; Lop3 table; Prmt selector; Shfl lane; Unpack half
  uint32_t bits2 = 0;         // Shfl clamp operand
  int array = -1;             // Load: input array; Atom: output array
  std::vector<IdxStep> index; // Load / Tid / Atom: the element index as a transform of tid
  Via via = Via::Global;
  SelStyle style = SelStyle::Selp;
  bool imm = false; // Const: may be written as an immediate operand
  int region = -1;  // inside a branch arm of Select node `region` (printed there only)
  int arm = 0;      // 0: then arm, 1: else arm
  bool operator==(const Node&) const = default;
};

enum class ArrayKind : uint8_t { In, Out, Zero };
struct ArrayDecl {
  std::string name;
  PT type = PT::F32; // element type as declared in the manifest
  uint32_t len = 0;
  ArrayKind kind = ArrayKind::In;
  bool operator==(const ArrayDecl&) const = default;
};
int elem_bytes(PT t);
std::string_view manifest_type(PT t); // "f32", "s8", ...

struct Store {
  int array = -1; // index into Kernel::outputs
  int value = -1; // node
  PT st = PT::B32;
  bool operator==(const Store&) const = default;
};

struct Kernel {
  uint32_t block = 32;
  std::vector<ArrayDecl> inputs;
  std::vector<ArrayDecl> outputs; // `out` arrays (one element per thread) and `zero` atomic arrays
  std::vector<Node> nodes;
  std::vector<Store> stores;
  // Staging of shared-memory loads: dropping the barrier or the cp.async wait makes the kernel
  // racy where another thread's (or an in-flight) element is read.
  bool drop_barrier = false;
  bool drop_wait = false;

  int add(Node n); // returns the new node's id
  bool operator==(const Kernel&) const = default;
};

// Can this node be the guarded instruction of a predicated select (one instruction that writes
// its destination register and nothing else that matters)?
bool guardable(const Node& n);
// May an integer cvt from `src` to `dst` carry .sat (can the destination miss a source value)?
bool int_cvt_sat_ok(PT dst, PT src);

// Turns a predicated select whose then arm is no longer a single guardable instruction into a
// branch (mutations may change the arm).
void normalize_selects(Kernel& k);

// Nodes in an order where every argument comes before its user (the order they print in);
// nodes of a branch arm follow their arm's position (they print inside the branch).
std::vector<int> topological_order(const Kernel& k);
// Nodes that reach a store or a side effect (atomics are side effects; every node prints, but
// only these matter to the outputs).
std::vector<bool> live_nodes(const Kernel& k);
// Users of each node.
std::vector<std::vector<int>> users_of(const Kernel& k);
// Checks the structural invariants (types of arguments, regions, in-bounds indices); returns
// the first problem or "".
std::string validate(const Kernel& k);

} // namespace volta::pair_fuzz
