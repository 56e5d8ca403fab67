#include "engine/emulate/counterexample_run.hpp"

#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <span>
#include <variant>

#include "engine/emulate/edge_inputs.hpp"
#include "engine/emulate/emulator.hpp"
#include "engine/emulate/float_semantics.hpp"
#include "engine/exec/run_kernel.hpp"
#include "engine/symbolic/rational.hpp"

namespace volta::emulate {

namespace {

// "A[31]" -> ("A", 31); "A[3]:b32" -> ("A", 3), integer view of 32 bits.
struct InputName {
  std::string array;
  uint64_t index = 0;
  bool integer_view = false;
  uint32_t view_bits = 0; // the integer view's width (0: not given)
};

std::optional<InputName> parse_input_name(const std::string& s) {
  const auto open = s.find('['), close = s.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open)
    return std::nullopt;
  InputName n;
  n.array = s.substr(0, open);
  try {
    n.index = std::stoull(s.substr(open + 1, close - open - 1));
  } catch (...) {
    return std::nullopt;
  }
  const auto view = s.find(":b", close);
  n.integer_view = view != std::string::npos;
  if (n.integer_view) {
    try {
      n.view_bits = static_cast<uint32_t>(std::stoul(s.substr(view + 2)));
    } catch (...) {
      return std::nullopt;
    }
  }
  return n;
}

// Writes the integer view `name` = q of a float element whose bits are narrower or wider than
// the view: such a view is the bits of the element's value converted exactly to the view's
// format (the f32 bits of an f16 widened by cvt.f32.f16), not the element's own bytes, so the
// element takes that value. Returns why not where no element value has those bits.
std::optional<std::string> write_value_view(const std::string& name, const InputName& view,
                                            const mpz_class& bits, ElemType t, uint8_t* at) {
  double value = 0;
  if (view.view_bits == 32) {
    value = std::bit_cast<float>(static_cast<uint32_t>(bits.get_ui()));
  } else if (view.view_bits == 64) {
    uint64_t b = 0;
    mpz_export(&b, nullptr, -1, sizeof(b), 0, 0, bits.get_mpz_t());
    value = std::bit_cast<double>(b);
  } else {
    return fmt::format("the input {} names {} bits of a {} element, which are no IEEE format's "
                       "known to the emulator",
                       name, view.view_bits, to_string(t));
  }
  if (std::isnan(value))
    return fmt::format("the input {} is a NaN's bits, which no {} element widens to exactly", name,
                       to_string(t));
  write_element(t, value, at);
  if (read_element(t, at) != value)
    return fmt::format("the input {} is the bits of {}, which is not a value of {}'s element "
                       "type {}",
                       name, value, view.array, to_string(t));
  return std::nullopt;
}

} // namespace

std::optional<std::string>
counterexample_inputs(const launch::KernelConfig& config,
                      const std::vector<std::pair<std::string, std::string>>& values, Inputs& in) {
  const auto types = declared_elem_types(config);
  in = random_inputs(config, 0, types);
  for (auto& [name, bytes] : in.arrays) {
    const launch::ArraySpec* a = config.find_array(name);
    if (a && a->kind != launch::ArrayKind::Index)
      std::fill(bytes.begin(), bytes.end(), uint8_t{0});
  }
  for (auto& [name, value] : in.symbols)
    value = 0;
  for (const auto& [name, text] : values) {
    auto q = symbolic::parse_rational(text);
    if (!q)
      return fmt::format("the input {} = {} is not a number", name, text);
    const auto parsed = parse_input_name(name);
    if (!parsed) { // a symbolic parameter
      in.symbols[name] = symbolic::to_double(*q);
      continue;
    }
    const launch::ArraySpec* a = config.find_array(parsed->array);
    auto it = in.arrays.find(parsed->array);
    if (!a || it == in.arrays.end() || (parsed->index + 1) * a->elem_width > it->second.size())
      return fmt::format("the input {} is not an element of this kernel's arrays", name);
    uint8_t* at = it->second.data() + parsed->index * a->elem_width;
    const auto t = types.count(a->name) ? types.at(a->name) : default_elem_type(*a);
    if (parsed->integer_view && parsed->view_bits != 0 && parsed->view_bits != 8 * a->elem_width &&
        is_float(t)) {
      if (q->get_den() != 1 || q->get_num() < 0 ||
          q->get_num() >= mpz_class(1) << parsed->view_bits)
        return fmt::format("the input {} = {} is not a {}-bit pattern", name, text,
                           parsed->view_bits);
      if (auto why = write_value_view(name, *parsed, q->get_num(), t, at))
        return why;
      continue;
    }
    if (parsed->integer_view) {
      mpz_class z = q->get_num() % (mpz_class(1) << (8 * a->elem_width));
      if (z < 0)
        z += mpz_class(1) << (8 * a->elem_width);
      uint64_t bits = 0;
      mpz_export(&bits, nullptr, -1, sizeof(bits), 0, 0, z.get_mpz_t());
      std::memcpy(at, &bits, a->elem_width);
    } else {
      write_element(t, symbolic::to_double(*q), at);
    }
  }
  return std::nullopt;
}

