// The depthwise kernels each ISA file defines (dwconv_config.cc lists the ones this build has).
#pragma once

#include "runtime/kernels/int8/dwconv.h"

namespace npurt {

extern const DwconvKernel kDwconvScalar;
#if defined(__x86_64__)
extern const DwconvKernel kDwconvAvx2;
extern const DwconvKernel kDwconvAvxVnni;
extern const DwconvKernel kDwconvAvx512;
extern const DwconvKernel kDwconvAvx512Vnni;
extern const DwconvKernel kDwconvAvx512VnniPairs;
extern const DwconvKernel kDwconvAvxVnniEmulated;
extern const DwconvKernel kDwconvAvx512Emulated;
extern const DwconvKernel kDwconvAvx512VnniEmulated;
extern const DwconvKernel kDwconvNeonDotEmulated;
#endif
#if defined(__aarch64__)
extern const DwconvKernel kDwconvNeonDot;
extern const DwconvKernel kDwconvNeon;
#endif

}  // namespace npurt
