// The PTX instruction table (see instruction_set.hpp for the word language of a row).
//
// Sources: the PTX ISA 9.x syntax blocks of each instruction, checked against ptxas 13
// (tests/ptx/ptxas_differential_test.cpp runs both on mutants of the project's kernels). A row
// errs on the side of accepting: a form ptxas takes must never be refused here.
#include "ptx/instruction_set.hpp"

#include <algorithm>
#include <array>

namespace volta::ptx {

namespace {

// Type lists shared by several rows.
#define VOLTA_INT16_64 "u16 u32 u64 s16 s32 s64"
#define VOLTA_BITS16_64 "b16 b32 b64"
#define VOLTA_HALF "f16 f16x2 bf16 bf16x2"
#define VOLTA_ALL_INT "u8 u16 u32 u64 s8 s16 s32 s64"
#define VOLTA_ALL_BITS "b8 b16 b32 b64 b128"
#define VOLTA_ROUND_F "rn:F rz:F rm:F rp:F"
#define VOLTA_SCOPE "cta gpu sys cluster"
#define VOLTA_CACHE_LD                                                                             \
  "ca cg cs lu cv nc L2::64B L2::128B L2::256B L2::cache_hint L1::evict_normal "                   \
  "L1::evict_unchanged L1::evict_first L1::evict_last L1::no_allocate L2::evict_first "            \
  "L2::evict_last L2::evict_normal unified"
#define VOLTA_CACHE_ST                                                                             \
  "wb cg cs wt L2::cache_hint L1::evict_normal L1::evict_unchanged L1::evict_first "               \
  "L1::evict_last L1::no_allocate L2::evict_first L2::evict_last L2::evict_normal"
#define VOLTA_MEMORY_SPACES "global shared local param const shared::cta shared::cluster"

// A row names only the fields it uses; the others keep their defaults (no types, no modifiers).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
// clang-format off
constexpr std::array kRules = {
    // --- integer and float arithmetic --------------------------------------------------------
    InstructionRule{.opcode = "add", .types = VOLTA_INT16_64 " u16x2 s16x2 f32 f64 " VOLTA_HALF,
        .modifiers = VOLTA_ROUND_F " ftz:f32,f16,f16x2 sat:s32,f32,f16,f16x2 cc:u32,s32,u64,s64",
        .min_operands = 3, .max_operands = 3, .operands = "D S S"},
    InstructionRule{.opcode = "sub", .types = VOLTA_INT16_64 " f32 f64 " VOLTA_HALF,
        .modifiers = VOLTA_ROUND_F " ftz:f32,f16,f16x2 sat:s32,f32,f16,f16x2 cc:u32,s32,u64,s64",
        .min_operands = 3, .max_operands = 3, .operands = "D S S"},
    InstructionRule{.opcode = "addc", .types = "u32 s32 u64 s64", .modifiers = "cc",
        .min_operands = 3, .max_operands = 3, .operands = "D S S"},
    InstructionRule{.opcode = "subc", .types = "u32 s32 u64 s64", .modifiers = "cc",
        .min_operands = 3, .max_operands = 3, .operands = "D S S"},
    InstructionRule{.opcode = "mul", .types = VOLTA_INT16_64 " f32 f64 " VOLTA_HALF,
        .modifiers = "lo:I hi:I wide:u16,u32,s16,s32 " VOLTA_ROUND_F
                     " ftz:f32,f16,f16x2 sat:f32,f16,f16x2",
        .required = "lo|hi|wide:I",
        .min_operands = 3, .max_operands = 3, .operands = "D S S"},
    InstructionRule{.opcode = "mad", .types = VOLTA_INT16_64 " f32 f64 " VOLTA_HALF,
        .modifiers = "lo:I hi:I wide:u16,u32,s16,s32 sat:s32,f32 cc:u32,s32,u64,s64 "
                     VOLTA_ROUND_F " ftz:f32",
        .required = "lo|hi|wide:I rn|rz|rm|rp:f32,f64",
        .min_operands = 4, .max_operands = 4, .operands = "D S S S"},
    InstructionRule{.opcode = "madc", .types = "u32 s32 u64 s64", .modifiers = "lo hi cc",
        .required = "lo|hi", .min_operands = 4, .max_operands = 4, .operands = "D S S S"},
    InstructionRule{.opcode = "mul24", .types = "u32 s32", .modifiers = "lo hi",
        .required = "lo|hi", .min_operands = 3, .max_operands = 3, .operands = "D S S"},
    InstructionRule{.opcode = "mad24", .types = "u32 s32", .modifiers = "lo hi sat:s32",
        .required = "lo|hi", .min_operands = 4, .max_operands = 4, .operands = "D S S S"},
    InstructionRule{.opcode = "sad", .types = VOLTA_INT16_64, .min_operands = 4,
        .max_operands = 4, .operands = "D S S S"},
    InstructionRule{.opcode = "div", .types = VOLTA_INT16_64 " f32 f64",
        .modifiers = "approx:f32 full:f32 " VOLTA_ROUND_F " ftz:f32",
        .required = "approx|full|rn|rz|rm|rp:F",
        .min_operands = 3, .max_operands = 3, .operands = "D S S"},
    InstructionRule{.opcode = "rem", .types = VOLTA_INT16_64, .min_operands = 3,
        .max_operands = 3, .operands = "D S S"},
    InstructionRule{.opcode = "abs", .types = "s16 s32 s64 f32 f64 " VOLTA_HALF,
        .modifiers = "ftz:f32,f16,f16x2", .min_operands = 2, .max_operands = 2,
        .operands = "D S"},
    InstructionRule{.opcode = "neg", .types = "s16 s32 s64 f32 f64 " VOLTA_HALF,
        .modifiers = "ftz:f32,f16,f16x2", .min_operands = 2, .max_operands = 2,
        .operands = "D S"},
    InstructionRule{.opcode = "min", .types = VOLTA_INT16_64 " u16x2 s16x2 f32 f64 " VOLTA_HALF,
        .modifiers = "ftz:f32,f16,f16x2 NaN:F xorsign:F abs:F relu:s16x2,s32",
        .min_operands = 3, .max_operands = 4, .operands = "D S S S"},
    InstructionRule{.opcode = "max", .types = VOLTA_INT16_64 " u16x2 s16x2 f32 f64 " VOLTA_HALF,
        .modifiers = "ftz:f32,f16,f16x2 NaN:F xorsign:F abs:F relu:s16x2,s32",
        .min_operands = 3, .max_operands = 4, .operands = "D S S S"},
    InstructionRule{.opcode = "fma", .types = "f32 f64 " VOLTA_HALF,
        .modifiers = VOLTA_ROUND_F " ftz:f32,f16,f16x2 sat:f32,f16,f16x2 relu:" "f16,f16x2,bf16,bf16x2"
                     " oob:f16,f16x2,bf16,bf16x2",
        .required = "rn|rz|rm|rp", .min_operands = 4, .max_operands = 4,
        .operands = "D S S S"},
    InstructionRule{.opcode = "rcp", .types = "f32 f64", .modifiers = "approx full " VOLTA_ROUND_F " ftz",
        .required = "approx|rn|rz|rm|rp", .min_operands = 2, .max_operands = 2,
        .operands = "D S"},
    InstructionRule{.opcode = "sqrt", .types = "f32 f64",
        .modifiers = "approx:f32 " VOLTA_ROUND_F " ftz:f32",
        .required = "approx|rn|rz|rm|rp", .min_operands = 2, .max_operands = 2,
        .operands = "D S"},
    InstructionRule{.opcode = "rsqrt", .types = "f32 f64", .modifiers = "approx ftz",
        .required = "approx", .min_operands = 2, .max_operands = 2, .operands = "D S"},
    InstructionRule{.opcode = "sin", .types = "f32", .modifiers = "approx ftz",
        .required = "approx", .min_operands = 2, .max_operands = 2, .operands = "D S"},
    InstructionRule{.opcode = "cos", .types = "f32", .modifiers = "approx ftz",
        .required = "approx", .min_operands = 2, .max_operands = 2, .operands = "D S"},
    InstructionRule{.opcode = "lg2", .types = "f32", .modifiers = "approx ftz",
        .required = "approx", .min_operands = 2, .max_operands = 2, .operands = "D S"},
    InstructionRule{.opcode = "ex2", .types = "f32 " VOLTA_HALF, .modifiers = "approx ftz",
        .required = "approx", .min_operands = 2, .max_operands = 2, .operands = "D S"},
    InstructionRule{.opcode = "tanh", .types = "f32 " VOLTA_HALF, .modifiers = "approx",
        .required = "approx", .min_operands = 2, .max_operands = 2, .operands = "D S"},
    InstructionRule{.opcode = "copysign", .types = "f32 f64", .min_operands = 3,
        .max_operands = 3, .operands = "D S S"},
    InstructionRule{.opcode = "testp", .types = "f32 f64",
        .modifiers = "finite infinite number notanumber normal subnormal",
        .required = "finite|infinite|number|notanumber|normal|subnormal", .min_operands = 2,
        .max_operands = 2, .operands = "d s"},
    // --- bit manipulation ----------------------------------------------------------------------
    InstructionRule{.opcode = "popc", .types = "b32 b64", .min_operands = 2, .max_operands = 2,
        .operands = "d S"},
    InstructionRule{.opcode = "clz", .types = "b32 b64", .min_operands = 2, .max_operands = 2,
        .operands = "d S"},
    InstructionRule{.opcode = "bfind", .types = "u32 u64 s32 s64", .modifiers = "shiftamt",
        .min_operands = 2, .max_operands = 2, .operands = "d S"},
    InstructionRule{.opcode = "fns", .types = "b32", .min_operands = 4, .max_operands = 4,
        .operands = "d s s s"},
    InstructionRule{.opcode = "brev", .types = "b32 b64", .min_operands = 2, .max_operands = 2,
        .operands = "D S"},
    InstructionRule{.opcode = "bfe", .types = "u32 u64 s32 s64", .min_operands = 4,
        .max_operands = 4, .operands = "D S s s"},
    InstructionRule{.opcode = "bfi", .types = "b32 b64", .min_operands = 5, .max_operands = 5,
        .operands = "D S S s s"},
    InstructionRule{.opcode = "bmsk", .types = "b32", .modifiers = "clamp wrap",
        .required = "clamp|wrap", .min_operands = 3, .max_operands = 3, .operands = "d s s"},
    InstructionRule{.opcode = "dp4a", .types = "u32 s32", .min_types = 2, .max_types = 2,
        .min_operands = 4, .max_operands = 4, .operands = "d s s s"},
    InstructionRule{.opcode = "dp2a", .types = "u32 s32", .min_types = 2, .max_types = 2,
        .modifiers = "lo hi", .required = "lo|hi", .min_operands = 4, .max_operands = 4,
        .operands = "d s s s"},
    InstructionRule{.opcode = "prmt", .types = "b32", .modifiers = "f4e b4e rc8 ecl ecr rc16",
        .min_operands = 4, .max_operands = 4, .operands = "D S S S"},
    InstructionRule{.opcode = "lop3", .types = "b32 b64", .modifiers = "and or",
        .min_operands = 5, .max_operands = 6, .operands = "D S S S s s"},
    // --- logic and shifts -----------------------------------------------------------------------
    InstructionRule{.opcode = "and", .types = "pred " VOLTA_BITS16_64, .min_operands = 3,
        .max_operands = 3, .operands = "D S S"},
    InstructionRule{.opcode = "or", .types = "pred " VOLTA_BITS16_64, .min_operands = 3,
        .max_operands = 3, .operands = "D S S"},
    InstructionRule{.opcode = "xor", .types = "pred " VOLTA_BITS16_64, .min_operands = 3,
        .max_operands = 3, .operands = "D S S"},
    InstructionRule{.opcode = "not", .types = "pred " VOLTA_BITS16_64, .min_operands = 2,
        .max_operands = 2, .operands = "D S"},
    InstructionRule{.opcode = "cnot", .types = VOLTA_BITS16_64, .min_operands = 2,
        .max_operands = 2, .operands = "D S"},
    InstructionRule{.opcode = "shl", .types = VOLTA_BITS16_64, .min_operands = 3,
        .max_operands = 3, .operands = "D S s"},
    InstructionRule{.opcode = "shr", .types = VOLTA_BITS16_64 " " VOLTA_INT16_64,
        .min_operands = 3, .max_operands = 3, .operands = "D S s"},
    InstructionRule{.opcode = "shf", .types = "b32", .modifiers = "l r clamp wrap",
        .required = "l|r clamp|wrap", .min_operands = 4, .max_operands = 4,
        .operands = "d s s s"},
    // --- comparison and selection ---------------------------------------------------------------
    InstructionRule{.opcode = "setp", .types = VOLTA_BITS16_64 " " VOLTA_INT16_64 " f32 f64 " VOLTA_HALF,
        .modifiers = "eq ne lt:I,F le:I,F gt:I,F ge:I,F lo:u16,u32,u64 ls:u16,u32,u64 "
                     "hi:u16,u32,u64 hs:u16,u32,u64 equ:F neu:F ltu:F leu:F gtu:F geu:F num:F "
                     "nan:F and or xor ftz:f32,f16,f16x2",
        .required = "eq|ne|lt|le|gt|ge|lo|ls|hi|hs|equ|neu|ltu|leu|gtu|geu|num|nan",
        .min_operands = 3, .max_operands = 4, .operands = "P S S p"},
    InstructionRule{.opcode = "set", .types = "u32 s32 f32 " VOLTA_BITS16_64 " " VOLTA_INT16_64 " f64 " VOLTA_HALF,
        .min_types = 2, .max_types = 2,
        .modifiers = "eq ne lt le gt ge lo ls hi hs equ neu ltu leu gtu geu num nan and or "
                     "xor ftz",
        .required = "eq|ne|lt|le|gt|ge|lo|ls|hi|hs|equ|neu|ltu|leu|gtu|geu|num|nan",
        .min_operands = 3, .max_operands = 4, .operands = "d s s s"},
    InstructionRule{.opcode = "selp", .types = VOLTA_BITS16_64 " " VOLTA_INT16_64 " f32 f64",
        .min_operands = 4, .max_operands = 4, .operands = "D S S p"},
    InstructionRule{.opcode = "slct", .types = VOLTA_BITS16_64 " " VOLTA_INT16_64 " f32 f64",
        .min_types = 2, .max_types = 2, .modifiers = "ftz", .min_operands = 4,
        .max_operands = 4, .operands = "d s s s"},
    // --- data movement and conversion -----------------------------------------------------------
    InstructionRule{.opcode = "mov", .types = "pred " VOLTA_BITS16_64 " b128 " VOLTA_INT16_64 " f32 f64",
        .vectors = "v2 v4", .min_operands = 2, .max_operands = 2, .operands = "D S"},
    InstructionRule{.opcode = "ld", .types = VOLTA_ALL_BITS " " VOLTA_ALL_INT " f32 f64",
        .modifiers = "weak volatile relaxed acquire mmio " VOLTA_SCOPE " " VOLTA_CACHE_LD
                     " param::entry param::func",
        .spaces = VOLTA_MEMORY_SPACES, .vectors = "v2 v4 v8", .min_operands = 2,
        .max_operands = 3, .operands = "W m s"},
    InstructionRule{.opcode = "ldu", .types = VOLTA_ALL_BITS " " VOLTA_ALL_INT " f32 f64",
        .spaces = "global", .vectors = "v2 v4", .min_operands = 2, .max_operands = 2,
        .operands = "W m"},
    InstructionRule{.opcode = "st", .types = VOLTA_ALL_BITS " " VOLTA_ALL_INT " f32 f64",
        .modifiers = "weak volatile relaxed release mmio " VOLTA_SCOPE " " VOLTA_CACHE_ST
                     " param::func",
        .spaces = "global shared local param shared::cta shared::cluster", .vectors = "v2 v4 v8", .min_operands = 2,
        .max_operands = 3, .operands = "m V s"},
    InstructionRule{.opcode = "cvt", .types = VOLTA_ALL_INT " f32 f64 " VOLTA_HALF
                                              " tf32 e4m3x2 e5m2x2 e2m3x2 e3m2x2 e2m1x2 ue8m0x2",
        .min_types = 2, .max_types = 2,
        .modifiers = "rn rz rm rp rni rzi rmi rpi rna rs ftz sat satfinite "
                     "relu:f16,f16x2,bf16,bf16x2,tf32,e4m3x2,e5m2x2,e2m3x2,e3m2x2,e2m1x2",
        .min_operands = 2, .max_operands = 4, .operands = "d s s s"},
    InstructionRule{.opcode = "cvta", .types = "u32 u64", .modifiers = "to",
        .spaces = "global shared local const param shared::cta shared::cluster param::entry",
        .space_required = true, .min_operands = 2, .max_operands = 2, .operands = "D S"},
    InstructionRule{.opcode = "isspacep", .types = "", .min_types = 0, .max_types = 0,
        .spaces = "global shared local const param shared::cta shared::cluster param::entry",
        .space_required = true, .min_operands = 2, .max_operands = 2, .operands = "d s"},
    InstructionRule{.opcode = "shfl", .types = "b32", .modifiers = "sync up down bfly idx",
        .required = "up|down|bfly|idx sync", .min_operands = 4, .max_operands = 5,
        .operands = "d s s s s"},
    // --- control flow --------------------------------------------------------------------------
    InstructionRule{.opcode = "bra", .types = "", .min_types = 0, .max_types = 0,
        .modifiers = "uni", .min_operands = 1, .max_operands = 1, .operands = "l"},
    InstructionRule{.opcode = "ret", .types = "", .min_types = 0, .max_types = 0,
        .modifiers = "uni"},
    InstructionRule{.opcode = "exit", .types = "", .min_types = 0, .max_types = 0},
    InstructionRule{.opcode = "trap", .types = "", .min_types = 0, .max_types = 0},
    InstructionRule{.opcode = "brkpt", .types = "", .min_types = 0, .max_types = 0},
    // --- synchronization -----------------------------------------------------------------------
    InstructionRule{.opcode = "bar", .types = "u32 pred", .min_types = 0, .max_types = 1,
        .modifiers = "sync arrive red cta aligned popc and or warp",
        .required = "sync|arrive|red", .min_operands = 1, .max_operands = 4, .operands = "s s s s"},
    InstructionRule{.opcode = "barrier", .types = "u32 pred", .min_types = 0, .max_types = 1,
        .modifiers = "sync arrive red cta aligned popc and or cluster wait relaxed acquire release",
        .required = "sync|arrive|red|wait", .min_operands = 0, .max_operands = 4, .operands = "s s s s"},
    InstructionRule{.opcode = "membar", .types = "", .min_types = 0, .max_types = 0,
        .modifiers = "cta gl sys proxy alias async", .required = "cta|gl|sys|proxy"},
    InstructionRule{.opcode = "atom",
        .types = "b16 b32 b64 b128 u32 u64 s32 s64 f32 f64 " VOLTA_HALF,
        .modifiers = "and:b32,b64 or:b32,b64 xor:b32,b64 cas:b16,b32,b64,b128 "
                     "exch:b32,b64,b128 add:u32,s32,u64,f32,f64," "f16,f16x2,bf16,bf16x2 "
                     "inc:u32 dec:u32 min:u32,s32,u64,s64,f16,f16x2,bf16,bf16x2 "
                     "max:u32,s32,u64,s64,f16,f16x2,bf16,bf16x2 noftz relaxed acquire release "
                     "acq_rel " VOLTA_SCOPE " L2::cache_hint",
        .required = "and|or|xor|cas|exch|add|inc|dec|min|max",
        .spaces = "global shared shared::cta shared::cluster", .vectors = "v2 v4 v8",
        .min_operands = 3, .max_operands = 5, .operands = "D m S S s"},
    InstructionRule{.opcode = "red",
        .types = "b32 b64 u32 u64 s32 s64 f32 f64 " VOLTA_HALF,
        .modifiers = "and:b32,b64 or:b32,b64 xor:b32,b64 add:u32,s32,u64,f32,f64," "f16,f16x2,bf16,bf16x2 "
                     "inc:u32 dec:u32 min:u32,s32,u64,s64,f16,f16x2,bf16,bf16x2 "
                     "max:u32,s32,u64,s64,f16,f16x2,bf16,bf16x2 noftz relaxed release "
                     VOLTA_SCOPE " L2::cache_hint",
        .required = "and|or|xor|add|inc|dec|min|max",
        .spaces = "global shared shared::cta shared::cluster", .vectors = "v2 v4 v8",
        .min_operands = 2, .max_operands = 3, .operands = "m S s"},
    InstructionRule{.opcode = "mapa", .types = "u32 u64", .spaces = "shared::cluster",
        .min_operands = 3, .max_operands = 3, .operands = "D S s"},
    InstructionRule{.opcode = "activemask", .types = "b32", .min_operands = 1,
        .max_operands = 1, .operands = "d"},
    InstructionRule{.opcode = "vote", .types = "pred b32", .modifiers = "sync all any uni ballot",
        .required = "all|any|uni|ballot sync", .min_operands = 2, .max_operands = 3,
        .operands = "d s s"},
    InstructionRule{.opcode = "match", .types = "b32 b64", .modifiers = "sync any all",
        .required = "any|all", .min_operands = 3, .max_operands = 3, .operands = "d s s"},
    InstructionRule{.opcode = "redux", .types = "u32 s32 b32 f32",
        .modifiers = "sync add min max and or xor abs:f32 NaN:f32",
        .required = "add|min|max|and|or|xor", .min_operands = 3, .max_operands = 3,
        .operands = "d s s"},
    InstructionRule{.opcode = "nanosleep", .types = "u32", .min_operands = 1, .max_operands = 1,
        .operands = "s"},
    // --- Hopper (sm_90): the per-form operands of mbarrier are checked by async_forms.cpp -------
    InstructionRule{.opcode = "mbarrier", .types = "b64",
        .modifiers = "init inval arrive arrive_drop expect_tx complete_tx test_wait try_wait "
                     "parity pending_count noComplete release acquire relaxed cta cluster",
        .spaces = "shared shared::cta shared::cluster", .min_operands = 1, .max_operands = 4,
        .operands = "* * * *"},
    // elect.sync d|p, membermask: d may be `_`.
    InstructionRule{.opcode = "elect", .types = "", .min_types = 0, .max_types = 0,
        .modifiers = "sync", .required = "sync", .min_operands = 2, .max_operands = 2,
        .operands = "d s"},
    // setmaxnreg.inc|dec.sync.aligned.u32 imm-reg-count (its range: async_forms.cpp).
    InstructionRule{.opcode = "setmaxnreg", .types = "u32 s32", .modifiers = "inc dec sync aligned",
        .required = "inc|dec sync aligned", .min_operands = 1, .max_operands = 1,
        .operands = "s"},
    InstructionRule{.opcode = "griddepcontrol", .types = "", .min_types = 0, .max_types = 0,
        .modifiers = "launch_dependents wait", .required = "launch_dependents|wait"},
};
// clang-format on
#pragma GCC diagnostic pop

#undef VOLTA_INT16_64
#undef VOLTA_BITS16_64
#undef VOLTA_HALF
#undef VOLTA_ALL_INT
#undef VOLTA_ALL_BITS
#undef VOLTA_ROUND_F
#undef VOLTA_SCOPE
#undef VOLTA_CACHE_LD
#undef VOLTA_CACHE_ST
#undef VOLTA_MEMORY_SPACES

// The rows against opcodes.def: an opcode marked Checked there has exactly one row here, and
// every row is the row of such an opcode (a new opcode is classified where it is added, and a
// row cannot be added for an opcode that has no enumerator, nor lost).
enum class Form : uint8_t { Checked, Unchecked };
struct OpcodeForm {
  std::string_view spelling;
  Form form;
};
constexpr std::array kOpcodeForms = {
#define PTX_OPCODE(name, spelling, form) OpcodeForm{spelling, Form::form},
#include "ptx/opcodes.def"
#undef PTX_OPCODE
};

constexpr size_t rows_of(std::string_view opcode) {
  return static_cast<size_t>(std::count_if(
      kRules.begin(), kRules.end(), [&](const InstructionRule& r) { return r.opcode == opcode; }));
}

constexpr bool every_checked_opcode_has_one_row() {
  for (const OpcodeForm& o : kOpcodeForms) {
    if ((o.form == Form::Checked) != (rows_of(o.spelling) == 1) || rows_of(o.spelling) > 1) {
      return false;
    }
  }
  return true;
}
static_assert(every_checked_opcode_has_one_row(),
              "an opcode marked Checked in opcodes.def has no row in kRules (or two rows), or an "
              "Unchecked one has a row");

constexpr bool every_row_is_of_a_checked_opcode() {
  for (const InstructionRule& r : kRules) {
    if (std::none_of(kOpcodeForms.begin(), kOpcodeForms.end(), [&](const OpcodeForm& o) {
          return o.spelling == r.opcode && o.form == Form::Checked;
        })) {
      return false;
    }
  }
  return true;
}
static_assert(every_row_is_of_a_checked_opcode(),
              "a kRules row names an opcode that opcodes.def does not mark Checked");

constexpr std::array<std::string_view, 33> kTypes = {
    "pred", "b8",   "b16",  "b32",    "b64",    "b128",   "u8",     "u16",   "u32",
    "u64",  "s8",   "s16",  "s32",    "s64",    "f16",    "f16x2",  "bf16",  "bf16x2",
    "tf32", "f32",  "f64",  "e4m3",   "e5m2",   "e4m3x2", "e5m2x2", "u16x2", "s16x2",
    "e2m1", "e2m3", "e3m2", "e2m1x2", "e2m3x2", "e3m2x2"};

// Type-like words of the tensor-core and conversion instructions that are not value types of a
// register (the sub-byte operands of mma, wmma and ldmatrix, the f8f6f4 kind of tcgen05).
constexpr std::array<std::string_view, 13> kOtherTypeWords = {
    "b1",      "u4",    "s4",    "u2",        "s2",        "e8m0",  "ue8m0",
    "ue8m0x2", "ue4m3", "b8x16", "b6x16_p32", "b4x16_p64", "f8f6f4"};

} // namespace

const InstructionRule* instruction_rule(std::string_view opcode) {
  for (const InstructionRule& rule : kRules) {
    if (rule.opcode == opcode) {
      return &rule;
    }
  }
  return nullptr;
}

std::span<const InstructionRule> instruction_rules() {
  return kRules;
}

bool is_ptx_type(std::string_view word) {
  return std::find(kTypes.begin(), kTypes.end(), word) != kTypes.end() ||
         std::find(kOtherTypeWords.begin(), kOtherTypeWords.end(), word) != kOtherTypeWords.end();
}

bool looks_like_type(std::string_view word) {
  // A type letter (s u b f), or bf / tf / e, then a digit: "s33", "f32x", "u8x4", "bf16", "e4m3".
  size_t i = 0;
  if (word.starts_with("bf") || word.starts_with("tf")) {
    i = 2;
  } else if (!word.empty() && (word[0] == 's' || word[0] == 'u' || word[0] == 'b' ||
                               word[0] == 'f' || word[0] == 'e')) {
    i = 1;
  }
  return i > 0 && i < word.size() && word[i] >= '0' && word[i] <= '9';
}

} // namespace volta::ptx
