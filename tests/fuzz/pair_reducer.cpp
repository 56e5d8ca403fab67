#include "pair_reducer.hpp"

#include <fmt/format.h>
#include <functional>
#include <map>
#include <ostream>

#include "ptx_writer.hpp"

namespace volta::pair_fuzz {

Kernel compact(const Kernel& k) {
  const int n = static_cast<int>(k.nodes.size());
  std::vector<bool> keep(n, false);
  std::vector<int> work;
  for (const auto& s : k.stores)
    work.push_back(s.value);
  for (int i = 0; i < n; ++i) {
    const Node& x = k.nodes[i];
    // Side effects and synchronization: atomics, branches, accesses to shared memory and
    // the warp collectives that order them.
    if (x.op == Op::Atom || (x.op == Op::Select && x.style != SelStyle::Selp) ||
        (x.op == Op::Load && x.via != Via::Global) || is_collective(x.op))
      work.push_back(i);
  }
  while (!work.empty()) {
    const int v = work.back();
    work.pop_back();
    if (keep[v])
      continue;
    keep[v] = true;
    for (int a : k.nodes[v].args)
      work.push_back(a);
  }
  std::vector<int> remap(n, -1);
  Kernel out = k;
  out.nodes.clear();
  for (int i = 0; i < n; ++i) {
    if (keep[i]) {
      remap[i] = static_cast<int>(out.nodes.size());
      out.nodes.push_back(k.nodes[i]);
    }
  }
  for (auto& x : out.nodes) {
    for (int& a : x.args)
      a = remap[a];
    if (x.region >= 0)
      x.region = remap[x.region];
  }
  for (auto& s : out.stores)
    s.value = remap[s.value];
  return out;
}

namespace {

bool uses_input(const Kernel& k, int a) {
  for (const auto& x : k.nodes) {
    if (x.op == Op::Load && x.array == a)
      return true;
  }
  return false;
}

void drop_input(Kernel& k, int a) {
  k.inputs.erase(k.inputs.begin() + a);
  for (auto& x : k.nodes) {
    if (x.op == Op::Load && x.array > a)
      --x.array;
  }
}

void drop_output(Kernel& k, int a) {
  k.outputs.erase(k.outputs.begin() + a);
  std::vector<Store> stores;
  for (auto s : k.stores) {
    if (s.array == a)
      continue;
    if (s.array > a)
      --s.array;
    stores.push_back(s);
  }
  k.stores = stores;
  for (auto& x : k.nodes) {
    if (x.op == Op::Atom && x.array > a)
      --x.array;
  }
}

// Every use of node `i` (arguments and stores) becomes `v`.
void replace_uses(Kernel& k, int i, int v) {
  for (int j = 0; j < static_cast<int>(k.nodes.size()); ++j) {
    if (j == v)
      continue;
    for (int& a : k.nodes[j].args) {
      if (a == i)
        a = v;
    }
  }
  for (auto& s : k.stores) {
    if (s.value == i)
      s.value = v;
  }
}

bool well_formed(const PairCase& c) {
  return validate(c.ref).empty() && validate(c.opt).empty() && c.ref.inputs == c.opt.inputs &&
         c.ref.outputs == c.opt.outputs && !c.ref.stores.empty() && !c.opt.stores.empty();
}

size_t size_of(const PairCase& c) {
  return c.ref.nodes.size() + c.opt.nodes.size() +
         4 * (c.ref.inputs.size() + c.ref.outputs.size()) + c.ref.block / 8;
}

} // namespace

PairCase reduce_pair(const PairCase& start, const std::string& kind, const CheckOptions& o,
                     std::ostream* log) {
  int checks = 0;
  auto shows = [&](const PairCase& c) {
    if (!well_formed(c))
      return false;
    ++checks;
    const CheckResult r = check_pair(c, o);
    for (const auto& f : r.findings) {
      if (f.kind == kind)
        return true;
    }
    return false;
  };
  PairCase best = start;
  if (!shows(best)) {
    if (log)
      *log << "the pair does not show a finding of kind " << kind << "\n";
    return best;
  }
  auto attempt = [&](const std::function<bool(PairCase&)>& change) {
    PairCase c = best;
    if (!change(c))
      return false;
    c.ref = compact(c.ref);
    c.opt = compact(c.opt);
    for (int a = static_cast<int>(c.ref.inputs.size()) - 1; a >= 0; --a) {
      if (!uses_input(c.ref, a) && !uses_input(c.opt, a)) {
        drop_input(c.ref, a);
        drop_input(c.opt, a);
      }
    }
    normalize_selects(c.ref);
    normalize_selects(c.opt);
    if (size_of(c) > size_of(best) || (write_ptx(c.ref, "k") == write_ptx(best.ref, "k") &&
                                       write_ptx(c.opt, "k") == write_ptx(best.opt, "k")))
      return false;
    if (!shows(c))
      return false;
    best = std::move(c);
    return true;
  };
  for (bool progress = true; progress;) {
    progress = false;
    // Fewer outputs.
    for (int a = static_cast<int>(best.ref.outputs.size()) - 1; a >= 0; --a) {
      progress |= attempt([&](PairCase& c) {
        if (a >= static_cast<int>(c.ref.outputs.size()) || c.ref.outputs.size() < 2)
          return false;
        drop_output(c.ref, a);
        drop_output(c.opt, a);
        // Atomics of a dropped zero array go with it.
        for (Kernel* k : {&c.ref, &c.opt}) {
          for (int i = 0; i < static_cast<int>(k->nodes.size()); ++i) {
            Node& x = k->nodes[i];
            if (x.op == Op::Atom && x.array >= static_cast<int>(k->outputs.size())) {
              x.op = Op::Const;
              x.args.clear();
              x.bits = 0;
            }
          }
        }
        return true;
      });
    }
    // A smaller CTA.
    if (best.ref.block > 32) {
      progress |= attempt([](PairCase& c) {
        for (Kernel* k : {&c.ref, &c.opt}) {
          k->block = 32;
          for (auto& a : k->inputs)
            a.len = 32;
          for (auto& a : k->outputs) {
            if (a.kind == ArrayKind::Out)
              a.len = 32;
          }
        }
        return true;
      });
    }
    // Plain loads, selects instead of branches, no dropped synchronization.
    for (int side = 0; side < 2; ++side) {
      const Kernel& k = side ? best.opt : best.ref;
      for (int i = 0; i < static_cast<int>(k.nodes.size()); ++i) {
        const Node& x = k.nodes[i];
        if (x.op == Op::Load && x.via != Via::Global)
          progress |= attempt([&](PairCase& c) {
            (side ? c.opt : c.ref).nodes[i].via = Via::Global;
            return true;
          });
        if (x.op == Op::Load && !x.index.empty())
          progress |= attempt([&](PairCase& c) {
            (side ? c.opt : c.ref).nodes[i].index.clear();
            return true;
          });
        if (x.op == Op::Select && x.style != SelStyle::Selp)
          progress |= attempt([&](PairCase& c) {
            (side ? c.opt : c.ref).nodes[i].style = SelStyle::Selp;
            return true;
          });
      }
    }
    // Values replaced by constants or by one of their operands, in one kernel or in both (the
    // mutant shares the reference's node numbers up to its own additions).
    for (int i = 0; i < static_cast<int>(std::max(best.ref.nodes.size(), best.opt.nodes.size()));
         ++i) {
      for (int mode = 0; mode < 3; ++mode) { // 0 both, 1 reference, 2 optimized
        for (int how = 0; how < 4; ++how) {  // 0/1 constants 0/1, 2/3 operand 0/1
          progress |= attempt([&](PairCase& c) {
            bool changed = false;
            for (int side = 0; side < 2; ++side) {
              if ((mode == 1 && side == 1) || (mode == 2 && side == 0))
                continue;
              Kernel& k = side ? c.opt : c.ref;
              if (i >= static_cast<int>(k.nodes.size()))
                continue;
              const Node x = k.nodes[i];
              if (x.op == Op::Const || x.ty == Ty::Pred)
                continue;
              int v = -1;
              if (how < 2) {
                Node cn;
                cn.op = Op::Const;
                cn.ty = x.ty;
                cn.bits = how;
                cn.region = x.region;
                cn.arm = x.arm;
                v = k.add(cn);
              } else {
                const size_t slot = how - 2;
                if (slot >= x.args.size() || k.nodes[x.args[slot]].ty != x.ty ||
                    (x.op == Op::Select && slot == 0))
                  continue;
                v = x.args[slot];
                if (x.op == Op::Select && k.nodes[v].region == i)
                  continue;
              }
              replace_uses(k, i, v);
              changed = true;
            }
            return changed;
          });
        }
      }
    }
    // Simpler constants.
    for (int side = 0; side < 2; ++side) {
      const Kernel& k = side ? best.opt : best.ref;
      for (int i = 0; i < static_cast<int>(k.nodes.size()); ++i) {
        if (k.nodes[i].op != Op::Const || k.nodes[i].bits <= 1)
          continue;
        for (uint64_t b : {uint64_t{0}, uint64_t{1}}) {
          progress |= attempt([&](PairCase& c) {
            (side ? c.opt : c.ref).nodes[i].bits = b;
            return true;
          });
        }
      }
    }
    if (log)
      *log << fmt::format("reduce: {} + {} nodes, {} checks so far\n", best.ref.nodes.size(),
                          best.opt.nodes.size(), checks);
  }
  return best;
}

} // namespace volta::pair_fuzz
