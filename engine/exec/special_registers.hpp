// Special registers. Those the launch fixes (%tid, %ntid, %ctaid, %nctaid, %laneid,
// %lanemask_*, %dynamic_smem_size) have one concrete value per thread, computed here for both
// CTA machines (the symbolic CtaRunner and the emulator's Cta), so that they cannot disagree.
//
// Special registers whose value depends on the hardware or the schedule (%smid, %nsmid,
// %warpid, %nwarpid, %gridid): every read is a fresh unknown (Op::Fresh, FreshKind::
// SpecialRegister; a = serial, b = PTX line, c = the register), tainted kTaintSchedule, so that
// an output, address or branch that depends on one is refused naming the register and the line
// that read it. (%laneid is tid % 32 and stays concrete; %clock and friends are refused at the
// read, and so are the registers of `Special::Unmodelled`.)
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "engine/exec/program.hpp"
#include "engine/launch/launch_config.hpp"
#include "engine/symbolic/expr_store.hpp"

namespace volta::exec {

// The value of special register `s` for thread `t` (linear index in the CTA, x fastest) of the CTA
// `ctaid` in a launch of `config`, or nullopt for a register the launch does not fix (the
// schedule-dependent, clock and unmodelled ones below: each CTA machine refuses or models those
// itself).
std::optional<uint64_t> launch_special_value(Special s, const launch::KernelConfig& config,
                                             const std::array<uint32_t, 3>& ctaid, uint32_t t);

inline bool is_schedule_dependent(Special s) {
  return s == Special::WarpId || s == Special::NWarpId || s == Special::SmId ||
         s == Special::NSmId || s == Special::GridId;
}

// Timers and counters: a read is refused, whatever the value is used for.
inline bool is_clock(Special s) {
  return s == Special::Clock || s == Special::Clock64 || s == Special::ClockHi ||
         s == Special::GlobalTimer || s == Special::GlobalTimerLo || s == Special::GlobalTimerHi ||
         s == Special::PerfCounter;
}

inline const char* special_register_name(uint32_t s) {
  switch (static_cast<Special>(s)) {
  case Special::WarpId:
    return "%warpid";
  case Special::NWarpId:
    return "%nwarpid";
  case Special::SmId:
    return "%smid";
  case Special::NSmId:
    return "%nsmid";
  case Special::GridId:
    return "%gridid";
  default:
    return "a special register";
  }
}

// The first special-register read below `root` (depth first), or nullopt.
inline std::optional<symbolic::Node> find_special_read(const symbolic::ExprStore& store,
                                                       symbolic::ExprId root) {
  std::vector<symbolic::ExprId> stack{root};
  std::vector<symbolic::ExprId> seen;
  while (!stack.empty() && seen.size() < 100'000) {
    const symbolic::ExprId id = stack.back();
    stack.pop_back();
    if (id == symbolic::kNoExpr || !(store.taint(id) & symbolic::kTaintSchedule))
      continue;
    seen.push_back(id);
    const symbolic::Node& n = store.node(id);
    if (n.op == symbolic::Op::Fresh &&
        n.aux == static_cast<uint8_t>(symbolic::FreshKind::SpecialRegister))
      return n;
    const symbolic::ExprId kids[3] = {n.a, n.b, n.c};
    for (int i = 0; i < symbolic::child_count(n.op); ++i)
      stack.push_back(kids[i]);
  }
  return std::nullopt;
}

// "%smid (read at PTX line 12)", for messages.
inline std::string describe_special_read(const symbolic::ExprStore& store, symbolic::ExprId root) {
  const auto n = find_special_read(store, root);
  if (!n)
    return "a hardware- or schedule-dependent special register";
  return std::string(special_register_name(n->c)) + " (read at PTX line " + std::to_string(n->b) +
         ")";
}

} // namespace volta::exec
