// cp.async.bulk.tensor tile loads (TMA) in the emulator, as engine/exec/tensor_copy.hpp defines
// them for both machines: the box is read from global memory and written to shared memory at
// the issue, and its complete_tx(box bytes) is applied to the mbarrier then (the waiters of a
// phase it completes go on). For a kernel the symbolic engine finds race-free no thread can see
// the difference from a later landing: every access of the box is ordered after the phase's
// completion there.
#include <array>
#include <bit>
#include <fmt/format.h>

#include "engine/emulate/machine.hpp"
#include "engine/exec/tensor_copy.hpp"

namespace volta::emulate {

using exec::Inst;
using exec::Space;
using exec::ValType;

Cta::TensorBoxOperands Cta::tensor_box_operands(const Inst& in, uint32_t t) {
  TensorBoxOperands box;
  box.rank = in.groups[0];
  if (box.rank < 1 || box.rank > 5 || in.srcs.size() != 1 + box.rank)
    throw Trouble("unsupported", "a tensor copy without its map and coordinates");
  box.map = read(in.srcs[0], t, ValType::U64);
  for (uint32_t i = 0; i < box.rank; ++i) {
    box.coords[i] =
        static_cast<int32_t>(static_cast<uint32_t>(read(in.srcs[1 + i], t, ValType::U32)));
  }
  return box;
}

void Cta::exec_tensor_load(const Inst& in, uint32_t t) {
  const TensorBoxOperands box = tensor_box_operands(in, t);
  const uint64_t dst = address(in.mem[0], t);
  const uint64_t mbar = address(in.mem[1], t);
  auto planned = exec::plan_tensor_load(prog_, launch_.config, box.map, box.coordinates(), dst);
  if (auto* why = std::get_if<std::string>(&planned))
    throw Trouble("unsupported", *why);
  const exec::TensorCopyPlan& plan = std::get<exec::TensorCopyPlan>(planned);
  if (mbarriers_.find(mbar) == nullptr)
    throw Trouble("undefined",
                  fmt::format("the tensor load's mbarrier operand {:#x} is no initialized "
                              "mbarrier",
                              mbar));
  const uint32_t eb = plan.box.element_bytes;
  for (const exec::TmaBoxElement& e : plan.box.elements) {
    const uint64_t v =
        e.global_offset ? load(Space::Global, plan.global_base + *e.global_offset, eb, t) : 0;
    store(Space::Shared, e.shared_address, eb, v, t);
  }
  const exec::CtaMbarriers::Outcome o = mbarriers_.complete_tx(mbar, plan.box.bytes);
  if (!o.ok())
    throw Trouble("undefined", o.problem);
  if (o.completed)
    wake_mbarrier_waiters(mbar);
}

} // namespace volta::emulate
