#include "engine/batch/result_archive.hpp"

namespace volta::batch {

using symbolic::ByteReader;
using symbolic::ByteWriter;

void write_site(ByteWriter& out, const std::optional<exec::Site>& site) {
  out.u8(site ? 1 : 0);
  if (!site)
    return;
  out.u32(site->cta);
  for (uint32_t v : site->ctaid)
    out.u32(v);
  out.u32(site->thread);
  for (uint32_t v : site->tid)
    out.u32(v);
  out.u32(site->pc);
  out.u32(site->ptx_line);
  out.u32(site->ptx_column);
  out.str(site->instruction);
  out.str(site->cuda_file);
  out.u32(site->cuda_line);
}

std::optional<exec::Site> read_site(ByteReader& in) {
  if (in.u8() == 0)
    return std::nullopt;
  exec::Site site;
  site.cta = in.u32();
  for (uint32_t& v : site.ctaid)
    v = in.u32();
  site.thread = in.u32();
  for (uint32_t& v : site.tid)
    v = in.u32();
  site.pc = in.u32();
  site.ptx_line = in.u32();
  site.ptx_column = in.u32();
  site.instruction = in.str();
  site.cuda_file = in.str();
  site.cuda_line = in.u32();
  return site;
}

void write_failure(ByteWriter& out, const std::optional<exec::Failure>& failure) {
  out.u8(failure ? 1 : 0);
  if (!failure)
    return;
  out.u8(static_cast<uint8_t>(failure->verdict));
  out.u8(static_cast<uint8_t>(failure->category));
  out.str(failure->kind);
  out.str(failure->message);
  out.str(failure->space);
  out.str(failure->location);
  out.u64(failure->address);
  write_site(out, failure->first);
  write_site(out, failure->second);
}

std::optional<exec::Failure> read_failure(ByteReader& in) {
  if (in.u8() == 0)
    return std::nullopt;
  exec::Failure f;
  f.verdict = read_enum(in, Verdict::Error);
  f.category = read_enum(in, exec::FailureCategory::Cancelled);
  f.kind = in.str();
  f.message = in.str();
  f.space = in.str();
  f.location = in.str();
  f.address = in.u64();
  f.first = read_site(in);
  f.second = read_site(in);
  return f;
}

void write_races(ByteWriter& out, const std::vector<exec::Failure>& races, bool truncated) {
  out.u64(races.size());
  for (const exec::Failure& race : races)
    write_failure(out, race);
  out.u8(truncated ? 1 : 0);
}

std::vector<exec::Failure> read_races(ByteReader& in, bool& truncated) {
  std::vector<exec::Failure> races;
  const uint64_t count = in.count(2); // a failure takes more than two bytes
  for (uint64_t i = 0; i < count; ++i) {
    std::optional<exec::Failure> race = read_failure(in);
    if (!race)
      throw symbolic::ByteStreamError("a race without a failure");
    races.push_back(std::move(*race));
  }
  truncated = in.u8() != 0;
  return races;
}

void write_stats(ByteWriter& out, const exec::KernelStats& s) {
  for (uint64_t v : {s.instructions, s.warp_instructions, s.barriers, s.warp_syncs, s.ctas})
    out.u64(v);
  out.u64(s.idioms.size());
  for (const auto& [name, count] : s.idioms) {
    out.str(name);
    out.u64(count);
  }
}

exec::KernelStats read_stats(ByteReader& in) {
  exec::KernelStats s;
  for (uint64_t* v : {&s.instructions, &s.warp_instructions, &s.barriers, &s.warp_syncs, &s.ctas})
    *v = in.u64();
  const uint64_t idioms = in.count(16);
  for (uint64_t i = 0; i < idioms; ++i) {
    std::string name = in.str();
    s.idioms[name] = in.u64();
  }
  return s;
}

namespace {

void write_strings(ByteWriter& out, const std::vector<std::pair<std::string, std::string>>& v) {
  out.u64(v.size());
  for (const auto& [a, b] : v) {
    out.str(a);
    out.str(b);
  }
}

std::vector<std::pair<std::string, std::string>> read_strings(ByteReader& in) {
  std::vector<std::pair<std::string, std::string>> v(in.count(16));
  for (auto& [a, b] : v) {
    a = in.str();
    b = in.str();
  }
  return v;
}

void write_point(ByteWriter& out, const std::optional<SourcePoint>& p) {
  out.u8(p ? 1 : 0);
  if (!p)
    return;
  out.u32(p->ptx_line);
  out.str(p->instruction);
  out.str(p->cuda_file);
  out.u32(p->cuda_line);
}

std::optional<SourcePoint> read_point(ByteReader& in) {
  if (in.u8() == 0)
    return std::nullopt;
  SourcePoint p;
  p.ptx_line = in.u32();
  p.instruction = in.str();
  p.cuda_file = in.str();
  p.cuda_line = in.u32();
  return p;
}

void write_location(ByteWriter& out, const std::optional<DifferenceLocation>& d) {
  out.u8(d ? 1 : 0);
  if (!d)
    return;
  for (const auto* p : {&d->reference_store, &d->optimized_store, &d->reference_parting,
                        &d->optimized_parting, &d->reference_origin, &d->optimized_origin})
    write_point(out, *p);
  for (const std::string* s : {&d->reference_subterm, &d->optimized_subterm,
                               &d->reference_subterm_value, &d->optimized_subterm_value, &d->note})
    out.str(*s);
  out.u8(d->reference_parting_uses ? 1 : 0);
  out.u8(d->optimized_parting_uses ? 1 : 0);
}

std::optional<DifferenceLocation> read_location(ByteReader& in) {
  if (in.u8() == 0)
    return std::nullopt;
  DifferenceLocation d;
  for (auto* p : {&d.reference_store, &d.optimized_store, &d.reference_parting,
                  &d.optimized_parting, &d.reference_origin, &d.optimized_origin})
    *p = read_point(in);
  for (std::string* s : {&d.reference_subterm, &d.optimized_subterm, &d.reference_subterm_value,
                         &d.optimized_subterm_value, &d.note})
    *s = in.str();
  d.reference_parting_uses = in.u8() != 0;
  d.optimized_parting_uses = in.u8() != 0;
  return d;
}

void write_counterexample(ByteWriter& out, const std::optional<Counterexample>& c) {
  out.u8(c ? 1 : 0);
  if (!c)
    return;
  out.str(c->element);
  write_strings(out, c->inputs);
  for (const std::string* s :
       {&c->reference_value, &c->optimized_value, &c->reference_expr, &c->optimized_expr,
        &c->reference_device, &c->optimized_device, &c->device_note})
    out.str(*s);
  out.u8(c->confirmed ? 1 : 0);
  write_location(out, c->location);
  out.u8(c->device_witness ? 1 : 0);
  if (c->device_witness) {
    write_strings(out, c->device_witness->inputs);
    out.str(c->device_witness->reference_device);
    out.str(c->device_witness->optimized_device);
  }
}

std::optional<Counterexample> read_counterexample(ByteReader& in) {
  if (in.u8() == 0)
    return std::nullopt;
  Counterexample c;
  c.element = in.str();
  c.inputs = read_strings(in);
  for (std::string* s :
       {&c.reference_value, &c.optimized_value, &c.reference_expr, &c.optimized_expr,
        &c.reference_device, &c.optimized_device, &c.device_note})
    *s = in.str();
  c.confirmed = in.u8() != 0;
  c.location = read_location(in);
  if (in.u8() != 0) {
    DeviceWitness w;
    w.inputs = read_strings(in);
    w.reference_device = in.str();
    w.optimized_device = in.str();
    c.device_witness = std::move(w);
  }
  return c;
}

void write_cross_check(ByteWriter& out, const std::optional<CrossCheck>& c) {
  out.u8(c ? 1 : 0);
  if (!c)
    return;
  out.u8(c->ran ? 1 : 0);
  out.str(c->skipped_reason);
  out.u32(c->inputs);
  out.u32(c->inputs_planned);
  out.u32(c->reused_runs);
  for (uint64_t v : {c->elements, c->excused, c->instructions})
    out.u64(v);
  out.f64(c->seconds);
  out.u64(c->notes.size());
  for (const std::string& note : c->notes)
    out.str(note);
  out.u64(c->arrays.size());
  for (const CrossCheckDivergence& d : c->arrays) {
    out.str(d.array);
    out.str(d.compared_as);
    out.u64(d.elements);
    out.f64(d.max_abs);
    out.f64(d.max_rel);
    out.u64(d.max_ulp);
    out.str(d.max_element);
    out.u32(d.max_input);
    out.f64(d.max_scaled);
    out.u64(d.beyond_rounding);
    out.u64(d.beyond_tolerance);
    out.str(d.beyond_tolerance_example);
  }
  out.u8(c->contradiction ? 1 : 0);
  if (c->contradiction) {
    const CrossCheckContradiction& k = *c->contradiction;
    for (const std::string* s : {&k.element, &k.reference_device, &k.optimized_device})
      out.str(*s);
    out.u32(k.input);
    out.str(k.input_name);
    out.str(k.why);
  }
  out.f64(c->budget_seconds);
  out.str(c->checked);
  out.u8(c->tolerance ? 1 : 0);
  if (c->tolerance) {
    out.f64(c->tolerance->rel);
    out.f64(c->tolerance->abs);
  }
  for (const std::vector<uint32_t>* ctas : {&c->reference_ctas, &c->optimized_ctas}) {
    out.u64(ctas->size());
    for (uint32_t cta : *ctas)
      out.u32(cta);
  }
}

std::optional<CrossCheck> read_cross_check(ByteReader& in) {
  if (in.u8() == 0)
    return std::nullopt;
  CrossCheck c;
  c.ran = in.u8() != 0;
  c.skipped_reason = in.str();
  c.inputs = in.u32();
  c.inputs_planned = in.u32();
  c.reused_runs = in.u32();
  for (uint64_t* v : {&c.elements, &c.excused, &c.instructions})
    *v = in.u64();
  c.seconds = in.f64();
  const uint64_t notes = in.count(8);
  for (uint64_t i = 0; i < notes; ++i)
    c.notes.push_back(in.str());
  const uint64_t arrays = in.count(48);
  for (uint64_t i = 0; i < arrays; ++i) {
    CrossCheckDivergence d;
    d.array = in.str();
    d.compared_as = in.str();
    d.elements = in.u64();
    d.max_abs = in.f64();
    d.max_rel = in.f64();
    d.max_ulp = in.u64();
    d.max_element = in.str();
    d.max_input = in.u32();
    d.max_scaled = in.f64();
    d.beyond_rounding = in.u64();
    d.beyond_tolerance = in.u64();
    d.beyond_tolerance_example = in.str();
    c.arrays.push_back(std::move(d));
  }
  if (in.u8() != 0) {
    CrossCheckContradiction k;
    for (std::string* s : {&k.element, &k.reference_device, &k.optimized_device})
      *s = in.str();
    k.input = in.u32();
    k.input_name = in.str();
    k.why = in.str();
    c.contradiction = std::move(k);
  }
  c.budget_seconds = in.f64();
  c.checked = in.str();
  if (in.u8() != 0) {
    FloatTolerance t;
    t.rel = in.f64();
    t.abs = in.f64();
    c.tolerance = t;
  }
  for (std::vector<uint32_t>* ctas : {&c.reference_ctas, &c.optimized_ctas}) {
    const uint64_t n = in.count(4);
    for (uint64_t i = 0; i < n; ++i)
      ctas->push_back(in.u32());
  }
  return c;
}

} // namespace

void write_entry_result(ByteWriter& out, const entry::EntryResult& r) {
  out.str(std::string(launch::to_string(r.kind)));
  out.u8(static_cast<uint8_t>(r.verdict));
  out.u8(r.bad_input ? 1 : 0);
  out.f64(r.seconds);
  out.u64(r.phases.size());
  for (const auto& [phase, seconds] : r.phases) {
    out.str(phase);
    out.f64(seconds);
  }
  out.str(r.detail);
  write_failure(out, r.failure);
  out.str(r.failure_kernel);
  write_races(out, r.races, r.races_truncated);
  const entry::ElementCounts& e = r.elements;
  for (uint64_t v :
       {e.total, e.direct, e.reused, e.rules, e.z3, e.cached, e.not_equivalent, e.unknown})
    out.u64(v);
  out.u8(r.egraph ? 1 : 0);
  if (r.egraph) {
    const entry::EgraphStats& g = *r.egraph;
    for (uint64_t v : {g.nodes, g.classes, g.canonical_merges, g.saturations, g.rule_applications})
      out.u64(v);
  }
  out.u8(r.domain ? 1 : 0);
  if (r.domain) {
    const prove::DomainSummary& d = *r.domain;
    for (size_t v : {d.assumptions, d.obligations, d.by_sign, d.by_guard, d.by_assumption, d.by_z3,
                     d.failed, d.undecided})
      out.u64(v);
    out.u8(d.mutual ? 1 : 0);
  }
  write_counterexample(out, r.counterexample);
  out.u64(r.kernels.size());
  for (const entry::KernelSummary& k : r.kernels) {
    out.str(k.role);
    out.str(k.ptx);
    out.str(k.entry);
    out.u32(k.entry_line);
    write_stats(out, k.stats);
    out.f64(k.seconds);
    out.u64(k.launch_ctas);
    out.u8(k.all_ctas ? 1 : 0);
  }
  out.u64(r.output_types.size());
  for (const entry::OutputType& t : r.output_types) {
    for (const std::string* s : {&t.array, &t.declared, &t.reference_stores, &t.optimized_stores})
      out.str(*s);
    out.u8(t.rounding_bound ? 1 : 0);
    if (const auto& b = t.rounding_bound) {
      for (double v : {b->reference, b->optimized, b->apart})
        out.f64(v);
      out.str(b->apart_element);
      out.u64(b->bounded);
      out.u64(b->unbounded);
      out.str(b->why_unbounded);
    }
  }
  out.u64(r.cache_hits);
  out.u64(r.z3_calls);
  out.str(std::string(entry::guard_name(r.guard)));
  write_cross_check(out, r.cross_check);
}

entry::EntryResult read_entry_result(ByteReader& in) {
  entry::EntryResult r;
  const auto kind = launch::entry_kind_from(in.str());
  if (!kind)
    throw symbolic::ByteStreamError("unknown entry kind");
  r.kind = *kind;
  r.verdict = read_enum(in, Verdict::Inconsistent);
  r.bad_input = in.u8() != 0;
  r.seconds = in.f64();
  const uint64_t phases = in.count(16);
  for (uint64_t i = 0; i < phases; ++i) {
    std::string phase = in.str();
    r.phases[phase] = in.f64();
  }
  r.detail = in.str();
  r.failure = read_failure(in);
  r.failure_kernel = in.str();
  r.races = read_races(in, r.races_truncated);
  entry::ElementCounts& e = r.elements;
  for (uint64_t* v :
       {&e.total, &e.direct, &e.reused, &e.rules, &e.z3, &e.cached, &e.not_equivalent, &e.unknown})
    *v = in.u64();
  if (in.u8() != 0) {
    entry::EgraphStats g;
    for (uint64_t* v :
         {&g.nodes, &g.classes, &g.canonical_merges, &g.saturations, &g.rule_applications})
      *v = in.u64();
    r.egraph = g;
  }
  if (in.u8() != 0) {
    prove::DomainSummary d;
    for (size_t* v : {&d.assumptions, &d.obligations, &d.by_sign, &d.by_guard, &d.by_assumption,
                      &d.by_z3, &d.failed, &d.undecided})
      *v = in.u64();
    d.mutual = in.u8() != 0;
    r.domain = d;
  }
  r.counterexample = read_counterexample(in);
  const uint64_t kernels = in.count(40);
  for (uint64_t i = 0; i < kernels; ++i) {
    entry::KernelSummary k;
    k.role = in.str();
    k.ptx = in.str();
    k.entry = in.str();
    k.entry_line = in.u32();
    k.stats = read_stats(in);
    k.seconds = in.f64();
    k.launch_ctas = in.u64();
    k.all_ctas = in.u8() != 0;
    r.kernels.push_back(std::move(k));
  }
  const uint64_t types = in.count(32);
  for (uint64_t i = 0; i < types; ++i) {
    entry::OutputType t;
    for (std::string* s : {&t.array, &t.declared, &t.reference_stores, &t.optimized_stores})
      *s = in.str();
    if (in.u8() != 0) {
      entry::RoundingBound& b = t.rounding_bound.emplace();
      for (double* v : {&b.reference, &b.optimized, &b.apart})
        *v = in.f64();
      b.apart_element = in.str();
      b.bounded = in.u64();
      b.unbounded = in.u64();
      b.why_unbounded = in.str();
    }
    r.output_types.push_back(std::move(t));
  }
  r.cache_hits = in.u64();
  r.z3_calls = in.u64();
  const auto guard = entry::guard_from(in.str());
  if (!guard)
    throw symbolic::ByteStreamError("unknown guard");
  r.guard = *guard;
  r.cross_check = read_cross_check(in);
  if (!in.done())
    throw symbolic::ByteStreamError("trailing bytes");
  return r;
}

} // namespace volta::batch