namespace {

// What one kernel stores at the element: as the report prints it, and as a number.
struct Stored {
  std::string text;
  bool written = false;
  bool is_float = false;
  double value = 0; // a float element's value
  uint64_t bits = 0;
  // Operations of the run that left the reals: a division by zero, a NaN made from numbers
  // (0/0, sqrt(-1), inf - inf), an infinity from numbers (lg2(0), an overflow). In the
  // reference, the input may lie outside its domain.
  uint64_t undefined_operations = 0;
};
using SideResult = std::variant<Stored, std::string>; // what it stores, or why not

SideResult why_not(std::string why) {
  return SideResult(std::in_place_index<1>, std::move(why));
}

// Whether two stores are a difference a user can act on: the reference's value a number (an
// infinity included) and the optimized kernel's another (+0 and -0 are one real; a NaN differs
// from every number); integers by their bits.
bool differ_on_the_device(const Stored& r, const Stored& o) {
  if (r.written != o.written)
    return r.written; // the reference writes, the optimized kernel does not
  if (!r.written)
    return false;
  if (r.is_float)
    return !std::isnan(r.value) && !(r.value == o.value);
  return r.bits != o.bits;
}

// One kernel of an entry, loaded once, run at input points; reads one output element.
class SideRunner {
public:
  SideRunner(const launch::KernelConfig& config, const std::string& element)
      : config_(config), element_(parse_input_name(element)),
        loaded_(exec::load_kernel(config.ptx_path, config.entry)) {}

