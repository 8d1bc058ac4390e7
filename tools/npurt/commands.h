// Subcommands of the `npurt` CLI; each file registers one on the CLI11 app.
#pragma once

#include <CLI/CLI.hpp>

namespace npurt {
namespace cli {

// Each Add*Command registers its subcommand; the callback sets `*exit_code`.
void AddConvertCommand(CLI::App& app, int* exit_code);
void AddRunCommand(CLI::App& app, int* exit_code);
void AddInfoCommand(CLI::App& app, int* exit_code);
void AddOpsCommand(CLI::App& app, int* exit_code);
void AddAccuracyCommand(CLI::App& app, int* exit_code);
void AddBenchCommand(CLI::App& app, int* exit_code);

}  // namespace cli
}  // namespace npurt
