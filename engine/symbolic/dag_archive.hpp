// A sub-DAG of an expression store as bytes, and back into another store: what the execution
// cache keeps of a kernel run. Nodes are written children first, each child as a local number;
// the store-specific numbers in leaves (rational table index, array and parameter symbol ids)
// are written as their values or names, so that a DAG read into a store that already holds
// other kernels' nodes shares their inputs, parameters and every equal subterm (reading
// interns each node again; links of reduction chains are appended again, as when executed).
// A node is an operator byte (with the transient flag), the aux byte, and its slots as LEB128
// numbers; a child is written as its difference to the same slot of the node before, so that
// the links of a reduction chain (children: the next inputs, the previous link) take a byte a
// slot and a naive GEMM's DAG about 5 bytes a node.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/symbolic/byte_stream.hpp"
#include "engine/symbolic/expr_store.hpp"

namespace volta::symbolic {

class DagWriter {
public:
  explicit DagWriter(const ExprStore& store) : store_(store) {}
  // Adds the DAG below `root` (nothing for kNoExpr). With a limit, stops once the DAG would
  // hold more than `max_nodes` nodes and returns false: the caller gives up.
  bool add(ExprId root, size_t max_nodes = SIZE_MAX);
  size_t node_count() const { return order_.size(); }
  // The local number of an added node (0 for kNoExpr), for the references the caller writes
  // beside the DAG.
  uint32_t local(ExprId id);
  void write(ByteWriter& out);

private:
  bool visited(ExprId id) const {
    return id / 64 < visited_.size() && (visited_[id / 64] >> (id % 64) & 1) != 0;
  }
  void number(); // fills the local numbers once the DAG is complete

  const ExprStore& store_;
  // The walk marks nodes in a bitmap (a bit per id of the store): a naive GEMM's outputs are
  // millions of nodes, and the walk that finds a run too large to keep must stay cheap.
  std::vector<uint64_t> visited_;
  std::vector<ExprId> order_; // children before parents
  // node -> local number (1-based), open addressing, built once for writing.
  std::vector<std::pair<ExprId, uint32_t>> table_;
  size_t numbered_ = 0;
};

class DagReader {
public:
  // Interns the DAG in `in` into `store`. Throws ByteStreamError on malformed input.
  void read(ByteReader& in, ExprStore& store);
  // The node of a local number (0: kNoExpr); throws ByteStreamError when out of range.
  ExprId id(uint32_t local) const;

private:
  std::vector<ExprId> ids_; // local number - 1 -> node
};

} // namespace volta::symbolic
