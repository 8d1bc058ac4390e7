// The igemm kernels each ISA file defines (igemm_config.cc lists the ones this build has).
#pragma once

#include "runtime/kernels/int8/igemm.h"

namespace npurt {

extern const IgemmKernel kIgemmScalar;
#if defined(__x86_64__)
extern const IgemmKernel kIgemmAvx2;
extern const IgemmKernel kIgemmAvxVnni;
extern const IgemmKernel kIgemmAvx512;
extern const IgemmKernel kIgemmAvx512Vnni;
extern const IgemmKernel kIgemmAvx512VnniPairs;
extern const IgemmKernel kIgemmAvxVnniEmulated;
extern const IgemmKernel kIgemmAvx512Emulated;
extern const IgemmKernel kIgemmAvx512VnniEmulated;
extern const IgemmKernel kIgemmNeonDotEmulated;
#endif
#if defined(__aarch64__)
extern const IgemmKernel kIgemmNeonDot;
extern const IgemmKernel kIgemmNeon;
#endif

}  // namespace npurt
