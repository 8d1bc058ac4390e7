// The portable depthwise kernel: the packed weights read back in channel order, sums in int32.
#include <cstring>

#include "runtime/kernels/int8/dwconv_kernels.h"
#include "runtime/kernels/int8/igemm_microkernel.h"

namespace npurt {
namespace {

void DwconvScalar(const DwconvArgs& a, WorkRange pixels) {
  const int64_t blocks = a.padded_channels / kDwconvChannelBlock;
  const int64_t pairs = (a.taps + 1) / 2;
  for (int64_t p = pixels.begin; p < pixels.end; ++p) {
    const int32_t* offsets = a.offsets + p * pairs * 2;
    float* out = a.out + (p - pixels.begin) * a.channels;
    for (int64_t b = 0; b < blocks; ++b) {
      int32_t acc[kDwconvChannelBlock];
      for (int lane = 0; lane < kDwconvChannelBlock; ++lane) acc[lane] = a.bias[b * kDwconvChannelBlock + kDwconvLaneChannel[lane]];
      for (int64_t pair = 0; pair < pairs; ++pair) {
        const int16_t* w = a.weights + (pair * blocks + b) * kDwconvChannelBlock * 2;
        for (int half = 0; half < 2; ++half) {
          const uint8_t* row = a.base + offsets[pair * 2 + half];
          for (int lane = 0; lane < kDwconvChannelBlock; ++lane) {
            int16_t d;
            std::memcpy(&d, row + (b * kDwconvChannelBlock + kDwconvLaneChannel[lane]) * 2, 2);
            // Wrapping int32 addition, as vpaddd (the bias holds the zero point's compensation).
            acc[lane] = static_cast<int32_t>(static_cast<uint32_t>(acc[lane]) + static_cast<uint32_t>(d * w[lane * 2 + half]));
          }
        }
      }
      for (int lane = 0; lane < kDwconvChannelBlock; ++lane) {
        const int64_t c = b * kDwconvChannelBlock + kDwconvLaneChannel[lane];
        if (c >= a.channels) continue;
        if (a.out_int32 != nullptr) {
          a.out_int32[(p - pixels.begin) * a.channels + c] = acc[lane];
        } else {
          out[c] = static_cast<float>(acc[lane]);
        }
      }
    }
  }
}

}  // namespace

const DwconvKernel kDwconvScalar = {"s8_dwconv_16c__scalar", CpuTarget::kPortable, DwconvScalar, IgemmStage<IgemmFormat::kPairsS16>,
                                 IgemmStagePadding<IgemmFormat::kPairsS16>};

}  // namespace npurt
