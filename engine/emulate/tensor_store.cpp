// cp.async.bulk.tensor tile stores (TMA, shared -> global) in the emulator, as
// engine/exec/tensor_copy.hpp defines them for both machines: the box's in-bounds elements are
// read from shared memory and written to global memory at the issue (out-of-bounds elements are
// skipped), and the bulk async-groups that complete them wait for nothing. For a kernel the
// symbolic engine accepts no thread can see the difference from a later read or landing
// (exec_tensor_store.cpp: the source is unchanged until the store is retired, and nothing else
// accesses its global bytes).
#include <array>
#include <fmt/format.h>

#include "engine/emulate/machine.hpp"
#include "engine/exec/tensor_copy.hpp"

namespace volta::emulate {

using exec::Inst;
using exec::Space;

void Cta::exec_tensor_store(const Inst& in, uint32_t t) {
  const TensorBoxOperands box = tensor_box_operands(in, t);
  const uint64_t src = address(in.mem[0], t);
  auto planned = exec::plan_tensor_store(prog_, launch_.config, box.map, box.coordinates(), src);
  if (auto* why = std::get_if<std::string>(&planned))
    throw Trouble("unsupported", *why);
  const exec::TensorCopyPlan& plan = std::get<exec::TensorCopyPlan>(planned);
  const uint32_t eb = plan.box.element_bytes;
  for (const exec::TmaBoxElement& e : plan.box.elements) {
    if (!e.global_offset)
      continue;
    const uint64_t v = load(Space::Shared, e.shared_address, eb, t);
    store(Space::Global, plan.global_base + *e.global_offset, eb, v, t);
  }
}

} // namespace volta::emulate
