// The thread-block cluster of a launch (see cluster.hpp).
//
// Sources: CUDA C++ Programming Guide, "Thread Block Clusters" (each cluster dimension divides
// the grid's; 8 CTAs per cluster is the portable maximum, 16 with
// cudaFuncAttributeNonPortableClusterSizeAllowed on H100); PTX ISA, "Cluster dimension
// directives" (.reqnctapercluster: the launch must give exactly that cluster; .explicitcluster:
// the kernel must be launched with a cluster; .maxclusterrank: at most that many CTAs).
#include "engine/launch/cluster.hpp"

#include <fmt/format.h>

namespace volta::launch {

namespace {

std::string dims(const Dim3& d) {
  return fmt::format("{}x{}x{}", d[0], d[1], d[2]);
}

const ptx::PerformanceDirective* directive(const ptx::Function& f, std::string_view name) {
  for (const auto& d : f.directives) {
    if (d.name == name)
      return &d;
  }
  return nullptr;
}

} // namespace

std::string cluster_grid_problem(const Dim3& cluster, const Dim3& grid) {
  static constexpr char kAxis[] = {'x', 'y', 'z'};
  for (int i = 0; i < 3; ++i) {
    if (cluster[i] == 0 || grid[i] % cluster[i] != 0)
      return fmt::format("the cluster's {} dimension ({}) does not divide the grid's ({}): a grid "
                         "is a whole number of clusters",
                         kAxis[i], cluster[i], grid[i]);
  }
  const uint64_t size = uint64_t{cluster[0]} * cluster[1] * cluster[2];
  if (size > kMaxClusterSize)
    return fmt::format("a cluster of {} has {} CTAs; at most {} (8 portable, 16 non-portable)",
                       dims(cluster), size, kMaxClusterSize);
  return {};
}

std::string cluster_directive_problem(const ptx::Function& kernel, const KernelConfig& config) {
  const uint64_t size = config.cluster_size();
  const auto* required = directive(kernel, "reqnctapercluster");
  const auto* explicit_cluster = directive(kernel, "explicitcluster");
  const auto* max_rank = directive(kernel, "maxclusterrank");
  if (required != nullptr) {
    Dim3 want{1, 1, 1};
    for (size_t i = 0; i < required->values.size() && i < 3; ++i)
      want[i] = static_cast<uint32_t>(required->values[i]);
    if (config.cluster_given && want != config.cluster)
      return fmt::format("kernel '{}' declares .reqnctapercluster {}, but the launch gives the "
                         "cluster {}",
                         kernel.name, dims(want), dims(config.cluster));
    if (!config.cluster_given && want != Dim3{1, 1, 1})
      return fmt::format("kernel '{}' declares .reqnctapercluster {}: give that \"cluster\" in "
                         "the launch configuration",
                         kernel.name, dims(want));
  }
  if (explicit_cluster != nullptr && !config.cluster_given && required == nullptr)
    return fmt::format("kernel '{}' declares .explicitcluster: it must be launched with a "
                       "\"cluster\"",
                       kernel.name);
  if (max_rank != nullptr && !max_rank->values.empty() && size > max_rank->values[0])
    return fmt::format("the cluster {} has {} CTAs, but kernel '{}' declares .maxclusterrank {}",
                       dims(config.cluster), size, kernel.name, max_rank->values[0]);
  // More than the portable 8 needs the kernel to say it was built for it.
  const bool declared_large =
      (max_rank != nullptr && !max_rank->values.empty() && max_rank->values[0] >= size) ||
      required != nullptr;
  if (size > kPortableClusterSize && !declared_large)
    return fmt::format("the cluster {} has {} CTAs, more than the portable {}; a kernel launched "
                       "so declares .maxclusterrank (or .reqnctapercluster) of that size",
                       dims(config.cluster), size, kPortableClusterSize);
  return {};
}

std::string cluster_problem_of(const ptx::Module& module, const KernelConfig& config) {
  if (auto problem = cluster_grid_problem(config.cluster, config.grid); !problem.empty())
    return problem;
  const ptx::Function* f = module.find_function(config.entry);
  return f != nullptr ? cluster_directive_problem(*f, config) : std::string();
}

} // namespace volta::launch
