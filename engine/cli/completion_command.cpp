// volta-eg completion bash|zsh: prints a shell completion script, generated from the commands
// and flags registered on the CLI11 app, so it cannot fall out of step with them. Commands,
// subcommands and flags complete by name; a flag's value completes as a file name when it is a
// path, from its words when it has a fixed set (--color), and not at all otherwise.
//
//   source <(volta-eg completion bash)        # bash, or in ~/.bashrc
//   source <(volta-eg completion zsh)         # zsh (through bashcompinit)
#include <CLI/CLI.hpp>
#include <algorithm>
#include <fmt/format.h>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/cli/commands.hpp"
#include "engine/exit_status.hpp"

namespace volta::cli {

namespace {

// Flags whose values are a fixed set of words (the others take a file name or a number).
const std::map<std::string, std::string>& value_words() {
  static const std::map<std::string, std::string> words = {
      {"--color", "auto always never"},
      {"--side", "ref opt"},
  };
  return words;
}

// Flags that take text which is not a path (a regular expression, a launch shape, an element):
// no completion is better than file names. --ref-/--opt- variants are matched without the prefix.
bool text_not_a_path(std::string flag) {
  for (const char* side : {"--ref-", "--opt-"}) {
    if (flag.rfind(side, 0) == 0)
      flag = "--" + flag.substr(6);
  }
  static const std::set<std::string> flags = {
      "--filter", "--shard",  "--arch", "--kernel",  "--block", "--grid",        "--array",
      "--param",  "--global", "--ctas", "--element", "--type",  "--check-array", "--side"};
  return flags.count(flag) > 0;
}

// Commands whose positional argument is a word from a fixed set (the others take files).
const std::map<std::string, std::string>& positional_words() {
  static const std::map<std::string, std::string> words = {{"completion", "bash zsh"}};
  return words;
}

struct Command {
  std::string path;               // "prove", "rules check"; "" for the program itself
  std::vector<std::string> words; // its flags and subcommands (and fixed positional words)
  bool files = true;              // whether a word that is not a flag is a file name
};

struct Grammar {
  std::vector<Command> commands;
  std::vector<std::string> file_flags, free_text_flags; // values: file names / not completed
};

std::vector<const CLI::App*> visible_subcommands(const CLI::App& app) {
  // CLI11 hides a subcommand by giving it no group.
  return app.get_subcommands([](const CLI::App* sub) { return !sub->get_group().empty(); });
}

void collect(const CLI::App& app, const std::string& path, Grammar& g) {
  Command c{path, {}, !path.empty()};
  for (const CLI::App* sub : visible_subcommands(app)) {
    c.words.push_back(sub->get_name());
    c.files = false;
  }
  if (auto it = positional_words().find(path); it != positional_words().end()) {
    c.words.push_back(it->second);
    c.files = false;
  }
  for (const CLI::Option* o : app.get_options()) {
    std::vector<std::string> names;
    for (const auto& s : o->get_snames())
      names.push_back("-" + s);
    for (const auto& l : o->get_lnames())
      names.push_back("--" + l);
    for (const auto& n : names) {
      c.words.push_back(n);
      if (o->get_items_expected_max() == 0 || value_words().count(n)) // a flag, or own words
        continue;
      const bool path = o->get_type_name().rfind("TEXT", 0) == 0 && !text_not_a_path(n);
      auto& list = path ? g.file_flags : g.free_text_flags;
      if (std::find(list.begin(), list.end(), n) == list.end())
        list.push_back(n);
    }
  }
  g.commands.push_back(std::move(c));
  for (const CLI::App* sub : visible_subcommands(app))
    collect(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), g);
}

std::string joined(const std::vector<std::string>& words, const char* separator) {
  std::string out;
  for (const auto& w : words)
    out += (out.empty() ? "" : separator) + w;
  return out;
}

std::string bash_script(const CLI::App& app) {
  Grammar g;
  collect(app, "", g);
  std::string value_cases, command_cases, commands;
  for (const auto& [flag, words] : value_words())
    value_cases += fmt::format("    {}) COMPREPLY=($(compgen -W \"{}\" -- \"$cur\")); return ;;\n",
                               flag, words);
  // An empty alternative would not be a valid `case` pattern.
  const auto pattern = [](const std::vector<std::string>& flags) {
    return flags.empty() ? std::string("--no-such-flag") : joined(flags, "|");
  };
  value_cases += fmt::format("    {}) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n",
                             pattern(g.file_flags));
  value_cases += fmt::format("    {}) COMPREPLY=(); return ;;\n", pattern(g.free_text_flags));
  for (const auto& c : g.commands) {
    command_cases += fmt::format("    \"{}\") words=\"{}\" files={} ;;\n", c.path,
                                 joined(c.words, " "), c.files ? 1 : 0);
    if (!c.path.empty())
      commands += "|" + c.path + "|";
  }
  return fmt::format(R"(# bash completion for volta-eg, generated by `volta-eg completion bash`.
_volta_eg() {{
  local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}"
  local path="" next i words="" files=0
  # The command path: the words before the cursor that name commands ("rules check").
  for ((i = 1; i < COMP_CWORD; i++)); do
    next="${{path:+$path }}${{COMP_WORDS[i]}}"
    case "{}" in
      *"|$next|"*) path="$next" ;;
    esac
  done
  case "$prev" in
{}  esac
  case "$path" in
{}  esac
  if [[ "$cur" == -* || $files == 0 ]]; then
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}}
complete -o filenames -F _volta_eg volta-eg
)",
                     commands, value_cases, command_cases);
}

} // namespace

void register_completion_command(CLI::App& app, int& exit_code) {
  auto shell = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "completion",
      "print a completion script for bash or zsh: source <(volta-eg completion bash)");
  cmd->add_option("shell", *shell, "bash or zsh")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh"}));
  cmd->callback([shell, &app, &exit_code] {
    const std::string script = bash_script(app);
    if (*shell == "zsh")
      std::cout << "#compdef volta-eg\n# zsh completion for volta-eg, generated by `volta-eg "
                   "completion zsh` (the bash one, through bashcompinit).\nautoload -U +X "
                   "bashcompinit && bashcompinit\n";
    std::cout << script;
    exit_code = kSuccess;
  });
}

} // namespace volta::cli
