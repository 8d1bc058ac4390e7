// The quantization parameters of an ONNX QuantizeLinear / DequantizeLinear (or QLinear* operand) whose
// scale and zero point are constants, in npurt's int8 form: uint8 codes become int8 (zero point - 128),
// as the runtime stores them.
#pragma once

#include "compiler/ir/graph.h"
#include "runtime/core/types.h"

namespace npurt {
namespace compiler {

// `scale`: a float32 constant (one value, or one per element of `axis`); `zero_point` (negative: absent,
// ONNX's 0): a constant of `codes` (int8 or uint8) with as many values. One value whose tensor has at most
// one dim is per tensor (axis -1); otherwise per `axis`. False when any of it does not hold.
bool ReadQuantParams(const Graph& graph, int scale, int zero_point, DataType codes, int axis, QuantInfo* q);

}  // namespace compiler
}  // namespace npurt
