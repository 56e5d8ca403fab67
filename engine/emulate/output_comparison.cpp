#include "engine/emulate/output_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fmt/format.h>

#include "engine/emulate/edge_inputs.hpp"
#include "support/invariant.hpp"

namespace volta::emulate {

namespace {

// Notes kept in a result: enough to look at, few enough to read.
constexpr size_t kMaxNotes = 8;

uint64_t element_bits(const ArrayContents& a, uint64_t i) {
  return a.bits(i);
}

// The elements either result may have written, below n: ascending, disjoint ranges.
std::vector<std::pair<uint64_t, uint64_t>> candidate_ranges(const ArrayContents& r,
                                                            const ArrayContents& o, uint64_t n) {
  std::vector<std::pair<uint64_t, uint64_t>> all = r.written_ranges(), more = o.written_ranges();
  all.insert(all.end(), more.begin(), more.end());
  std::sort(all.begin(), all.end());
  std::vector<std::pair<uint64_t, uint64_t>> merged;
  for (auto [first, end] : all) {
    end = std::min(end, n);
    if (first >= end)
      continue;
    if (!merged.empty() && merged.back().second >= first)
      merged.back().second = std::max(merged.back().second, end);
    else
      merged.emplace_back(first, end);
  }
  return merged;
}

double machine_epsilon(ElemType t) {
  switch (t) {
  case ElemType::F16:
    return 0x1p-10;
  case ElemType::BF16:
    return 0x1p-7;
  case ElemType::F64:
    return 0x1p-52;
  default:
    return 0x1p-23;
  }
}

void add_note(CrossCheck& check, std::string note) {
  if (check.notes.size() < kMaxNotes)
    check.notes.push_back(std::move(note));
}

CrossCheckDivergence& divergence_of(CrossCheck& check, const std::string& array, bool real) {
  for (auto& d : check.arrays) {
    if (d.array == array)
      return d;
  }
  CrossCheckDivergence d;
  d.array = array;
  d.compared_as = real ? "real" : "integer";
  check.arrays.push_back(std::move(d));
  return check.arrays.back();
}

// What the contract idealizes that a kernel did on this input, in words ("" when nothing).
std::string events_text(const RealArithmeticEvents& e, bool with_roundings) {
  std::vector<std::string> parts;
  auto count = [&](uint64_t n, const char* what) {
    if (n != 0)
      parts.push_back(fmt::format("{} {}", n, what));
  };
  count(e.overflow, e.overflow == 1 ? "overflow" : "overflows");
  count(e.underflow, e.underflow == 1 ? "underflow to zero" : "underflows to zero");
  count(e.invalid, e.invalid == 1 ? "NaN from numbers" : "NaNs from numbers");
  count(e.division_by_zero,
        e.division_by_zero == 1 ? "infinity from numbers" : "infinities from numbers");
  if (with_roundings)
    count(e.inexact, e.inexact == 1 ? "rounding" : "roundings");
  std::string text;
  for (size_t i = 0; i < parts.size(); ++i)
    text += (i == 0 ? "" : ", ") + parts[i];
  return text;
}

// Why the differences of one input are not held against the proof ("" when they are).
std::string excuse(const EmulatedPair& p, bool real) {
  const RealArithmeticEvents& r = p.reference_events;
  const RealArithmeticEvents& o = p.optimized_events;
  std::string why;
  if (real) {
    const bool reference = r.exceptional() + r.underflow != 0;
    // A NaN or an infinity the optimized kernel made from numbers after it rounded: the operand
    // may be a rounding's (a cancellation to an exact 0 before rcp, fuzzer 20:333199), which the
    // contract idealizes; without a rounding it is the kernel's own, and held against the proof.
    const bool rounded_to_exceptional =
        o.invalid + o.division_by_zero != 0 && o.inexact + o.overflow + o.underflow != 0;
    const bool optimized = o.overflow + o.underflow != 0 || rounded_to_exceptional;
    if (reference)
      why = fmt::format("the reference's {}", events_text(r, false));
    if (optimized) {
      RealArithmeticEvents shown;
      shown.overflow = o.overflow;
      shown.underflow = o.underflow;
      if (rounded_to_exceptional) {
        shown.invalid = o.invalid;
        shown.division_by_zero = o.division_by_zero;
        shown.inexact = o.inexact;
      }
      why += fmt::format("{}the optimized kernel's {}", why.empty() ? "" : "; ",
                         events_text(shown, rounded_to_exceptional));
    }
    return why;
  }
  if (r.any())
    why = fmt::format("the reference's {}", events_text(r, true));
  if (o.any())
    why +=
        fmt::format("{}the optimized kernel's {}", why.empty() ? "" : "; ", events_text(o, true));
  return why;
}

} // namespace

uint64_t ulp_distance(uint64_t a, uint64_t b, uint32_t width) {
  VOLTA_ASSERT(width == 2 || width == 4 || width == 8, "a float element is 2, 4 or 8 bytes");
  const uint64_t sign = uint64_t{1} << (8 * width - 1);
  // Encodings ordered as integers: negative numbers below the positive ones, -0 == +0.
  auto ordered = [&](uint64_t x) -> int64_t {
    return (x & sign) != 0 ? -static_cast<int64_t>(x & ~sign) : static_cast<int64_t>(x);
  };
  const int64_t x = ordered(a), y = ordered(b);
  return x > y ? static_cast<uint64_t>(x) - static_cast<uint64_t>(y)
               : static_cast<uint64_t>(y) - static_cast<uint64_t>(x);
}

std::string device_value_text(const ArrayContents& a, uint64_t index, bool integer) {
  if (a.kind == launch::ArrayKind::Out && !a.is_written(index))
    return "nothing (not written)";
  const std::string_view type = to_string(a.type);
  const uint64_t bits = element_bits(a, index);
  const double v = a.value(index);
  const uint32_t digits = 2 * byte_width(a.type);
  if (integer && is_float(a.type)) // integer data in an array read as floats by default
    return fmt::format("bits {:#0{}x} ({} bytes)", bits, digits + 2, byte_width(a.type));
  if (is_float(a.type)) {
    if (std::isnan(v))
      return fmt::format("nan ({}, bits {:#0{}x})", type, bits, digits + 2);
    return fmt::format("{:.9g} ({})", v, type);
  }
  if (is_signed_int(a.type))
    return fmt::format("{} ({}, bits {:#0{}x})", static_cast<long long>(v), type, bits, digits + 2);
  return fmt::format("{} ({}, bits {:#0{}x})", bits, type, bits, digits + 2);
}

void compare_outputs(const std::vector<CrossCheckArray>& arrays, const EmulatedPair& p,
                     CrossCheck& check, bool sampled) {
  VOLTA_ASSERT(p.reference && p.optimized && p.reference->ok() && p.optimized->ok(),
               "outputs are compared after both runs succeeded");
  const std::string input_name(edge_input_name(p.input));
  const std::string real_excuse = excuse(p, true), integer_excuse = excuse(p, false);
  // The reference left its domain on this input (a NaN or an infinity from numbers: sqrt or
  // rsqrt of a negative, a division by zero): the proof assumed it away, so an exact element may
  // rest on that assumption (a NaN test of rsqrt(x) decided false, the element a constant) and
  // claims nothing here. The events are the run's, not the element's: the whole input is
  // excused (fuzzer 19:70429).
  const bool reference_undefined =
      p.reference_events.invalid + p.reference_events.division_by_zero != 0;
  uint64_t excused_here = 0;
  std::string excused_example, excused_reason;

  for (const CrossCheckArray& array : arrays) {
    const ArrayContents* r = p.reference->find(array.name);
    const ArrayContents* o = p.optimized->find(array.name);
    if (!r || !o || byte_width(r->type) != byte_width(o->type)) {
      add_note(check, fmt::format("{} is not compared on the emulator: {}", array.name,
                                  !r || !o ? "not an output of both kernels there"
                                           : "its element widths differ"));
      continue;
    }
    // Real data is compared within rounding where both kernels read the array as floats; real
    // data in an integer-typed array by its bytes, but a difference there is only noted (the
    // proof compared it as a real).
    const bool as_reals = array.real && is_float(r->type) && is_float(o->type);
    const bool notes_only = array.real && !as_reals;
    const std::string& why_excused = array.real ? real_excuse : integer_excuse;
    CrossCheckDivergence& div = divergence_of(check, array.name, array.real);
    const bool out_array = r->kind == launch::ArrayKind::Out;
    const uint64_t n = std::min(r->len, o->len);
    // An element neither kernel wrote holds the array's initial contents in both (`out`:
    // undefined; `inout`: the same input; `zero`: 0): nothing to compare.
    auto touched = [&](uint64_t i) {
      return sampled ? r->is_written(i) && o->is_written(i) : r->is_written(i) || o->is_written(i);
    };
    const auto ranges = candidate_ranges(*r, *o, n);

    double scale = 0; // the largest finite reference magnitude: the size of what rounds
    if (as_reals) {
      for (const auto& [first, end] : ranges)
        for (uint64_t i = first; i < end; ++i) {
          if (!touched(i) || (out_array && !r->is_written(i)))
            continue;
          const double v = r->value(i);
          if (std::isfinite(v))
            scale = std::max(scale, std::fabs(v));
        }
    }
    const double rel_tol = std::max(1e-2, 32 * machine_epsilon(r->type));
    const double abs_tol = 1e-3 * scale;

    auto element = [&](uint64_t i) { return fmt::format("{}[{}]", array.name, i); };
    auto contradict = [&](uint64_t i, std::string why) {
      if (check.contradiction)
        return;
      CrossCheckContradiction c;
      c.element = element(i);
      c.reference_device = device_value_text(*r, i, !array.real);
      c.optimized_device = device_value_text(*o, i, !array.real);
      c.input = p.input;
      c.input_name = input_name;
      c.why = std::move(why);
      check.contradiction = std::move(c);
    };
    auto excused = [&](uint64_t i) {
      ++excused_here;
      if (!excused_example.empty())
        return;
      excused_example =
          fmt::format("{}: {} (reference) vs {} (optimized)", element(i),
                      device_value_text(*r, i, !array.real), device_value_text(*o, i, !array.real));
      excused_reason = !why_excused.empty()
                           ? why_excused + " (idealized by the contract)"
                           : "real data compared by its bytes in an integer-typed array";
    };

    for (const auto& [first, end] : ranges)
      for (uint64_t i = first; i < end; ++i) {
        if (!touched(i))
          continue;
        const bool wr = !out_array || r->is_written(i), wo = !out_array || o->is_written(i);
        ++check.elements;
        ++div.elements;
        if (wr != wo) {
          if (!wr) { // the reference leaves it undefined: nothing to refine
            add_note(check, fmt::format("{} on input '{}' is written by the optimized kernel only",
                                        element(i), input_name));
          } else if (!why_excused.empty() || notes_only) {
            excused(i);
          } else {
            contradict(i, "written by the reference, left unwritten by the optimized kernel");
          }
          continue;
        }
        const uint64_t rb = element_bits(*r, i), ob = element_bits(*o, i);
        if (!as_reals) {
          if (rb == ob)
            continue;
          if (array.exact.contains(i) && !reference_undefined) {
            // Nothing rounds in either kernel's term: the bytes are the claim, real data in an
            // integer-typed array included (the bits of -0.0 stored through st.s32 against
            // 0x4F000000, once proved equal: soundness c23_neg_zero_bits_into_int_array).
            contradict(i, "both kernels compute it without rounding (symbolic/exact_terms.hpp), "
                          "so the proof claims the very bytes");
            continue;
          }
          if (!why_excused.empty() || notes_only)
            excused(i);
          else
            contradict(i, "an integer output differs");
          continue;
        }
        const double rv = r->value(i), ov = o->value(i);
        if (!std::isfinite(rv))
          continue; // undefined in the reference (or its overflow): no claim here
        if ((!std::isfinite(ov) || rv != ov) && array.exact.contains(i) && !reference_undefined) {
          // Nothing rounds in either kernel's term: the proof claims the device's very value,
          // and no overflow elsewhere in the run excuses a difference here.
          contradict(i, "both kernels compute it without rounding (symbolic/exact_terms.hpp), so "
                        "the proof over the reals claims the device's very value");
          continue;
        }
        if (!std::isfinite(ov)) {
          if (!why_excused.empty())
            excused(i);
          else
            contradict(i, fmt::format("a number in the reference, {} in the optimized kernel",
                                      std::isnan(ov) ? "NaN" : "an infinity"));
          continue;
        }
        if (!why_excused.empty())
          continue; // not a measure of rounding: the input left the reals
        const double d = std::fabs(rv - ov);
        if (d > div.max_abs) {
          div.max_abs = d;
          div.max_element = element(i);
          div.max_input = p.input;
        }
        if (rv != 0)
          div.max_rel = std::max(div.max_rel, d / std::fabs(rv));
        if (r->type == o->type)
          div.max_ulp = std::max(div.max_ulp, ulp_distance(rb, ob, byte_width(r->type)));
        if (scale > 0)
          div.max_scaled = std::max(div.max_scaled, d / scale);
        if (check.tolerance && d > check.tolerance->abs + check.tolerance->rel * std::fabs(rv)) {
          if (div.beyond_tolerance++ == 0)
            div.beyond_tolerance_example =
                fmt::format("{} on input '{}': {} (reference) vs {} (optimized)", element(i),
                            input_name, device_value_text(*r, i), device_value_text(*o, i));
        }
        if (d > abs_tol && d > rel_tol * std::fabs(rv)) {
          ++div.beyond_rounding; // a precision-loss warning (report/float_error_lines.hpp)
          add_note(check,
                   fmt::format("worth a look: {} on input '{}' is {} (reference) vs {} "
                               "(optimized), apart by {:.3g} (relative {:.3g}) where neither "
                               "kernel overflowed",
                               element(i), input_name, device_value_text(*r, i),
                               device_value_text(*o, i), d, d / std::fabs(rv)));
        }
      }
  }
  if (excused_here != 0) {
    check.excused += excused_here;
    add_note(check,
             fmt::format("input '{}': {} difference{} not held against the proof, explained by {}; "
                         "e.g. {}",
                         input_name, excused_here, excused_here == 1 ? "" : "s", excused_reason,
                         excused_example));
  }
}

} // namespace volta::emulate
