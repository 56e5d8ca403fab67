// Prints expressions as s-expressions: `(+ (* A[3] B[7]) 1/8)`. Output depends only on the
// structure of the DAG, never on node ids, so it is the same across runs and thread counts.
#pragma once

#include <string>

#include "engine/symbolic/expr_store.hpp"

namespace volta::symbolic {

// Stops after about `max_chars` characters and ends the text with "...".
std::string to_sexpr(const ExprStore& store, ExprId id, size_t max_chars = 4096);

// The printed name of a leaf: `A[17]`, `alpha`, `1/8`, `-inf`.
std::string leaf_name(const ExprStore& store, ExprId id);

} // namespace volta::symbolic
