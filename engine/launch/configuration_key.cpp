#include "engine/launch/configuration_key.hpp"

#include <string_view>

namespace volta::launch {

std::string configuration_key(const KernelConfig& c) {
  KeyWriter out;
  out.str(c.entry);
  for (const Dim3* d : {&c.block, &c.grid, &c.cluster})
    for (uint32_t x : *d)
      out.num(x);
  out.num(c.cluster_given ? 1 : 0);
  out.num(static_cast<uint64_t>(c.ctas));
  out.num(c.dyn_shared_bytes);
  out.num(c.arrays.size());
  for (const auto& a : c.arrays) {
    out.str(a.name);
    out.num(a.base);
    out.num(a.elem_width);
    out.num(a.len);
    out.num(static_cast<uint64_t>(a.kind));
    out.num(static_cast<uint64_t>(a.type));
  }
  out.num(c.params.size());
  for (const auto& p : c.params) {
    out.num(static_cast<uint64_t>(p.kind));
    out.str(p.name);
    out.str(symbolic::to_string(p.float_value));
    out.num(static_cast<uint64_t>(p.int_value));
    out.str(p.text); // a run's messages quote it
    out.num(p.struct_size);
    out.str(std::string_view(reinterpret_cast<const char*>(p.struct_bytes.data()),
                             p.struct_bytes.size()));
    out.num(p.struct_fields.size());
    for (const auto& f : p.struct_fields) {
      out.num(f.offset);
      out.num(static_cast<uint64_t>(f.type));
      out.str(f.array);
      out.num(f.bits);
      out.str(f.text);
      out.str(f.tensor_map ? describe(*f.tensor_map) : std::string());
    }
  }
  out.num(c.globals.size());
  for (const auto& [name, value] : c.globals) {
    out.str(name);
    out.num(static_cast<uint64_t>(value));
  }
  return out.take();
}

} // namespace volta::launch
