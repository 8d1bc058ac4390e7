// `npurt ops`: the supported-operator table, generated from runtime/ops/ops.def.
#include <cstdio>

#include "runtime/ops/op.h"
#include "tools/npurt/commands.h"

namespace npurt {
namespace cli {

void AddOpsCommand(CLI::App& app, int* exit_code) {
  CLI::App* cmd = app.add_subcommand("ops", "List the operators npurt can run (ONNX names, input/output counts)");
  static bool markdown = false;
  cmd->add_flag("--markdown", markdown, "Print a Markdown table (as in docs/supported_ops.md)");
  cmd->callback([exit_code]() {
    if (markdown) {
      std::printf("| Operator | Inputs | Outputs |\n|---|---|---|\n");
    } else {
      std::printf("%-22s %-8s %s\n", "Operator", "Inputs", "Outputs");
    }
    for (const OpDef* op : AllOps()) {
      char ins[32], outs[32];
      std::snprintf(ins, sizeof(ins), op->min_inputs == op->max_inputs ? "%d" : "%d-%d", op->min_inputs, op->max_inputs);
      std::snprintf(outs, sizeof(outs), op->min_outputs == op->max_outputs ? "%d" : "%d-%d", op->min_outputs,
                    op->max_outputs);
      if (markdown) {
        std::printf("| %s | %s | %s |\n", op->name, ins, outs);
      } else {
        std::printf("%-22s %-8s %s\n", op->name, ins, outs);
      }
    }
    *exit_code = 0;
  });
}

}  // namespace cli
}  // namespace npurt
