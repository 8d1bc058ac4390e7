// `npurt ops`: the supported-operator tables, generated from the single op
// lists: the runtime ops (runtime/ops/ops.def) and the ONNX importer's
// converter table (compiler/onnx/converter_table.cc), which adds the ONNX ops
// that are lowered onto runtime ops or evaluated during conversion.
#include <cstdio>

#include "compiler/onnx/onnx_importer.h"
#include "compiler/quant/quantize_graph.h"
#include "runtime/ops/op.h"
#include "tools/npurt/commands.h"

namespace npurt {
namespace cli {

void AddOpsCommand(CLI::App& app, int* exit_code) {
  CLI::App* cmd = app.add_subcommand("ops", "List the operators npurt can run and the ONNX operators it converts");
  static bool markdown = false;
  cmd->add_flag("--markdown", markdown, "Print Markdown tables (as in docs/supported_ops.md)");
  cmd->callback([exit_code]() {
    // Every runtime op computes in float32; "Quantized" says how `npurt convert --quantize` stores it.
    if (markdown) {
      std::printf("| Operator | Inputs | Outputs | Float | Quantized (--quantize) |\n|---|---|---|---|---|\n");
    } else {
      std::printf("Runtime operators (ONNX names):\n");
      std::printf("%-26s %-8s %-8s %-6s %s\n", "Operator", "Inputs", "Outputs", "Float", "Quantized (--quantize)");
    }
    for (const OpDef* op : AllOps()) {
      char ins[32], outs[32];
      std::snprintf(ins, sizeof(ins), op->min_inputs == op->max_inputs ? "%d" : "%d-%d", op->min_inputs, op->max_inputs);
      std::snprintf(outs, sizeof(outs), op->min_outputs == op->max_outputs ? "%d" : "%d-%d", op->min_outputs,
                    op->max_outputs);
      const char* quantized = compiler::QuantizedStorage(op->name);
      // Custom: the application's callbacks compute it (nodes of non-ONNX domains, rknn_custom_op.h).
      const char* name = op->custom ? "Custom (any non-ONNX domain)" : op->name;
      if (markdown) {
        std::printf("| %s | %s | %s | %s | %s |\n", name, ins, outs, op->custom ? "float32 (callbacks)" : "float32",
                    quantized);
      } else {
        std::printf("%-26s %-8s %-8s %-6s %s\n", name, ins, outs, op->custom ? "app" : "fp32", quantized);
      }
    }
    // The ONNX ops `npurt convert` accepts beyond the runtime ops: lowered onto
    // runtime ops, or import-only (evaluated during conversion, so their inputs
    // must be constants once the input shapes are fixed).
    if (markdown) {
      std::printf("\n## ONNX operators handled by the converter\n\n");
      std::printf("ONNX opsets %d to %d, default domain. Runtime operators above convert one to one; these are\n"
                  "rewritten into runtime operators (*lowered*) or evaluated during conversion (*import-only*:\n"
                  "their inputs must be constants once the input shapes are fixed, and they leave no operator\n"
                  "in the model).\n\n",
                  compiler::kMinOnnxOpset, compiler::kMaxOnnxOpset);
      std::printf("| ONNX operator | Handling | Notes |\n|---|---|---|\n");
    } else {
      std::printf("\nONNX operators handled by `npurt convert` (opsets %d-%d) besides the runtime operators:\n",
                  compiler::kMinOnnxOpset, compiler::kMaxOnnxOpset);
      std::printf("%-22s %-12s %s\n", "Operator", "Handling", "Notes");
    }
    for (const compiler::OnnxOpSupport& op : compiler::SupportedOnnxOps()) {
      if (op.kind == "runtime") continue;
      if (markdown) {
        std::printf("| %s | %s | %s |\n", op.op_type.c_str(), op.kind.c_str(), op.note.c_str());
      } else {
        std::printf("%-22s %-12s %s\n", op.op_type.c_str(), op.kind.c_str(), op.note.c_str());
      }
    }
    *exit_code = 0;
  });
}

}  // namespace cli
}  // namespace npurt
