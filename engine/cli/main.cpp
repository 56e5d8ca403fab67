// volta-eg: equivalence and safety checker for GPU kernels given as PTX.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <exception>
#include <fmt/format.h>
#include <iostream>
#include <string_view>
#include <vector>

#include "engine/cli/commands.hpp"
#include "engine/diagnostic_reporter.hpp"
#include "engine/exit_status.hpp"
#include "engine/launch/manifest.hpp"
#include "engine/report/tool_version.hpp"

namespace {

constexpr const char* kFooter = R"(Exit status (every command; docs/cli.md):
  0    every verdict is the expected one (or EQUIVALENT / RACE_FREE without an expectation)
  1    some verdict differs from the expected one (UNKNOWN and UNSUPPORTED included)
  2    bad input: manifest, PTX, flags, a file that cannot be read or written
  3    internal error (a bug in volta-eg), an INCONSISTENT verdict among them
  130  interrupted by SIGINT (Ctrl-C), 143 by SIGTERM: reports hold the finished entries

Verdicts: EQUIVALENT, NOT_EQUIVALENT, DATA_RACE, RACE_FREE, OUT_OF_BOUNDS, DEADLOCK,
BARRIER_DIVERGENCE, UNINITIALIZED, UNSUPPORTED, UNKNOWN, ERROR, INCONSISTENT (the emulator
contradicts an EQUIVALENT: a bug in volta-eg).

Run `volta-eg COMMAND --help` for the flags of a command.)";

// CLI11 answers an unknown command with "A subcommand is required" or with an argument it did
// not expect; say what was wrong, and what was probably meant.
bool refuse_unknown_command(const CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-' || argv[1][0] == '\0')
    return false;
  const std::string_view word = argv[1];
  std::vector<std::string_view> names;
  for (const CLI::App* sub : app.get_subcommands({}))
    names.push_back(sub->get_name());
  for (auto name : names) {
    if (name == word)
      return false;
  }
  std::string message = volta::launch::unknown_key_message(word, names);
  // "unknown key" is the manifest's word; here it is a command.
  message.replace(0, std::string_view("unknown key").size(), "unknown command");
  volta::DiagnosticReporter::standard().error(message);
  return true;
}

// CLI11 answers a misspelled flag with "The following arguments were not expected"; name the
// flag and the closest one the command has ("--timout": did you mean "--timeout"?).
bool refuse_unknown_flag(const CLI::App& app, int argc, char** argv) {
  const CLI::App* command = nullptr;
  for (const CLI::App* sub : app.get_subcommands())
    command = sub;
  if (command == nullptr)
    return false;
  std::vector<std::string> flags;
  for (const CLI::Option* option : command->get_options()) {
    for (const std::string& name : option->get_lnames())
      flags.push_back("--" + name);
  }
  std::vector<std::string_view> known(flags.begin(), flags.end());
  bool refused = false;
  for (int i = 2; i < argc; ++i) {
    std::string_view word = argv[i];
    if (word == "--")
      break;
    if (!word.starts_with("--"))
      continue;
    word = word.substr(0, word.find('='));
    if (std::find(known.begin(), known.end(), word) != known.end())
      continue;
    std::string message = volta::launch::unknown_key_message(word, known);
    message.replace(0, std::string_view("unknown key").size(), "unknown flag");
    // Without a close match, point at the help rather than list every flag.
    if (const size_t list = message.find(" (known: "); list != std::string::npos)
      message = fmt::format("{} (`volta-eg {} --help` lists the flags)", message.substr(0, list),
                            command->get_name());
    volta::DiagnosticReporter::standard().set_command(command->get_name());
    volta::DiagnosticReporter::standard().error(message);
    volta::DiagnosticReporter::standard().set_command({});
    refused = true;
  }
  return refused;
}

} // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "volta-eg: prove that two GPU kernels (PTX) compute the same outputs over the reals, "
      "or show why not"};
  app.require_subcommand(1);
  app.set_version_flag("-V,--version", std::string("volta-eg ") + volta::report::kToolVersion);
  app.footer(kFooter);

  int exit_code = volta::kSuccess;
  volta::cli::register_parse_command(app, exit_code);
  volta::cli::register_check_command(app, exit_code);
  volta::cli::register_prove_command(app, exit_code);
  volta::cli::register_merge_command(app, exit_code);
  volta::cli::register_rules_command(app, exit_code);
  volta::cli::register_explain_command(app, exit_code);
  volta::cli::register_run_command(app, exit_code);
  volta::cli::register_completion_command(app, exit_code);

  if (refuse_unknown_command(app, argc, argv))
    return volta::kBadInput;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ExtrasError& e) {
    if (!refuse_unknown_flag(app, argc, argv))
      app.exit(e);
    return volta::kBadInput;
  } catch (const CLI::ParseError& e) {
    int status = app.exit(e);
    return status == 0 ? volta::kSuccess : volta::kBadInput;
  } catch (const std::exception& e) {
    volta::DiagnosticReporter::standard().internal_error(e.what());
    return volta::kInternalError;
  }
  return exit_code;
}
