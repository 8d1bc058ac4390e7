// Multiply-accumulates of one operator, from its shapes: what `npurt info`
// reports per precision and what the quantizer counts when it reports how
// much of a model runs in int8. Only Conv, ConvTranspose, Gemm and MatMul
// count; every other op is 0.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/attributes.h"
#include "runtime/core/types.h"

namespace npurt {

// `inputs` holds the shapes of the op's inputs in order (nullptr for an
// omitted one); `output` is the shape of its first output.
int64_t OpMacs(const std::string& op_type, const Attributes& attrs, const std::vector<const Shape*>& inputs,
               const Shape& output);

}  // namespace npurt
