#pragma once
// E-node views. The e-graph stores nodes in a flat arena (operator, payload, and a slice of a
// shared child-id array), so a node is handed out as a non-owning view.

#include <span>

#include "egraph/id.hpp"

namespace volta::egraph {

struct NodeView {
  OpId op = 0;
  Payload payload = 0;
  std::span<const Id> children;
};

} // namespace volta::egraph
