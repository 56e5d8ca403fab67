// The typed syntax tree of a PTX module, as nvcc and TileLang emit it (PTX ISA 7.x-9.x).
//
// The tree keeps everything needed to print the module back (parse -> print -> parse yields an
// equal tree) and to map each instruction to its PTX line and, through `.loc`, to its CUDA
// source line. It gives no meaning to instructions: an opcode the engine does not model still
// parses, and the engine later refuses it by name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "ptx/source_location.hpp"

namespace volta::ptx {

// ---------------------------------------------------------------------------------------------
// Types and state spaces
// ---------------------------------------------------------------------------------------------

enum class StateSpace : uint8_t {
  None,
  Reg,
  Sreg,
  Const,
  Global,
  Local,
  Param,
  Shared,
  Tex,
  Generic
};

enum class ScalarType : uint8_t {
  None,
  Pred,
  B8,
  B16,
  B32,
  B64,
  B128,
  U8,
  U16,
  U32,
  U64,
  S8,
  S16,
  S32,
  S64,
  F16,
  F16x2,
  BF16,
  BF16x2,
  TF32,
  F32,
  F64,
  E4M3,
  E5M2,
  E4M3x2,
  E5M2x2,
};

enum class TypeKind : uint8_t { None, Pred, Bits, Unsigned, Signed, Float };

// Width in bits of one value of the type (f16x2 is 32, pred is 1).
uint32_t bit_width(ScalarType t);
TypeKind kind_of(ScalarType t);
bool is_signed(ScalarType t); // s8 .. s64
bool is_float(ScalarType t);  // f16, f16x2, bf16, bf16x2, tf32, f32, f64 and the fp8 types
// The PTX spelling without the dot ("u32"), and the reverse lookup.
const char* spelling(ScalarType t);
std::optional<ScalarType> scalar_type_from(std::string_view dotless);
const char* spelling(StateSpace s);
std::optional<StateSpace> state_space_from(std::string_view dotless);

// ---------------------------------------------------------------------------------------------
// Operands
// ---------------------------------------------------------------------------------------------

// A register, special register or declared variable name used as a value: "%r12", "%tid.x",
// "%ctaid.y", "param0", "_Z5sgemm_param_0", "buf_dyn_shmem". `negated` is the `!` prefix that
// predicate operands may carry (`and.pred %p1, %p2, !%p3`).
struct NameOperand {
  std::string name;
  bool negated = false;
  friend bool operator==(const NameOperand&, const NameOperand&) = default;
};

// Integer immediate: decimal, hex (0x...), octal (0...) or binary (0b...), optionally negative,
// optionally with the unsigned suffix U. `value` holds the two's-complement bits.
struct IntImmediate {
  int64_t value = 0;
  bool is_unsigned = false;
  friend bool operator==(const IntImmediate&, const IntImmediate&) = default;
};

// Float immediate. `0fXXXXXXXX` (f32 bits), `0dXXXXXXXXXXXXXXXX` (f64 bits) or a decimal literal
// (PTX reads decimal floats as f64). `bits` holds the IEEE bits, `width` 32 or 64.
struct FloatImmediate {
  uint64_t bits = 0;
  uint8_t width = 32;
  friend bool operator==(const FloatImmediate&, const FloatImmediate&) = default;
};

struct Operand;

// A memory operand `[base+offset]`: base is a register or a variable name (or absent for an
// absolute address `[1024]`); the offset may be negative (`[%rd1+-4]`). Texture, surface and
// tensor addresses carry coordinates after the base (`[tex, {%f1, %f2}]`,
// `[%rd19, {%r1, %r2, %r3}]`, `[tex, sampler, {...}]`): kept in `coordinates`, never with an
// offset. Nothing the engine models takes them; it refuses such an instruction as UNSUPPORTED.
struct AddressOperand {
  std::optional<std::string> base;
  int64_t offset = 0;
  std::vector<Operand> coordinates;
  friend bool operator==(const AddressOperand&, const AddressOperand&);
};

// `_`, the sink operand.
struct SinkOperand {
  friend bool operator==(const SinkOperand&, const SinkOperand&) = default;
};

// A brace-enclosed vector `{%f1, %f2, _}`.
struct VectorOperand {
  std::vector<Operand> elements;
  friend bool operator==(const VectorOperand&, const VectorOperand&);
};

// Two destinations of setp: `%p|%q`.
struct PairOperand {
  std::string first;
  std::string second;
  friend bool operator==(const PairOperand&, const PairOperand&) = default;
};

// A parenthesised list in a call: `(retval0)` or `(param0, param1)`.
struct ParenListOperand {
  std::vector<std::string> names;
  friend bool operator==(const ParenListOperand&, const ParenListOperand&) = default;
};

struct Operand {
  std::variant<NameOperand, IntImmediate, FloatImmediate, AddressOperand, SinkOperand,
               VectorOperand, PairOperand, ParenListOperand>
      value;
  SourceLocation loc; // where the operand starts (for diagnostics; not compared)

