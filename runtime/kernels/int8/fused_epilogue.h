// The fused requantization of a block of sums (R rows of NV vectors), shared by the igemm's tiles and the
// depthwise bands: each vector of sums, bias in, to codes through the policy's requantization
// (P::Requant, P::StoreRequantized: the requantization rows' float operations in their order). Included
// by the microkernel headers; internal linkage, as they.
#pragma once

#include <cstdint>

namespace npurt {
namespace {

// Row i of the block at out + i * stride elements (its residual's too); rows past `rows` and columns past
// `cols` not stored. kResidual: 0 none, 1 int8, 2 int16 codes.
template <class P, int R, int NV, int kResidual, bool kOut16>
inline void StoreRequantizedBlock(const typename P::Requant& c, const typename P::Vec (&acc)[R][NV], int rows,
                                  int cols, const float* acc_scale, const uint8_t* residual, uint8_t* out,
                                  int64_t stride) {
  constexpr int kLanes = P::kLanes;
  constexpr int64_t kOutBytes = kOut16 ? 2 : 1, kResidualBytes = kResidual == 2 ? 2 : 1;
  // The columns' scales once for the block's rows (loaded ahead of the stores, which could alias them; a
  // vector past the columns reads none: none of its lanes is stored).
  typename P::Scale scale[NV];
#pragma GCC unroll 4
  for (int j = 0; j < NV; ++j) {
    const int lanes = cols - j * kLanes;
    scale[j] = P::LoadScale(lanes > 0 ? acc_scale + j * kLanes : acc_scale, lanes <= 0 ? 0 : lanes < kLanes ? lanes : kLanes);
  }
  if (rows == R && cols == NV * kLanes) {  // a whole block: every lane stored, no masks or tests
#pragma GCC unroll 16
    for (int i = 0; i < R; ++i) {
#pragma GCC unroll 4
      for (int j = 0; j < NV; ++j) {
        const int64_t at = i * stride + j * kLanes;
        P::template StoreRequantized<kResidual, kOut16>(c, acc[i][j], scale[j],
                                                        kResidual != 0 ? residual + at * kResidualBytes : nullptr,
                                                        out + at * kOutBytes, kLanes);
      }
    }
    return;
  }
#pragma GCC unroll 16
  for (int i = 0; i < R; ++i) {
#pragma GCC unroll 4
    for (int j = 0; j < NV; ++j) {
      // No early exit: the loops unroll whole, each copy indexing the sums by constants (in registers).
      const int lanes = cols - j * kLanes;
      if (i < rows && lanes > 0) {
        const int64_t at = i * stride + j * kLanes;
        P::template StoreRequantized<kResidual, kOut16>(c, acc[i][j], scale[j],
                                                        kResidual != 0 ? residual + at * kResidualBytes : nullptr,
                                                        out + at * kOutBytes, lanes < kLanes ? lanes : kLanes);
      }
    }
  }
}

}  // namespace
}  // namespace npurt
