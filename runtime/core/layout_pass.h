// The layout pass: which activations stay channels-last (NHWC) between the
// kernels that work in NHWC (oneDNN's convolutions), so that a chain of them,
// with elementwise ops (residual Add, activations) between, runs without a
// relayout per op. Runs once per bound graph, after prepare (which declared
// what each node handles: OpNode::channels_last_io, OpNode::layout_agnostic).
//
// A tensor becomes channels-last only when it has rank 4, is movable (arena
// activations and graph inputs, which the I/O conversion writes in either layout;
// outputs and constants stay NCHW: the API and the weights see the ONNX
// layout), its producer (if any) writes it either way and every consumer reads
// it either way. Elementwise ops tie their operands together: all channels-last
// or none. A tensor with one channel or one pixel has the same bytes in both
// layouts: it is channels-last whenever an NHWC-capable node touches it, so that
// node skips its relayout, and every other reader still reads it right.
#pragma once

#include <string>
#include <vector>

#include "runtime/ops/op.h"

namespace npurt {

// Sets Tensor::channels_last on the tensors of `nodes`; `movable[t]` says whether
// tensor t (pointer into `tensors`) may change layout at all (arena activations).
// Returns how many tensors became channels-last.
int AssignChannelsLast(std::vector<OpNode>* nodes, std::vector<Tensor>* tensors, const std::vector<bool>& movable);

// The NHWC kernels that still relayout a rank-4 input or output (a neighbour that needs NCHW), by name;
// what RKNN_LOG_LEVEL=3 prints after the pass, to find the op that breaks a channels-last chain.
std::vector<std::string> NodesThatRelayout(const std::vector<OpNode>& nodes);

}  // namespace npurt