  template <class T>
  bool is() const {
    return std::holds_alternative<T>(value);
  }
  template <class T>
  const T& as() const {
    return std::get<T>(value);
  }
  friend bool operator==(const Operand& a, const Operand& b) { return a.value == b.value; }
};

inline bool operator==(const VectorOperand& a, const VectorOperand& b) {
  return a.elements == b.elements;
}
inline bool operator==(const AddressOperand& a, const AddressOperand& b) {
  return a.base == b.base && a.offset == b.offset && a.coordinates == b.coordinates;
}

// ---------------------------------------------------------------------------------------------
// Instructions
// ---------------------------------------------------------------------------------------------

// Opcodes with a dedicated enumerator, one per row of ptx/opcodes.def; anything else is
// Opcode::Other with its name kept in Instruction::opcode_name.
enum class Opcode : uint16_t {
  Other,
#define PTX_OPCODE(name, spelling, form) name,
#include "ptx/opcodes.def"
#undef PTX_OPCODE
};

// Opcode::Other and one enumerator per row of opcodes.def.
inline constexpr size_t kOpcodeCount = 1
#define PTX_OPCODE(name, spelling, form) +1
#include "ptx/opcodes.def"
#undef PTX_OPCODE
    ;

const char* spelling(Opcode op);
Opcode opcode_from(std::string_view name);

// Comparison of setp/set (`.lt`, `.ltu`, ...).
enum class CmpOp : uint8_t {
  None,
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
  Nan,
};
// Boolean combination of setp/set/selp with a third predicate (`setp.lt.and.s32`).
enum class BoolOp : uint8_t { None, And, Or, Xor };

// Known single-word modifiers, decoded into a bit set for quick tests. Every suffix is also kept
// verbatim, in order, in Instruction::suffixes, so that rarer ones (`.m16n8k16`, `.x4`, `.row`,
// `.idx`, `.ca`, `.commit_group`) are never lost.
enum class Modifier : uint8_t {
  Rn,
  Rz,
  Rm,
  Rp,
  Rni,
  Rzi,
  Rmi,
  Rpi,
  Rna,
  Ftz,
  Sat,
  Relu,
  Approx,
  Full,
  Wide,
  Lo,
  Hi,
  Uni,
  Sync,
  Aligned,
  Volatile,
  Relaxed,
  Acquire,
  Release,
  Weak,
  Nc,
  Ca,
  Cg,
  Cs,
  Lu,
  Cv,
  Wb,
  Wt,
  To,
  Cta,
  Gpu,
  Sys,
  Cluster,
  Count_
};
const char* spelling(Modifier m);
std::optional<Modifier> modifier_from(std::string_view dotless);

struct ModifierSet {
  uint64_t bits = 0;
  bool has(Modifier m) const { return (bits >> static_cast<unsigned>(m)) & 1u; }
  void add(Modifier m) { bits |= uint64_t{1} << static_cast<unsigned>(m); }
  friend bool operator==(const ModifierSet&, const ModifierSet&) = default;
};

// A guard predicate: `@%p1` or `@!%p1`.
struct Guard {
  std::string predicate;
  bool negated = false;
  friend bool operator==(const Guard&, const Guard&) = default;
};

// The CUDA source position of an instruction, from the closest preceding `.loc file line col`.
struct DebugLocation {
  uint32_t file = 0; // the `.file` index
  uint32_t line = 0;
  uint32_t column = 0;
  // `inlined_at FILE LINE COLUMN`, followed through a chain of nested inlines to the outermost
  // call (the kernel's line that called a CUDA header's intrinsic); line 0 when not inlined.
  uint32_t inlined_file = 0;
  uint32_t inlined_line = 0;
  uint32_t inlined_column = 0;
  friend bool operator==(const DebugLocation&, const DebugLocation&) = default;
};

struct Instruction {
  std::optional<Guard> guard;
  Opcode opcode = Opcode::Other;
  std::string opcode_name;           // as written: "add", "wmma", "cp"
  std::vector<std::string> suffixes; // every `.word` after the opcode, dotless, in order
  // Decoded views of `suffixes`:
  ModifierSet modifiers;
  StateSpace space = StateSpace::None; // the first state-space suffix, if any
  std::vector<ScalarType> types;       // every type suffix, in order (cvt.f32.s32: {F32, S32})
  uint8_t vector_width = 1;            // .v2 / .v4 / .v8
  CmpOp cmp = CmpOp::None;
  BoolOp bool_op = BoolOp::None;
  std::vector<Operand> operands;
  std::optional<DebugLocation> debug_loc;
  SourceLocation loc; // the PTX position of the instruction (its guard or opcode)

