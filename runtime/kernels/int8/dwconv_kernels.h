#pragma once

#include "runtime/kernels/int8/dwconv.h"

namespace npurt {

extern const DwconvKernel kDwconvScalar;
#if defined(__x86_64__)
extern const DwconvKernel kDwconvAvx2;
#endif

// Within a block of 16 channels, packed lane j holds channel kDwconvLaneChannel[j]: the order vpunpcklwd /
// vpunpckhwd of two ymm rows produce (lanes 0-3 and 8-11 of each 128-bit half first).
constexpr int kDwconvLaneChannel[16] = {0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15};

}  // namespace npurt
