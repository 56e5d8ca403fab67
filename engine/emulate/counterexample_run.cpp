#include "engine/emulate/counterexample_run.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <fmt/format.h>

#include "engine/emulate/edge_inputs.hpp"
#include "engine/emulate/emulator.hpp"
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

// What the kernel of `config` stores at `element` ("C[31]") at the counterexample, or why not.
std::variant<std::string, std::string> run_side(const launch::KernelConfig& config,
                                                const Counterexample& c) {
  const auto element = parse_input_name(c.element);
  if (!element)
    return std::variant<std::string, std::string>(std::in_place_index<1>, "no element to read");
  Inputs in;
  if (auto why = counterexample_inputs(config, c.inputs, in))
    return std::variant<std::string, std::string>(std::in_place_index<1>, *why);
  const auto loaded = exec::load_kernel(config.ptx_path, config.entry);
  if (!loaded.kernel)
    return std::variant<std::string, std::string>(std::in_place_index<1>, "the PTX does not load");
  const EmulationResult r = emulate(loaded.kernel->program, config, in);
  if (!r.ok())
    return std::variant<std::string, std::string>(std::in_place_index<1>, r.error->text());
  const ArrayContents* a = r.find(element->array);
  if (!a || element->index >= a->len)
    return std::variant<std::string, std::string>(std::in_place_index<1>,
                                                  "the element is not an output");
  if (!a->is_written(element->index))
    return std::variant<std::string, std::string>(std::in_place_index<0>, "nothing (not written)");
  const std::string_view type = to_string(a->type);
  const bool is_float_type = type[0] == 'f' || type == "bf16";
  // An integer from its bytes, not through a double: a u64 near 2^64 is no double's integer
  // (the cast of 1.8446744073709552e19 printed 0), and s64/u64 lose their low bits there.
  const uint32_t width = byte_width(a->type);
  uint64_t bits = 0;
  std::memcpy(&bits, a->bytes.data() + element->index * width, width);
  const uint32_t unused = 64 - 8 * width;
  // An f64 with 17 digits: two doubles one ulp apart differ in the report too.
  const std::string value = type == "f64"   ? fmt::format("{:.17g}", a->value(element->index))
                            : is_float_type ? fmt::format("{:.9g}", a->value(element->index))
                            : type[0] == 's'
                                ? fmt::format("{}", static_cast<int64_t>(bits << unused) >> unused)
                                : fmt::format("{}", bits);
  return std::variant<std::string, std::string>(std::in_place_index<0>,
                                                fmt::format("{} ({})", value, type));
}

} // namespace

void execute_counterexample(const launch::ManifestEntry& entry, Counterexample& c) {
  const auto ref = run_side(entry.reference, c);
  const auto opt = run_side(entry.optimized, c);
  if (ref.index() == 1 || opt.index() == 1) {
    c.device_note = fmt::format("not run on the emulator: {}",
                                ref.index() == 1 ? std::get<1>(ref) : std::get<1>(opt));
    return;
  }
  c.reference_device = std::get<0>(ref);
  c.optimized_device = std::get<0>(opt);
}

} // namespace volta::emulate
