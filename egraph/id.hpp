#pragma once
// Identifier types shared by every e-graph file.

#include <cstdint>

namespace volta::egraph {

// An e-class id. Every id is created for exactly one e-node (the node at the same index in the
// e-graph's node arena), so an id also names "the node that created it"; two ids denote the same
// e-class when find() maps them to the same canonical id.
using Id = std::uint32_t;

// An operator of a Language (index into its operator table).
using OpId = std::uint16_t;

// A leaf payload: an interned symbol id, an interned exact rational id, or a raw 64-bit value,
// depending on the operator's PayloadKind. Zero for operators without a payload.
using Payload = std::uint64_t;

inline constexpr Id kNoId = ~Id{0};

} // namespace volta::egraph
