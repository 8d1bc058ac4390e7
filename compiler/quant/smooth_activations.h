// Activation smoothing (SmoothQuant, Xiao et al. 2022, applied to convolutions;
// the per-channel rescaling of Nagel et al.'s cross-layer equalization): an
// int8 tensor read by convolutions is divided per channel by s_k, and every
// reading convolution's weights of input channel k are multiplied by s_k --
// the same function, but channels with a large range give some of it to the
// weights, so the per-tensor int8 grid resolves the quiet channels better.
//
//   s_k = sqrt(max|X_k| / max|W_k|)   (SmoothQuant's alpha = 0.5)
//
// with max|X_k| from calibration (TensorStats::channel_absmax) and max|W_k|
// over every reading convolution's weights of input channel k; s_k = 1 when
// either is 0, and s_k is clamped to [1/64, 64].
//
// Exact rewrites only. Tensor X (rank 4, not a graph input or output) must be
// read only as input 0 of ungrouped Conv nodes (zero padding stays zero under
// scaling), and written by one of
//   - Add(x, b) with a constant b, x written by Mul(y, a) with a constant a and
//     read by that Add alone:  a_k / s_k and b_k / s_k (the LCNet "learnable
//     affine" after an activation);
//   - Mul(y, a) with a constant a: a_k / s_k;
//   - Conv (any group) without activation or with Relu (positively homogeneous): its
//     weights and bias of output channel k divided by s_k.
// Constants become per-channel [1, C, 1, 1] tensors (fresh names; the old ones
// stay for other readers). The caller recalibrates afterwards: the ranges of
// the rewritten tensors changed.
#pragma once

#include <map>
#include <string>

#include "compiler/ir/graph.h"
#include "compiler/quant/calibrator.h"
#include "runtime/core/status.h"

namespace npurt {
namespace compiler {

// Sets *smoothed to how many tensors were smoothed. `graph` must have shapes;
// an error only if shape inference fails afterwards (a bug: shapes do not change).
Status SmoothActivations(const std::map<std::string, TensorStats>& stats, Graph* graph, int* smoothed);

}  // namespace compiler
}  // namespace npurt
