// The individual graph passes (one per .cc file in this directory). Each
// rewrites the graph in place and returns how many rewrites it made. All of
// them keep the graph's inputs and outputs (tensor indices and names), keep the
// nodes in a valid execution order, leave every tensor a node reads with a
// shape, and change results by float rounding at most. RunPasses
// (pass_pipeline.h) runs them in order.
#pragma once

#include "compiler/ir/graph.h"

namespace npurt {
namespace compiler {

// Removes nodes none of whose outputs reach a graph output.
int EliminateDeadNodes(Graph* graph);

// Removes Identity nodes (and inference-mode Dropout, should one be present) by
// making their readers read the input. When the Identity's output is a graph
// output, its producer writes that tensor directly instead; an Identity between
// a graph input or a constant and a graph output stays.
int EliminateIdentities(Graph* graph);

// fp16 models: every float constant an op reads as data becomes its nearest float16 value (+-inf beyond
// 65504), as the NPU's weights are stored; a Resize's roi and scales, which fix shapes, stay exact.
// Returns the constants rounded; `overflowed` (may be nullptr) gets "name (N values)" for each constant
// with values beyond fp16's range, which are now +-inf.
int RoundFloatConstantsToHalf(Graph* graph, std::vector<std::string>* overflowed = nullptr);

// QuantizeLinear -> DequantizeLinear pairs on computed float tensors (QDQ models) become the tensors'
// IrTensor::model_quant; their readers read the tensor. Changes results by the pairs' rounding, which
// the quantizer restores (Build quantizes every graph that has such parameters). Fails only when the
// graph's shapes do not infer after DequantizeLinear moved up past data-movement ops.
Status ExtractQdqParams(Graph* graph, int* pairs = nullptr);
// Whether a node of `graph` reads or writes a computed tensor with model_quant (a QDQ model).
bool HasModelActivationParams(const Graph& graph);

// Conv -> BatchNormalization with constant Conv weights/bias and BN parameters,
// the Conv output read only by the BN: scales the weights and bias per output
// channel and drops the BN. Other BNs stay.
int FoldBatchNorm(Graph* graph);

// Conv followed by Mul/Div/Add/Sub with a constant that is one value or one
// per output channel (the Conv output being the first operand of Sub/Div):
// scales the weights and bias or shifts the bias. Same read-once conditions.
int FoldConvAffine(Graph* graph);

// ReduceMean -> Sub -> Pow(2) (or Mul(d, d)) -> ReduceMean -> Add(eps) -> Sqrt ->
// Div [-> Mul(gamma)] [-> Add(beta)] over trailing axes -> LayerNormalization.
int RecognizeLayerNorm(Graph* graph);

// x * Clip(x + 3, 0, 6) / 6 (any association, /6 or *1/6) and
// x * HardSigmoid(x, alpha=1/6, beta=0.5) -> HardSwish(x).
int RecognizeHardSwish(Graph* graph);

// Relu, Clip (constant bounds), LeakyRelu, HardSigmoid, HardSwish following a
// Conv, ConvTranspose or Gemm, and Relu following an Add, become the producer's `activation`
// attribute, when the producer's output is read only by the activation and is
// not a graph output.
int FuseActivations(Graph* graph);

// x + x * g -> x * (g + 1) when g broadcasts onto x and x * g is read by the
// Add alone (PP-OCRv4 det's residual squeeze-and-excite blocks): one
// full-size elementwise op instead of two.
int FactorGatedAdds(Graph* graph);

// Mul by and / or Add of a float constant (one value or one per output channel)
// after a Conv with a fused activation become its `activation_scale` /
// `activation_shift`, under the same read-once conditions; float or quantized
// graphs. Not part of RunPasses: Build (compiler/compile.h) runs it last, after
// quantization, so that calibration, smoothing and bias correction see the
// separate ops (measured on PP-OCRv4 det: fusing first moves the outputs' int8
// rounding and the bias correction with it, and loses accuracy).
int FuseOutputAffines(Graph* graph);

// Add(Conv output, r) [with the Add's Relu] -> one Conv reading r as its
// `residual` input (y = act(conv + bias + r)), when the Conv has no activation,
// r has the output's shape and the tensors are all float or all quantized.
// Not part of RunPasses, for the same reason: Build runs it after quantization,
// before FuseOutputAffines (compile.cc: FuseConvolutionEpilogues).
int FuseResidualAdds(Graph* graph);

}  // namespace compiler
}  // namespace npurt
