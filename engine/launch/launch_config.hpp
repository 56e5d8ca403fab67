// How one kernel is launched for verification: the schema of a kernel configuration in
// ../shared/volta-corpus/benchmarks.json (see examples/README.md), as a C++ value.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/launch/tensor_map.hpp"
#include "engine/symbolic/rational.hpp"

namespace volta::launch {

using Dim3 = std::array<uint32_t, 3>;

enum class ArrayKind {
  In,    // symbolic input: element i is the real-valued symbol name[i]
  Out,   // output; initial contents are uninitialized
  InOut, // symbolic input that is also written
  Index, // concrete a[i] = i (gather indices, so that addresses stay concrete)
  Zero,  // output that starts as 0.0, as after a memset
};

std::string_view to_string(ArrayKind k);
bool is_output(ArrayKind k); // Out, InOut, Zero

// The element type of an array (manifest "type"): how the bytes of an element read as a number.
// The one element-type enum of the engine: the emulator's array types are these too (never
// Unknown there). Also the type of the last store to an output element
// (exec::OutputArray::store_types), so that stores of different types are compared by their bytes.
// Unknown: not declared / not known.
enum class ElemType : uint8_t {
  Unknown,
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
  F64
};

std::string_view to_string(ElemType t); // "f32", "s8", ... ("unknown")
std::optional<ElemType> elem_type_from(std::string_view word);
uint32_t byte_width(ElemType t); // 0 for Unknown
bool is_float(ElemType t);
bool is_signed_int(ElemType t);

struct ArraySpec {
  std::string name;
  uint64_t base = 0;
  uint32_t elem_width = 4;
  uint64_t len = 0;
  ArrayKind kind = ArrayKind::In;
  ElemType type = ElemType::Unknown; // manifest "type"; Unknown: inferred from the stores
  // manifest "range" [lo, hi]: the values an input element may hold, for the bound on the
  // kernels' rounding error (none: no bound for terms that read it).
  std::optional<std::pair<double, double>> range;

  uint64_t size_bytes() const { return len * elem_width; }
  uint64_t end() const { return base + size_bytes(); }
};

// Why `a` cannot join a kernel's `arrays`: a name already taken, or bytes another array holds
// (two arrays sharing memory would make one kernel's stores the other's inputs, which no
// manifest describes); empty when it can.
std::string array_clash(const std::vector<ArraySpec>& arrays, const ArraySpec& a);

// One typed value at a byte offset of an aggregate (by-value struct) parameter.
struct StructField {
  // TensorMap: a 128-byte CUtensorMap given by its encode arguments (`tensor_map`); its bytes
  // are never written (the driver's encoding is undocumented): they stay as `bytes` gave them.
  enum class Type : uint8_t { U64, S64, U32, S32, U8, Bool, F32, TensorMap };
  uint64_t offset = 0;
  Type type = Type::U64;
  std::string array; // non-empty: the field holds this array's base address (a u64 pointer)
  uint64_t bits = 0; // otherwise: the field's little-endian bits (low `width` bytes)
  std::string text;  // the value as written ("ptr:Q", "int:4096"), for messages
  std::optional<TensorMap> tensor_map; // Type::TensorMap only
};
std::optional<StructField::Type> struct_field_type_from(std::string_view word);
std::string_view to_string(StructField::Type t);
uint32_t byte_width(StructField::Type t);

struct ParamSpec {
  // Struct: a by-value aggregate (`.param .align 8 .b8 NAME[SIZE]`), given as raw bytes and/or
  // typed fields; the engine reads it, through the parameter's address too, byte by byte.
  enum class Kind { Ptr, Sym, Float, Int, Struct };
  Kind kind = Kind::Int;
  std::string name;                       // array name (Ptr) or symbol name (Sym)
  symbolic::Rational float_value;         // Float: the exact decimal written in the manifest
  int64_t int_value = 0;                  // Int
  std::string text;                       // as written ("ptr:A"), for messages
  uint64_t struct_size = 0;               // Struct: SIZE, which must equal the PTX declaration
  std::vector<uint8_t> struct_bytes;      // Struct: the `bytes` file (empty, or exactly SIZE)
  std::vector<StructField> struct_fields; // Struct: they override struct_bytes
};

enum class CtaMode {
  First, // CTA (0,0,0) only: Volta's symmetry assumption, which proves nothing of the others
  All,   // every CTA of the grid (the default everywhere: flags, manifests, Python)
};

struct KernelConfig;
// The bytes of a Struct parameter: zeros, then the `bytes` file, then every field (pointer
// fields hold the base of their array in `config`; an unknown array leaves the field 0, which
// the manifest reader and the flag parser refuse beforehand).
std::vector<uint8_t> aggregate_bytes(const ParamSpec& p, const KernelConfig& config);

struct KernelConfig {
  std::string ptx_path; // resolved against the manifest's folder
  std::string entry;
  Dim3 block{1, 1, 1};
  Dim3 grid{1, 1, 1};
  std::vector<ArraySpec> arrays;
  std::vector<ParamSpec> params;
  uint64_t dyn_shared_bytes = 0;
  std::map<std::string, int64_t> globals; // module .global scalars set before launch
  CtaMode ctas = CtaMode::All;
  // The thread-block cluster (`"cluster"`, `--cluster`); {1,1,1} when none is given. Each
  // dimension divides the grid's (launch/cluster.hpp checks it and the kernel's directives).
  Dim3 cluster{1, 1, 1};
  bool cluster_given = false; // a cluster was given (a kernel with .explicitcluster needs one)

  const ArraySpec* find_array(std::string_view name) const;
  uint64_t threads_per_cta() const { return uint64_t{block[0]} * block[1] * block[2]; }
  uint64_t cta_count() const { return uint64_t{grid[0]} * grid[1] * grid[2]; }
  uint64_t cluster_size() const { return uint64_t{cluster[0]} * cluster[1] * cluster[2]; }
};

} // namespace volta::launch
