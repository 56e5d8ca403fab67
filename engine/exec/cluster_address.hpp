// mapa{.shared::cluster}.type d, a, rank (PTX ISA, "Data Movement and Conversion Instructions:
// mapa"): the address, in the shared memory of the cluster's CTA `rank`, of the variable `a`
// addresses in the executing CTA. One definition for both CTA machines.
//
// The machines run clusters of one CTA (run_kernel refuses larger ones), where the only rank is
// the executing CTA's own: its shared::cluster window holds its own shared memory at the
// addresses of its shared::cta window, so the mapped address is `a` itself. The ISA does not
// document the bits of a mapped address beyond that, so lowering lets a mapa's result be used
// only as the base of a memory operand (refuse_opaque_addresses in lower.cpp), never as data.
#pragma once

#include <cstdint>
#include <fmt/format.h>
#include <optional>
#include <string>

namespace volta::exec {

struct MappedAddress {
  std::optional<uint64_t> address; // the mapped address; none: `why`
  bool outside_cluster = false;    // the rank names no CTA of the cluster (a kernel error)
  std::string why;
};

inline MappedAddress map_shared_address(uint64_t a, uint64_t rank, uint64_t own_rank,
                                        uint64_t cluster_ctas) {
  if (rank >= cluster_ctas)
    return {std::nullopt, true,
            fmt::format("maps a shared address into CTA rank {}, outside its cluster of {} CTA{}",
                        rank, cluster_ctas, cluster_ctas == 1 ? "" : "s")};
  if (rank != own_rank)
    return {std::nullopt, false,
            fmt::format("maps a shared address into CTA rank {} of its cluster, another CTA than "
                        "the executing one (rank {}): distributed shared memory is not modelled",
                        rank, own_rank)};
  return {a, false, {}};
}

} // namespace volta::exec
