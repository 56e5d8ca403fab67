#pragma once
// An e-class: the e-nodes it holds and the e-nodes that use it as a child (its parents). Both
// lists hold node ids (a node id is the id its node was created with). After rebuild() the node
// list is sorted by (operator, payload, id) and free of dead nodes; the parent list is complete
// (every live node with a child in this class is in it) and holds each live node once, though it
// may hold dead nodes of classes that have not been touched since. Parents are in no particular
// (but deterministic) order.

#include "egraph/id_vec.hpp"

namespace volta::egraph {

struct EClass {
  IdVec nodes;
  IdVec parents;
};

} // namespace volta::egraph
