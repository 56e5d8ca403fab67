// `volta-eg parse FILE.ptx...`: parses each file and prints its summary (version, target,
// kernels with their parameters, instruction histogram). Exit 0 when every file parsed, 2
// (bad input) otherwise, with the rendered diagnostics on stderr.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "engine/cli/commands.hpp"
#include "engine/diagnostic_reporter.hpp"
#include "engine/exit_status.hpp"
#include "ptx/parser.hpp"
#include "ptx/summary.hpp"

namespace volta::cli {

void register_parse_command(CLI::App& app, int& exit_code) {
  CLI::App* cmd = app.add_subcommand(
      "parse", "Parse PTX files; print version, target, kernels and an instruction histogram");
  auto files = std::make_shared<std::vector<std::string>>();
  auto quiet = std::make_shared<bool>(false);
  cmd->add_option("files", *files, "PTX files to parse")->required();
  cmd->add_flag("-q,--quiet", *quiet, "print only the diagnostics (the exit status says the rest)");
  cmd->callback([files, quiet, &exit_code] {
    bool all_parsed = true;
    bool first = true;
    for (const std::string& path : *files) {
      ptx::ParseResult result = ptx::parse_file(path);
      for (const auto& d : result.diagnostics)
        DiagnosticReporter::standard().report(d);
      if (!result.ok()) {
        all_parsed = false;
        continue;
      }
      if (*quiet)
        continue;
      if (!first) {
        std::cout << '\n';
      }
      first = false;
      std::cout << ptx::format_summary(path, ptx::summarize(*result.module));
    }
    std::cout.flush();
    exit_code = all_parsed ? kSuccess : kBadInput;
  });
}

} // namespace volta::cli
