// Each volta-eg subcommand lives in its own file and registers itself on the CLI11 app.
// A command stores its exit status in `exit_code` when its callback runs.
#pragma once

namespace CLI {
class App;
}

namespace volta::cli {

void register_parse_command(CLI::App& app, int& exit_code);
void register_check_command(CLI::App& app, int& exit_code);
void register_prove_command(CLI::App& app, int& exit_code);
void register_merge_command(CLI::App& app, int& exit_code);
void register_rules_command(CLI::App& app, int& exit_code);
void register_explain_command(CLI::App& app, int& exit_code);
void register_run_command(CLI::App& app, int& exit_code);
// Last: it describes the commands registered before it.
void register_completion_command(CLI::App& app, int& exit_code);

} // namespace volta::cli
