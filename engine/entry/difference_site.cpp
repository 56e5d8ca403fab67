#include "engine/entry/difference_site.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <stdexcept>
#include <unordered_map>

#include "engine/entry/pair_preparation.hpp"
#include "engine/exec/origin_log.hpp"
#include "engine/symbolic/printer.hpp"

namespace volta::entry {

using symbolic::ExprId;

namespace {

// Printed subterms are for a person to read: a few lines at most.
constexpr size_t kSubtermChars = 160;

std::array<ExprId, 3> children(const symbolic::ExprStore& store, ExprId id, int& count) {
  const symbolic::Node& n = store.node(id);
  count = symbolic::child_count(n.op);
  return {n.a, n.b, n.c};
}

SourcePoint point_of(const exec::Program& program, uint32_t pc) {
  SourcePoint p;
  if (pc >= program.insts.size())
    return p;
  const exec::Inst& in = program.insts[pc];
  p.ptx_line = in.line;
  p.instruction = in.text;
  if (in.debug_file >= 0 && static_cast<size_t>(in.debug_file) < program.cuda_files.size()) {
    p.cuda_file = program.cuda_files[static_cast<size_t>(in.debug_file)];
    p.cuda_line = in.debug_line;
  }
  return p;
}

// The store that wrote element `index` of `array` last, in `config`'s run.
std::optional<SourcePoint> store_of(const exec::OriginLog& log, const exec::Program& program,
                                    const launch::KernelConfig& config, const std::string& array,
                                    uint64_t index) {
  for (const launch::ArraySpec& a : config.arrays) {
    if (a.name != array)
      continue;
    if (const auto* at = log.stored(program, a.base + index * a.elem_width))
      return point_of(program, at->pc);
  }
  return std::nullopt;
}

// The level of the path whose operation each kernel names as where they part: the deepest pair
// of operations (an input or a constant is made by none), moved up while both kernels made their
// nodes with the same instruction at the same PTX line — the same code fed other data, as when a
// shuffle with a wrong offset hands one lane's partial sum to another: the step that took the
// wrong one lies above.
std::optional<size_t> parting_level(const symbolic::ExprStore& store, const exec::OriginLog& log,
                                    const exec::Program& ref_program,
                                    const exec::Program& opt_program, const PartingPath& path) {
  std::optional<size_t> level;
  for (size_t k = path.pairs.size(); k-- > 0 && !level;) {
    const auto [r, o] = path.pairs[k];
    if (symbolic::child_count(store.op(r)) != 0 && symbolic::child_count(store.op(o)) != 0 &&
        log.made(ref_program, r) != nullptr && log.made(opt_program, o) != nullptr)
      level = k;
  }
  while (level && *level > 0) {
    const auto [r, o] = path.pairs[*level];
    const exec::Inst& a = ref_program.insts[log.made(ref_program, r)->pc];
    const exec::Inst& b = opt_program.insts[log.made(opt_program, o)->pc];
    const auto [pr, po] = path.pairs[*level - 1];
    if (a.line != b.line || a.text != b.text || log.made(ref_program, pr) == nullptr ||
        log.made(opt_program, po) == nullptr)
      break;
    --*level;
  }
  return level;
}

// One kernel's side: its store, the instruction that made its node at `level`, and where the
// parting subterm itself was first put in a register, when that is another instruction.
void locate_side(const exec::OriginLog& log, const exec::Program& program,
                 const launch::KernelConfig& config, const prove::ElementJob& job,
                 const PartingPath& path, std::optional<size_t> level, bool reference,
                 std::optional<SourcePoint>& stored, std::optional<SourcePoint>& parting,
                 bool& uses, std::optional<SourcePoint>& origin) {
  auto node_at = [&](size_t k) { return reference ? path.pairs[k].first : path.pairs[k].second; };
  stored = store_of(log, program, config, job.array, job.index);
  const size_t deepest = path.pairs.size() - 1;
  std::optional<uint32_t> parting_pc;
  if (level) {
    if (const auto* made = log.made(program, node_at(*level))) {
      parting_pc = made->pc;
      parting = point_of(program, made->pc);
      uses = *level != deepest;
    }
  }
  if (const auto* made = log.made(program, node_at(deepest)); made && made->pc != parting_pc)
    origin = point_of(program, made->pc);
}

} // namespace

PartingPath parting_path(const symbolic::ExprStore& store, ExprId ref, ExprId opt,
                         const symbolic::Assignment& point) {
  PartingPath path;
  symbolic::Evaluator ev(store, point);
  path.pairs.emplace_back(ref, opt);
  for (;;) {
    const auto [r, o] = path.pairs.back();
    const symbolic::Node &rn = store.node(r), &on = store.node(o);
    if (rn.op != on.op || rn.aux != on.aux)
      break; // different operations: they part here
    int rc = 0, oc = 0;
    const auto rk = children(store, r, rc);
    const auto ok = children(store, o, oc);
    if (rc != oc || rc == 0)
      break;
    int differing = -1;
    for (int i = 0; i < rc && differing < 0; ++i) {
      if (rk[i] == symbolic::kNoExpr || ok[i] == symbolic::kNoExpr || rk[i] == ok[i])
        continue;
      if (symbolic::certainly_different(ev.eval(rk[i]), ev.eval(ok[i])))
        differing = i;
    }
    if (differing < 0)
      break; // operands that agree: the operation itself makes the difference
    path.pairs.emplace_back(rk[differing], ok[differing]);
  }
  return path;
}

void locate_difference(const launch::ManifestEntry& entry, exec::KernelCache& kernels,
                       const ProveOptions& options, Counterexample& c) {
  DifferenceLocation& where = c.location.emplace();
  exec::OriginLog log;
  ProveOptions o = options;
  o.run.origins = &log;
  PreparedPair pair;
  EntryResult scratch;
  if (!prepare_pair(entry, kernels, o.run, nullptr, pair, scratch)) {
    where.note = "the second run that records where values are made did not finish";
    return;
  }
  const prove::ElementJob* job = nullptr;
  for (const prove::ElementJob& j : pair.jobs) {
    if (j.name() == c.element)
      job = &j;
  }
  if (job == nullptr) {
    c.location.reset(); // not an element the prover compared
    return;
  }
  const symbolic::ExprStore& store = *pair.store;
  // The counterexample's inputs, by name (the second run's store numbers its nodes anew).
  std::unordered_map<std::string, symbolic::Rational> given;
  for (const auto& [name, value] : c.inputs) {
    try {
      symbolic::Rational v(value);
      v.canonicalize();
      given.emplace(name, v);
    } catch (const std::invalid_argument&) {
      where.note = fmt::format("the counterexample's value {} = {} is not a rational", name, value);
      return;
    }
  }
  symbolic::Assignment point;
  for (ExprId leaf : symbolic::leaves_below(store, {job->ref, job->opt})) {
    auto it = given.find(symbolic::leaf_name(store, leaf));
    point.values[symbolic::Assignment::key_of(store, leaf)] =
        it == given.end() ? symbolic::Rational(0) : it->second;
  }
  const PartingPath path = parting_path(store, job->ref, job->opt, point);
  const auto [r, p] = path.pairs.back();
  symbolic::Evaluator ev(store, point);
  where.reference_subterm = symbolic::to_sexpr(store, r, kSubtermChars);
  where.optimized_subterm = symbolic::to_sexpr(store, p, kSubtermChars);
  where.reference_subterm_value = ev.eval(r).to_string();
  where.optimized_subterm_value = ev.eval(p).to_string();

  const exec::LoadResult ref_kernel = kernels.load(entry.reference.ptx_path, entry.reference.entry);
  const exec::LoadResult opt_kernel = kernels.load(entry.optimized.ptx_path, entry.optimized.entry);
  if (!ref_kernel.kernel || !opt_kernel.kernel) {
    where.note = "a kernel did not load a second time";
    return;
  }
  const exec::Program& ref_program = ref_kernel.kernel->program;
  const exec::Program& opt_program = opt_kernel.kernel->program;
  const std::optional<size_t> level = parting_level(store, log, ref_program, opt_program, path);
  locate_side(log, ref_program, entry.reference, *job, path, level, true, where.reference_store,
              where.reference_parting, where.reference_parting_uses, where.reference_origin);
  locate_side(log, opt_program, entry.optimized, *job, path, level, false, where.optimized_store,
              where.optimized_parting, where.optimized_parting_uses, where.optimized_origin);
  std::vector<std::string> missing;
  if (!where.reference_store || !where.optimized_store)
    missing.emplace_back("a store");
  if (!where.reference_parting || !where.optimized_parting)
    missing.emplace_back("an instruction that made the parting subterms");
  if (!missing.empty())
    where.note = fmt::format("not found in the second run: {}", fmt::join(missing, ", "));
}

} // namespace volta::entry
