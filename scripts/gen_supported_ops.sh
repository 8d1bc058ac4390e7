#!/usr/bin/env bash
# Regenerates docs/supported_ops.md from the op list (runtime/ops/ops.def via `npurt ops`).
set -euo pipefail
npurt_bin=${1:-build/tools/npurt/npurt}
cd "$(dirname "$0")/.."
{
  echo "<!-- Auto-generated, do not edit; generator: scripts/gen_supported_ops.sh -->"
  echo "# Supported operators"
  echo
  echo "ONNX operators the runtime executes (float32 reference kernels), from \`runtime/ops/ops.def\`."
  echo "Inputs and outputs give the accepted counts (optional inputs included)."
  echo
  "$npurt_bin" ops --markdown
} > docs/supported_ops.md
