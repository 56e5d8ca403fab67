// Executes one kernel under a launch configuration: loads its PTX, lowers it, runs the CTAs the
// configuration asks for (CTA 0, or all of them in parallel with TBB) and collects the value of
// every written element of every output array as a root in the shared expression DAG.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/exec/kernel_run.hpp"
#include "engine/exec/launch_context.hpp"
#include "engine/exec/program.hpp"
#include "ptx/ast.hpp"
#include "ptx/diagnostic.hpp"

namespace volta::exec {

// A parsed and lowered kernel, ready to run any number of times.
struct LoadedKernel {
  std::string source_text;
  ptx::Module module;
  Program program;
};

struct LoadResult {
  std::shared_ptr<const LoadedKernel> kernel;
  std::vector<ptx::Diagnostic> diagnostics; // parse or lowering errors (bad input)

  // Why the kernel did not load, in one line: the first error (not a warning before it, such
  // as a newer `.version`).
  std::string failure_headline() const;
};

LoadResult load_kernel(const std::string& ptx_path, const std::string& entry);

// Checks that the configuration fits the program (parameter count and kinds). Returns an error
// message, or an empty string.
std::string check_config(const Program& program, const launch::KernelConfig& config);

// Runs the kernel. A bad configuration, an unsupported instruction or a safety violation ends
// in KernelRun::failure; the store receives every node.
KernelRun run_kernel(const Program& program, const launch::KernelConfig& config,
                     symbolic::ExprStore& store, const RunOptions& options = {});

} // namespace volta::exec
