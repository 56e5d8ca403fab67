// volta-eg: equivalence and safety checker for GPU kernels given as PTX.
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "engine/cli/commands.hpp"
#include "engine/cli/exit_codes.hpp"
#include "engine/driver/tool_version.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "volta-eg: prove that two GPU kernels (PTX) compute the same outputs over the reals, "
      "or show why not"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("volta-eg ") + volta::driver::kToolVersion);

  int exit_code = volta::cli::kSuccess;
  volta::cli::register_parse_command(app, exit_code);
  volta::cli::register_check_command(app, exit_code);
  volta::cli::register_prove_command(app, exit_code);
  volta::cli::register_merge_command(app, exit_code);
  volta::cli::register_rules_command(app, exit_code);
  volta::cli::register_explain_command(app, exit_code);
  volta::cli::register_run_command(app, exit_code);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int status = app.exit(e);
    return status == 0 ? volta::cli::kSuccess : volta::cli::kBadInput;
  } catch (const std::exception& e) {
    std::cerr << "volta-eg: internal error: " << e.what() << "\n";
    return volta::cli::kInternalError;
  }
  return exit_code;
}