  // What the kernel stores at the element with `values` set (every other input 0), or why not.
  SideResult run(const std::vector<std::pair<std::string, std::string>>& values) const {
    if (!element_)
      return why_not("no element to read");
    Inputs in;
    if (auto why = counterexample_inputs(config_, values, in))
      return why_not(*why);
    if (!loaded_.kernel)
      return why_not("the PTX does not load");
    reset_real_arithmetic_events(); // this thread's, for this run
    const EmulationResult r = emulate(loaded_.kernel->program, config_, in);
    const RealArithmeticEvents events = real_arithmetic_events();
    if (!r.ok())
      return why_not(r.error->text());
    const ArrayContents* a = r.find(element_->array);
    if (!a || element_->index >= a->len)
      return why_not("the element is not an output");
    const uint64_t undefined = events.exceptional();
    if (!a->is_written(element_->index))
      return SideResult(std::in_place_index<0>,
                        Stored{"nothing (not written)", false, false, 0, 0, undefined});
    const std::string_view type = to_string(a->type);
    const bool is_float_type = type[0] == 'f' || type == "bf16";
    // An integer from its bytes, not through a double: a u64 near 2^64 is no double's integer
    // (the cast of 1.8446744073709552e19 printed 0), and s64/u64 lose their low bits there.
    const uint32_t width = byte_width(a->type);
    uint64_t bits = 0;
    std::memcpy(&bits, a->bytes.data() + element_->index * width, width);
    const uint32_t unused = 64 - 8 * width;
    // An f64 with 17 digits: two doubles one ulp apart differ in the report too.
    const std::string value =
        type == "f64"    ? fmt::format("{:.17g}", a->value(element_->index))
        : is_float_type  ? fmt::format("{:.9g}", a->value(element_->index))
        : type[0] == 's' ? fmt::format("{}", static_cast<int64_t>(bits << unused) >> unused)
                         : fmt::format("{}", bits);
    return SideResult(std::in_place_index<0>,
                      Stored{fmt::format("{} ({})", value, type), true, is_float_type,
                             a->value(element_->index), bits, undefined});
  }

private:
  const launch::KernelConfig& config_;
  std::optional<InputName> element_;
  exec::LoadResult loaded_;
};

// Input points near a counterexample's, for a device witness: every input 0, then each input
// in turn replaced by a few small values (an integer view by 0 and 1). A difference over the
// reals that rounding hides at one point (a + 2^-149 rounded to a at a = -7) shows at another
// (at a = 0 the two roundings to an integer part).
std::vector<std::vector<std::pair<std::string, std::string>>>
nearby_points(const std::vector<std::pair<std::string, std::string>>& inputs) {
  std::vector<std::vector<std::pair<std::string, std::string>>> points;
  if (!inputs.empty())
    points.emplace_back();
  static const char* const kValues[] = {"0", "1", "-1", "1/2", "-1/2", "2", "-2", "3/2"};
  static const char* const kBits[] = {"0", "1"};
  constexpr size_t kInputsVaried = 8;
  for (size_t k = 0; k < inputs.size() && k < kInputsVaried; ++k) {
    const bool view = inputs[k].first.find(":b") != std::string::npos;
    const auto values = view ? std::span<const char* const>(kBits) : std::span(kValues);
    for (const char* v : values) {
      if (inputs[k].second == v)
        continue;
      auto point = inputs;
      point[k].second = v;
      points.push_back(std::move(point));
    }
  }
  return points;
}

} // namespace

void execute_counterexample(const launch::ManifestEntry& entry, Counterexample& c,
                            const WitnessSearchLimits& limits) {
  const auto start = std::chrono::steady_clock::now();
  const SideRunner ref(entry.reference, c.element), opt(entry.optimized, c.element);
  const SideResult r = ref.run(c.inputs), o = opt.run(c.inputs);
  if (r.index() == 1 || o.index() == 1) {
    c.device_note = fmt::format("not run on the emulator: {}",
                                r.index() == 1 ? std::get<1>(r) : std::get<1>(o));
    return;
  }
  c.reference_device = std::get<0>(r).text;
  c.optimized_device = std::get<0>(o).text;
  if (const uint64_t n = std::get<0>(r).undefined_operations; n > 0)
    c.reference_undefined_on_device = fmt::format(
        "the reference's run at this input divides by zero or makes a NaN or an infinity from "
        "numbers ({} operation{})",
        n, n == 1 ? "" : "s");
  if (c.reference_device != c.optimized_device)
    return;
  // The kernels differ over the reals by less than rounding here: look for a nearby point where
  // the device tells them apart, within a budget: half a second, or four times the first run
  // (a production kernel's grid may take seconds on the emulator).
  const double first =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double budget = std::max(0.5, 4 * first);
  for (const auto& point : nearby_points(c.inputs)) {
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - start).count() > budget ||
        (limits.deadline && now >= *limits.deadline) ||
        (limits.cancel != nullptr && limits.cancel->load()))
      break;
    const SideResult rw = ref.run(point), ow = opt.run(point);
    if (rw.index() == 1 || ow.index() == 1 ||
        !differ_on_the_device(std::get<0>(rw), std::get<0>(ow)))
      continue;
    c.device_witness = DeviceWitness{point, std::get<0>(rw).text, std::get<0>(ow).text};
    return;
  }
}

} // namespace volta::emulate
