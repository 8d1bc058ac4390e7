// Comparisons, boolean logic and selection with numpy broadcasting (ONNX Equal,
// Greater, GreaterOrEqual, Less, LessOrEqual, And, Or, Xor, Not, Where). Bool
// tensors hold one byte per element, 0 or 1; a nonzero input byte reads as true.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/types.h"
#include "runtime/kernels/ref/broadcast.h"

namespace npurt {

enum class LogicOp { kEqual, kGreater, kGreaterOrEqual, kLess, kLessOrEqual, kAnd, kOr, kXor };

struct LogicParams {
  LogicOp op = LogicOp::kEqual;
  BroadcastPlan plan;                   // operand 0 = a, operand 1 = b
  DataType type = DataType::kFloat32;  // of a and b: float32, int32, int64 or bool (And, Or, Xor: bool)
};

// out[i] = a[.] op b[.], as bool. Float comparisons follow IEEE: NaN compares unequal and unordered.
void logic__ref(const LogicParams& params, const void* a, const void* b, uint8_t* out);

// out[i] = !x[i] over `count` bools.
void not__ref(int64_t count, const uint8_t* x, uint8_t* out);

struct WhereParams {
  BroadcastPlan plan;  // operand 0 = condition, 1 = x, 2 = y
  size_t element_size = 4;
};

// out[i] = condition[.] ? x[.] : y[.], copies of element_size bytes (any type).
void where__ref(const WhereParams& params, const uint8_t* condition, const void* x, const void* y, void* out);

}  // namespace npurt
