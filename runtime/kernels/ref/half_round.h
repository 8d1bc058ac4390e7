// fp16 storage of float32 values, as an NPU that computes float models in fp16 stores every op's output:
// each value becomes the nearest float16 (round to nearest, ties to even; beyond 65504 to +-inf, as fp16
// overflows), kept in a float32 container. runtime/core/types.cc's FloatToHalf / HalfToFloat define it;
// optimized kernels (F16C, AVX-512, NEON fp16) give the same bits.
#pragma once

#include <cstdint>

namespace npurt {

// Rounds x[0..n) in place; returns how many finite values became +-inf (fp16 overflow).
int64_t round_to_half__ref(float* x, int64_t n);

}  // namespace npurt
