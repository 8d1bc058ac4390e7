#!/usr/bin/env bash
# Regenerates docs/supported_ops.md from the op lists (runtime/ops/ops.def and the
# ONNX importer's converter table, compiler/onnx/converter_table.cc, via `npurt ops`).
set -euo pipefail
npurt_bin=${1:-build/tools/npurt/npurt}
cd "$(dirname "$0")/.."
{
  echo "<!-- Auto-generated, do not edit; generator: scripts/gen_supported_ops.sh -->"
  echo "# Supported operators"
  echo
  echo "ONNX operators the runtime executes (float32 reference kernels), from \`runtime/ops/ops.def\`."
  echo "*Quantized* says how \`npurt convert --quantize\` stores each: in int8 (int16 for the hybrid scheme's"
  echo "layers), or kept in float with its inputs dequantized and its outputs quantized at the boundary."
  echo "Inputs and outputs give the accepted counts (optional inputs included). \`npurt convert\` maps each"
  echo "of them one to one; the second table lists the ONNX operators it handles otherwise (from"
  echo "\`compiler/onnx/converter_table.cc\`). Any other operator fails the conversion with its op type,"
  echo "node name, opset and this list, except nodes of domains other than ONNX's own: those become *custom*"
  echo "operators that the application computes (\`rknn_custom_op.h\`, docs/c_api.md \"Custom operators\")."
  echo
  "$npurt_bin" ops --markdown
} > docs/supported_ops.md
