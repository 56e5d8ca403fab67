#include "engine/entry/rounding_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "engine/symbolic/builder.hpp"
#include "engine/symbolic/rounding_error_bound.hpp"

namespace volta::entry {

namespace {

using Range = std::optional<std::pair<double, double>>;

// The range of an array of `config`: its own, else `fallback` for an input array.
Range range_of(const launch::ArraySpec& a, const Range& fallback) {
  if (a.range)
    return a.range;
  const bool input = a.kind == launch::ArrayKind::In || a.kind == launch::ArrayKind::InOut;
  return input ? fallback : std::nullopt;
}

symbolic::RoundingErrorBound::InputRange ranges_of(const launch::KernelConfig& config,
                                                   const symbolic::ExprStore& store,
                                                   const Range& fallback) {
  return [&config, &store, fallback](uint32_t array) -> std::optional<symbolic::ValueRange> {
    const std::string& name = store.array_name(array);
    for (const auto& a : config.arrays) {
      if (a.name != name)
        continue;
      if (const Range r = range_of(a, fallback))
        return symbolic::ValueRange{r->first, r->second};
    }
    return std::nullopt;
  };
}

// Whether some input array of either kernel has a range (no bound is computed otherwise).
bool has_input_ranges(const launch::ManifestEntry& entry, const Range& fallback) {
  for (const launch::KernelConfig* c : {&entry.reference, &entry.optimized}) {
    for (const auto& a : c->arrays) {
      if (range_of(a, fallback))
        return true;
    }
  }
  return false;
}

// An element both kernels store as a number of a float format.
bool real_element(const symbolic::ExprStore& store, const prove::ElementJob& job) {
  return launch::is_float(job.ref_type) && launch::is_float(job.opt_type) &&
         symbolic::kind_of(store, job.ref) == symbolic::ValueKind::Real &&
         symbolic::kind_of(store, job.opt) == symbolic::ValueKind::Real;
}

} // namespace

void bound_rounding_errors(const launch::ManifestEntry& entry, const symbolic::ExprStore& store,
                           const std::vector<prove::ElementJob>& jobs,
                           const std::optional<std::pair<double, double>>& default_range,
                           std::vector<OutputType>& types, const std::atomic<bool>* cancel) {
  if (!has_input_ranges(entry, default_range))
    return;
  // `--input-range` is the range of the symbolic parameters too (a manifest cannot give one).
  std::optional<symbolic::ValueRange> params;
  if (default_range)
    params = symbolic::ValueRange{default_range->first, default_range->second};
  symbolic::RoundingErrorBound ref(store, ranges_of(entry.reference, store, default_range), params);
  symbolic::RoundingErrorBound opt(store, ranges_of(entry.optimized, store, default_range), params);
  ref.set_cancel(cancel);
  opt.set_cancel(cancel);
  for (const prove::ElementJob& job : jobs) {
    if (!real_element(store, job))
      continue;
    const auto t = std::find_if(types.begin(), types.end(),
                                [&](const OutputType& o) { return o.array == job.array; });
    if (t == types.end())
      continue;
    RoundingBound& b = t->rounding_bound ? *t->rounding_bound : t->rounding_bound.emplace();
    const auto r = ref.bound(job.ref);
    const auto o = opt.bound(job.opt);
    if (!r.bound || !o.bound) {
      if (b.unbounded++ == 0)
        b.why_unbounded = fmt::format("{}[{}]: the {} kernel's term: {}", job.array, job.index,
                                      r.bound ? "optimized" : "reference", r.bound ? o.why : r.why);
      continue;
    }
    ++b.bounded;
    b.reference = std::max(b.reference, r.bound->error);
    b.optimized = std::max(b.optimized, o.bound->error);
    const double apart = std::nextafter(r.bound->error + o.bound->error, HUGE_VAL);
    if (apart > b.apart || b.apart_element.empty()) {
      b.apart = std::max(b.apart, apart);
      b.apart_element = fmt::format("{}[{}]", job.array, job.index);
    }
  }
}

} // namespace volta::entry
