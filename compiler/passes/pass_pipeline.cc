#include "compiler/passes/pass_pipeline.h"

#include "compiler/passes/passes.h"

namespace npurt {
namespace compiler {

// Order matters:
//  - shapes first: the pattern matchers rely on them, and every tensor, even
//    one only a dead node writes, keeps one (the emitter wants them all);
//  - dead nodes, so that no pass is blocked by readers in unreachable nodes;
//  - Identity removal before everything that follows producer/consumer chains;
//  - QDQ pairs out next: they sit between every op and the next, and the folds and fusions look for
//    direct producer -> consumer links;
//  - BN and per-channel affine folding before activation fusion (Conv -> BN ->
//    Relu needs the BN gone for the Relu to meet its Conv); the two alternate
//    until neither finds more (Conv -> Add(bias) -> BN, Conv -> BN -> Mul);
//  - hard-swish recognition before activation fusion, so the recognized
//    HardSwish can then fuse into its Conv;
//  - gated-add factoring last: its g + 1 must not sit between a gate's Conv
//    and its activation (Build folds it into the Conv's output shift);
//  - a final dead-node sweep and shape inference validate the result.
Status RunPasses(const PassOptions& options, Graph* graph) {
  NPURT_RETURN_IF_ERROR(graph->InferShapes());
  EliminateDeadNodes(graph);
  EliminateIdentities(graph);
  NPURT_RETURN_IF_ERROR(ExtractQdqParams(graph));
  for (bool folded = true; folded;) {
    folded = false;
    if (options.fold_batchnorm) folded |= FoldBatchNorm(graph) > 0;
    if (options.fold_conv_affine) folded |= FoldConvAffine(graph) > 0;
  }
  if (options.recognize_patterns) {
    RecognizeLayerNorm(graph);
    RecognizeHardSwish(graph);
  }
  if (options.fuse_activations) FuseActivations(graph);
  if (options.recognize_patterns) FactorGatedAdds(graph);
  EliminateDeadNodes(graph);
  return graph->InferShapes();
}

}  // namespace compiler
}  // namespace npurt