  bool has_suffix(std::string_view s) const;
  // The first type suffix, or None.
  ScalarType type() const { return types.empty() ? ScalarType::None : types.front(); }
  friend bool operator==(const Instruction& a, const Instruction& b);
};

// ---------------------------------------------------------------------------------------------
// Declarations and functions
// ---------------------------------------------------------------------------------------------

// One element of a variable initializer list: `{1, 2, 0f3F800000, sym, generic(sym)+4}`.
struct Initializer {
  std::variant<IntImmediate, FloatImmediate, std::string> value; // string: a symbol address
  int64_t offset = 0;                                            // for symbol+offset
  bool generic = false;                                          // generic(sym)
  friend bool operator==(const Initializer&, const Initializer&) = default;
};

enum class Linkage : uint8_t { None, Visible, Extern, Weak, Common };

// The opaque handle types of a `.global` declaration (`.global .texref tex;`), in place of a
// scalar type. Valid PTX; the engine models no texture or surface and refuses their use.
enum class OpaqueType : uint8_t { None, Texref, Samplerref, Surfref };

// A `.global/.const/.shared/.local/.param` variable (module or function scope).
// `dims` holds array extents; an unsized extent (`[]`) is std::nullopt.
struct VariableDecl {
  Linkage linkage = Linkage::None;
  StateSpace space = StateSpace::None;
  std::optional<uint32_t> align;
  uint8_t vector_width = 1;
  ScalarType type = ScalarType::None;
  std::string name;
  std::vector<std::optional<uint64_t>> dims;
  std::vector<Initializer> init; // empty: no initializer
  bool has_init = false;
  bool is_ptr = false;                     // params: `.ptr`
  StateSpace ptr_space = StateSpace::None; // params: `.ptr.global`
  std::optional<uint32_t> ptr_align;       // params: `.ptr.global.align 16`
  OpaqueType opaque = OpaqueType::None;    // `.texref` etc.; `type` is None then
  bool managed = false;                    // `.attribute(.managed)`
  SourceLocation loc;

