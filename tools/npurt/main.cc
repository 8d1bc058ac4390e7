// npurt: one CLI for the toolkit. `npurt --help` lists the subcommands.
#include <cstdio>

#include "tools/npurt/commands.h"

int main(int argc, char** argv) {
  CLI::App app{"npurt: RKNN-compatible NPU runtime and model toolkit for CPUs"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "npurt 0.1.0 (RKNN API 2.3.2)");
  int exit_code = 0;
  npurt::cli::AddConvertCommand(app, &exit_code);
  npurt::cli::AddRunCommand(app, &exit_code);
  npurt::cli::AddInfoCommand(app, &exit_code);
  npurt::cli::AddOpsCommand(app, &exit_code);
  npurt::cli::AddAccuracyCommand(app, &exit_code);
  npurt::cli::AddBenchCommand(app, &exit_code);
  CLI11_PARSE(app, argc, argv);
  return exit_code;
}
