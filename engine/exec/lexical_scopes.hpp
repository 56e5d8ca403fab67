// Names bound in the nested `{ }` blocks of a PTX function body.
//
// PTX scopes registers, variables and labels lexically. What ptxas 13 does (tests/exec/
// lexical_scopes_test.cpp runs each case):
// - a name declared in a block is unknown after its `}` ("Unknown symbol");
// - it may shadow a name of an enclosing block, and is a duplicate only within its own block
//   ("Duplicate definition of label 'L'" / "of variable 'q'");
// - a register or variable must be declared before its first use, a label may be named before it
//   is defined (within its block or an enclosed one).
// nvcc's inline-asm blocks rely on this: every `asm` block of CUTLASS's mbarrier wait declares its
// own `.reg .pred P1` and label `LAB_WAIT`, so resolving a name by its spelling alone would branch
// into another block's loop or let two blocks share a register.
#pragma once

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "support/invariant.hpp"

namespace volta::exec {

template <class T>
class ScopedNames {
public:
  using Frame = std::unordered_map<std::string, T>;

  // `root`: what the function body's own block binds ahead of its definitions (labels).
  explicit ScopedNames(Frame root = {}) { frames_.push_back(std::move(root)); }

  // Enters a block: with `frame`, names the block binds ahead of their definition (labels).
  void open(Frame frame = {}) { frames_.push_back(std::move(frame)); }

  // Leaves the innermost block; false when no block is open (an unbalanced `}`).
  bool close() {
    if (frames_.size() == 1)
      return false;
    frames_.pop_back();
    return true;
  }

  // Binds `name` in the innermost block; false when that block binds it already (a duplicate
  // definition, which ptxas refuses). A binding of an enclosing block is shadowed, not replaced.
  bool bind(const std::string& name, T value) {
    return frames_.back().try_emplace(name, std::move(value)).second;
  }

  // The innermost visible binding of `name`, or null.
  const T* find(const std::string& name) const {
    for (auto it = frames_.rbegin(); it != frames_.rend(); ++it) {
      if (auto hit = it->find(name); hit != it->end())
        return &hit->second;
    }
    return nullptr;
  }

  size_t depth() const {
    VOLTA_ASSERT(!frames_.empty(), "the function body's own block is never closed");
    return frames_.size() - 1;
  }

private:
  std::vector<Frame> frames_; // [0]: the function body; back(): the innermost open block
};

} // namespace volta::exec
