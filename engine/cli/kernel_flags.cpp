#include "engine/cli/kernel_flags.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <sstream>

#include "engine/launch/cluster.hpp"
#include "engine/launch/cuda_source.hpp"
#include "engine/launch/manifest.hpp"

namespace volta::cli {

void KernelFlags::add_to(CLI::App& app, const std::string& prefix, const std::string& who) {
  app.add_option("--" + prefix + "ptx", ptx, "PTX file of the " + who);
  app.add_option("--" + prefix + "cu", cu,
                 "CUDA source of the " + who + " instead of --" + prefix +
                     "ptx: compiled with nvcc -ptx -lineinfo (nvcc on PATH or in $CUDA_HOME/bin; "
                     "cached by content)");
  app.add_option("--" + prefix + "arch", arch, "nvcc architecture for --" + prefix + "cu")
      ->capture_default_str();
  app.add_option("--" + prefix + "kernel", kernel, "kernel entry name of the " + who);
  app.add_option("--" + prefix + "block", block, "CTA size X[,Y[,Z]]")->capture_default_str();
  app.add_option("--" + prefix + "grid", grid, "grid size X[,Y[,Z]]")->capture_default_str();
  app.add_option("--" + prefix + "cluster", cluster,
                 "thread-block cluster X[,Y[,Z]] (sm_90); each divides the grid's");
  app.add_option("--" + prefix + "array", arrays,
                 "array NAME:BASE:WIDTH:LEN:KIND[:TYPE] (repeatable; TYPE f32, s32, ...)");
  app.add_option("--" + prefix + "param", params,
                 "parameter ptr:A | sym:NAME | float:V | int:V | struct:SIZE[:bytes=FILE] (a "
                 "by-value aggregate; typed fields need a manifest), in order (repeatable)");
  app.add_option("--" + prefix + "global", globals, "module variable NAME=INT (repeatable)");
  app.add_option("--" + prefix + "ctas", ctas, "all (every CTA of the grid) or first (CTA 0 only)")
      ->capture_default_str();
  app.add_option("--" + prefix + "dyn-shared", dyn_shared, "dynamic shared memory bytes");
}

namespace {

std::optional<launch::Dim3> parse_dim3(const std::string& text) {
  launch::Dim3 d{1, 1, 1};
  std::stringstream ss(text);
  std::string part;
  size_t i = 0;
  while (std::getline(ss, part, ',')) {
    if (i >= 3)
      return std::nullopt;
    try {
      size_t used = 0;
      const unsigned long v = std::stoul(part, &used, 0);
      if (used != part.size() || v == 0 || v > 0x7fffffff)
        return std::nullopt;
      d[i++] = static_cast<uint32_t>(v);
    } catch (...) {
      return std::nullopt;
    }
  }
  if (i == 0)
    return std::nullopt;
  return d;
}

} // namespace

Expected<launch::KernelConfig> KernelFlags::config(const std::string& prefix) const {
  launch::KernelConfig k;
  if (ptx.empty() == cu.empty()) {
    return Unexpected{ptx.empty()
                          ? fmt::format("--{}ptx (or --{}cu) is required", prefix, prefix)
                          : fmt::format("--{}ptx and --{}cu: give one of them", prefix, prefix)};
  }
  if (!cu.empty()) {
    launch::CudaCompileRequest request;
    request.source = cu;
    request.arch = arch;
    const auto compiled = launch::compile_cuda(request);
    if (!compiled.ok()) {
      return Unexpected{fmt::format("--{}cu: {}", prefix, compiled.error)};
    }
    k.ptx_path = compiled.ptx_path;
  } else {
    k.ptx_path = ptx;
  }
  if (kernel.empty()) {
    return Unexpected{fmt::format("--{}kernel is required", prefix)};
  }
  k.entry = kernel;
  auto b = parse_dim3(block);
  auto g = parse_dim3(grid);
  if (!b) {
    return Unexpected{
        fmt::format("--{}block: expected X[,Y[,Z]] positive integers, got \"{}\"", prefix, block)};
  }
  if (!g) {
    return Unexpected{
        fmt::format("--{}grid: expected X[,Y[,Z]] positive integers, got \"{}\"", prefix, grid)};
  }
  k.block = *b;
  k.grid = *g;
  if (!cluster.empty()) {
    auto c = parse_dim3(cluster);
    if (!c) {
      return Unexpected{fmt::format("--{}cluster: expected X[,Y[,Z]] positive integers, got \"{}\"",
                                    prefix, cluster)};
    }
    k.cluster = *c;
    k.cluster_given = true;
    if (std::string problem = launch::cluster_grid_problem(k.cluster, k.grid); !problem.empty())
      return Unexpected{fmt::format("--{}cluster: {}", prefix, problem)};
  }
  if (k.threads_per_cta() > 1024) {
    return Unexpected{fmt::format("--{}block: a CTA has at most 1024 threads", prefix)};
  }
  for (const auto& a : arrays) {
    auto spec = launch::parse_array_flag(a);
    if (!spec) {
      return Unexpected{fmt::format("--{}array {}: {}", prefix, a, spec.error())};
    }
    if (std::string clash = launch::array_clash(k.arrays, *spec); !clash.empty())
      return Unexpected{fmt::format("--{}array {}: {}", prefix, a, clash)};
    k.arrays.push_back(*spec);
  }
  for (const auto& p : params) {
    auto spec = launch::parse_param(p);
    if (!spec) {
      return Unexpected{fmt::format("--{}param: {}", prefix, spec.error())};
    }
    if (spec->kind == launch::ParamSpec::Kind::Ptr && !k.find_array(spec->name)) {
      return Unexpected{fmt::format("--{}param: no array named \"{}\"", prefix, spec->name)};
    }
    k.params.push_back(*spec);
  }
  for (const auto& g2 : globals) {
    const size_t eq = g2.find('=');
    try {
      if (eq == std::string::npos)
        throw std::invalid_argument("no =");
      k.globals[g2.substr(0, eq)] = std::stoll(g2.substr(eq + 1), nullptr, 0);
    } catch (...) {
      return Unexpected{fmt::format("--{}global: expected NAME=INTEGER, got \"{}\"", prefix, g2)};
    }
  }
  if (ctas == "first") {
    k.ctas = launch::CtaMode::First;
  } else if (ctas == "all") {
    k.ctas = launch::CtaMode::All;
  } else {
    return Unexpected{fmt::format("--{}ctas: expected first or all, got \"{}\"", prefix, ctas)};
  }
  k.dyn_shared_bytes = dyn_shared;
  return k;
}

} // namespace volta::cli
