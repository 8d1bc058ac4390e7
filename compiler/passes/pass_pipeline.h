// The graph passes run after import, in order: shape inference, dead-node
// removal, identity removal, BatchNormalization and per-channel Mul/Add
// folding into Conv, pattern recognition (decomposed LayerNorm, hard-swish),
// activation fusion into the producing Conv/Gemm/Add, dead-node removal again,
// shape inference. Each pass keeps the graph valid (topologically ordered,
// shapes known) and its inputs and outputs (tensor indices and names) as they
// are. The individual passes are declared in passes.h.
#pragma once

#include "compiler/ir/graph.h"
#include "runtime/core/status.h"

namespace npurt {
namespace compiler {

struct PassOptions {
  bool fuse_activations = true;
  bool fold_batchnorm = true;    // BatchNormalization after Conv
  bool fold_conv_affine = true;  // constant per-channel Mul/Div/Add/Sub after Conv
  bool recognize_patterns = true;  // decomposed LayerNorm and hard-swish
};

Status RunPasses(const PassOptions& options, Graph* graph);

}  // namespace compiler
}  // namespace npurt
