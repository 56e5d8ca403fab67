// The two views of an input element (docs/semantics.md, "Inputs have two views"): the real
// symbol A[i] that float operations read and the integer symbol A[i]:bw that integer operations
// of width w read. A proof treats them as independent symbols (sound for EQUIVALENT); a
// counterexample must be an input a GPU can be given, so where it sets both views of one
// element they must agree: the integer view is the IEEE encoding of the real value.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "engine/symbolic/evaluate.hpp"
#include "engine/symbolic/expr.hpp"
#include "engine/symbolic/rational.hpp"

namespace volta::prove {

// The encoding of q in the float format of width code wc (1..3: f16/f32/f64, kFormatBF16), or
// nothing where q is not exactly a value of the format.
std::optional<uint64_t> float_encoding(const symbolic::Rational& q, uint8_t wc);

// The value of the bits in the format, or nothing for an infinity or a NaN.
std::optional<symbolic::Rational> float_value(uint64_t bits, uint8_t wc);

// The format of `leaf` where it is an integer view of an element of a float array in a format
// other than the element's own (FloatBits(A[i], f32) of an f16 array: the bits of the element's
// value widened, a function of the element, not its bytes); nothing otherwise.
std::optional<uint8_t> value_view_format(const symbolic::ExprStore& store, symbolic::ExprId leaf);

// Makes the two views of every element among `leaves` agree in `point`: the integer view takes
// the encoding of the real value where the real value is one of the format's; otherwise the real
// view takes the value of the bits. False where they cannot agree (two integer views of different
// widths of one element, or neither view a finite value of the format). An element of a float
// array whose views include one in another format (value_view_format) takes one value that every
// view encodes exactly (false where no view's value is one).
bool reconcile_views(const symbolic::ExprStore& store, const std::vector<symbolic::ExprId>& leaves,
                     symbolic::Assignment& point);

} // namespace volta::prove
