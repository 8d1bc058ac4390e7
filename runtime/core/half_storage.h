// fp16 storage of a float model's values, as the NPU keeps them (Model::float_dtype == kFloat16): every
// float op's output, float model input and float constant is a float16 value held in float32, each op
// computing in float32 inside. The rounding kernel for this CPU: F16C on x86-64, NEON on AArch64, else the
// reference (runtime/kernels/ref/half_round.h), whose bits each gives.
#pragma once

#include <cstdint>

namespace npurt {

using RoundToHalfFn = int64_t (*)(float* x, int64_t n);

// Chosen under ActiveCpuTarget(): NPURT_CPU_TARGET=ref and portable take the reference.
RoundToHalfFn ChooseRoundToHalf();

}  // namespace npurt