  // Size in bytes when every extent is known.
  std::optional<uint64_t> size_bytes() const;
  friend bool operator==(const VariableDecl& a, const VariableDecl& b);
};

// `.reg .b32 %r<18>;` (count 18: %r0..%r17) or `.reg .f32 %f1, %f2;` (one decl per name).
struct RegisterDecl {
  ScalarType type = ScalarType::None;
  uint8_t vector_width = 1;
  std::string name;
  std::optional<uint32_t> count; // the `<N>` range
  SourceLocation loc;
  friend bool operator==(const RegisterDecl& a, const RegisterDecl& b);
};

struct Label {
  std::string name;
  SourceLocation loc;
  friend bool operator==(const Label& a, const Label& b) { return a.name == b.name; }
};

// `.loc file line column [, inlined_at ...]`: kept verbatim (extra text after the column).
struct LocDirective {
  DebugLocation where;
  std::string rest;
  SourceLocation loc;
  friend bool operator==(const LocDirective& a, const LocDirective& b) {
    return a.where == b.where && a.rest == b.rest;
  }
};

// `.pragma "nounroll";`
struct Pragma {
  std::string text;
  SourceLocation loc;
  friend bool operator==(const Pragma& a, const Pragma& b) { return a.text == b.text; }
};

// `{` and `}` of a nested scope inside a body (nvcc's call sequences).
struct ScopeBegin {
  SourceLocation loc;
  friend bool operator==(const ScopeBegin&, const ScopeBegin&) { return true; }
};
struct ScopeEnd {
  SourceLocation loc;
  friend bool operator==(const ScopeEnd&, const ScopeEnd&) { return true; }
};

// A directive of valid PTX that nothing here interprets, kept verbatim (without its `;`) so
// that printing reproduces it: `.callprototype (.param .b32 _) _ (.param .b64 _)`,
// `.branchtargets L1, L2` and `.calltargets f1` in a body (after their label), `.alias a, b` at
// module scope. What uses them (an indirect call, brx.idx, a call of the alias) is refused by
// the engine as UNSUPPORTED, with its PTX line.
struct UnmodeledDirective {
  std::string text; // from the directive's dot to before the `;`
  SourceLocation loc;
  friend bool operator==(const UnmodeledDirective& a, const UnmodeledDirective& b) {
    return a.text == b.text;
  }
};

// A body is a flat list of statements in source order; nested scopes appear as
// ScopeBegin/ScopeEnd pairs so that printing reproduces them.
using Statement = std::variant<Instruction, Label, VariableDecl, RegisterDecl, LocDirective, Pragma,
                               ScopeBegin, ScopeEnd, UnmodeledDirective>;

// `.maxntid 128, 1, 1`, `.reqntid`, `.minnctapersm 1`, `.maxnreg`, `.noreturn` ...
struct PerformanceDirective {
  std::string name; // dotless
  std::vector<uint64_t> values;
  friend bool operator==(const PerformanceDirective&, const PerformanceDirective&) = default;
};

struct Function {
  bool is_entry = false; // .entry (kernel) vs .func
  Linkage linkage = Linkage::None;
  std::string name;
  std::vector<VariableDecl> returns; // .func return params
  std::vector<VariableDecl> params;
  std::vector<PerformanceDirective> directives;
  bool has_body = false; // false for a prototype such as `.extern .func ... __symexpf(...);`
  std::vector<Statement> body;
  SourceLocation loc;
  friend bool operator==(const Function& a, const Function& b);
};

// `.file 1 "path" [, timestamp, size]`
struct FileDirective {
  uint32_t index = 0;
  std::string path;
  std::optional<uint64_t> timestamp;
  std::optional<uint64_t> size;
  friend bool operator==(const FileDirective&, const FileDirective&) = default;
};

// Module-level items in source order, so that printing preserves the layout.
using TopLevel = std::variant<VariableDecl, Function, FileDirective, Pragma, UnmodeledDirective>;

// A DWARF section of `-G`/`-lineinfo` output (`.section .debug_str { ... }`). The body is kept
// as raw text (what lies between the braces) so that printing reproduces it; nothing in it is
// interpreted. nvcc emits these after every function; the printer puts them at the end.
struct DebugSection {
  std::string name; // with its dot: ".debug_str"
  std::string body; // verbatim text between `{` and the matching `}`
  SourceLocation loc;
  friend bool operator==(const DebugSection& a, const DebugSection& b) {
    return a.name == b.name && a.body == b.body;
  }
};

struct Module {
  std::string path; // as given to the parser; used in diagnostics
  uint32_t version_major = 0;
  uint32_t version_minor = 0;
  std::vector<std::string> targets; // `.target sm_80, texmode_independent` -> {"sm_80", ...}
  uint32_t address_size = 64;
  std::vector<TopLevel> items;
  std::vector<DebugSection> debug_sections; // in source order, printed after `items`

  // Lookups (linear; modules are small).
  const Function* find_function(std::string_view name) const;
  const VariableDecl* find_variable(std::string_view name) const;
  std::vector<const Function*> entries() const;
  const FileDirective* find_file(uint32_t index) const;
  // Compares the content only: `path` and every SourceLocation are ignored.
  friend bool operator==(const Module& a, const Module& b);
};

} // namespace volta::ptx
