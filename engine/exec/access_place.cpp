// The bounds of the parameter space both CTA machines share (access_place.hpp).
#include "engine/exec/access_place.hpp"

namespace volta::exec {

ParamArea param_area(const Program& prog, uint64_t address, uint32_t size) {
  if (address + size <= prog.param_bytes) {
    for (size_t i = 0; i < prog.param_offsets.size() && i < prog.param_sizes.size(); ++i) {
      const uint64_t begin = prog.param_offsets[i];
      if (address >= begin && address + size <= begin + prog.param_sizes[i])
        return ParamArea::KernelParam;
    }
    return ParamArea::Outside;
  }
  if (address >= prog.param_bytes && address + size <= prog.param_bytes + prog.scratch_param_bytes)
    return ParamArea::CallScratch;
  return ParamArea::Outside;
}

} // namespace volta::exec
