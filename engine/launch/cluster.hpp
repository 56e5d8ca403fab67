// The thread-block cluster of a launch (sm_90): its dimensions against the grid's, and against
// the cluster directives a kernel declares (.reqnctapercluster, .explicitcluster,
// .maxclusterrank). Until clusters are modelled, a launch with more than one CTA per cluster
// ends UNSUPPORTED (exec/run_kernel.cpp), never runs as if each CTA were alone.
#pragma once

#include <string>

#include "engine/launch/launch_config.hpp"
#include "ptx/ast.hpp"

namespace volta::launch {

// The portable limit of CTAs per cluster (CUDA Programming Guide, "Thread Block Clusters": 8
// is portable; 16 needs the non-portable attribute, which H100 supports).
inline constexpr uint64_t kPortableClusterSize = 8;
inline constexpr uint64_t kMaxClusterSize = 16;

// Why `cluster` cannot launch with `grid` (empty when it can): a dimension that does not
// divide the grid's, or more than kMaxClusterSize CTAs.
std::string cluster_grid_problem(const Dim3& cluster, const Dim3& grid);

// Why `config`'s cluster does not fit the directives of `kernel` (empty when it does): a
// .reqnctapercluster that differs from the cluster given, an .explicitcluster kernel launched
// without one, more than .maxclusterrank CTAs, or more than 8 CTAs without a declaration that
// allows it (.maxclusterrank or .reqnctapercluster of that size).
std::string cluster_directive_problem(const ptx::Function& kernel, const KernelConfig& config);

// Both checks for the kernel `config.entry` of `module` (empty when it launches as given).
std::string cluster_problem_of(const ptx::Module& module, const KernelConfig& config);

} // namespace volta::launch
