// Concatenation along one axis as byte copies, so it serves every element type.
// The tensors are viewed as [outer, chunk]: each input contributes one chunk of
// (axis dim * inner dims * element size) bytes per outer index.
#pragma once

#include <cstddef>
#include <cstdint>

namespace npurt {

struct ConcatParams {
  size_t outer;  // product of the dims before the axis
  size_t num_inputs;
  const size_t* chunk_bytes;  // per input: bytes copied per outer index (may be 0)
};

void concat__ref(const ConcatParams& params, const void* const* inputs, void* output);

// int8 inputs with their own quantization: each is requantized to the
// output's parameters (QuantizeValue(DequantizeValue(q)), runtime/kernels/ref/quantize.h),
// or copied when its parameters equal the output's. (When all of them do, the
// op uses concat__ref.)
struct S8ConcatInput {
  size_t chunk = 0;  // elements per outer index (may be 0)
  float scale = 1.0f;
  int32_t zero_point = 0;
  bool copy = true;  // parameters equal the output's
};

struct S8ConcatParams {
  size_t outer = 1;
  size_t num_inputs = 0;
  const S8ConcatInput* inputs = nullptr;
  float out_scale = 1.0f;
  int32_t out_zero_point = 0;
};

void s8_concat__ref(const S8ConcatParams& params, const int8_t* const* inputs, int8_t* output);
// The same for int16 tensors (the hybrid scheme); all inputs and the output int16.
void s16_concat__ref(const S8ConcatParams& params, const int16_t* const* inputs, int16_t* output);

}  // namespace npurt
