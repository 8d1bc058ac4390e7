// Integer Gemm and batched MatMul (contracts in gemm.h and quantize.h):
// accumulation of zero-point-corrected products, then Requantize. Rows of B
// are added to a block of up to kBlock accumulators on the stack (the kernels
// allocate nothing), or, for a transposed B, each output is a dot product over
// contiguous K. Templated on the storage types of A, B and Y (int8 or int16)
// and on the accumulator: int32 when every operand is int8, else int64.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "runtime/kernels/ref/gemm.h"
#include "runtime/kernels/ref/quantize.h"

namespace npurt {
namespace {

constexpr int64_t kBlock = 256;  // output columns per accumulator block

template <typename TA, typename TY, typename Acc>
void QuantizedGemm(const GemmParams& p, const GemmQuantParams& q, const TA* a, const int8_t* b, const int32_t* bias,
                   TY* y, WorkRange range) {
  // A(i, kk) = a[i * a_row + kk * a_col].
  const int64_t a_row = p.trans_a ? 1 : p.k, a_col = p.trans_a ? p.m : 1;
  const int32_t zp = q.a_zero_point, zp_b = q.b_zero_point;
  Acc acc[kBlock];
  for (int64_t i = range.Begin(p.m); i < range.End(p.m); ++i) {
    const TA* a_i = a + i * a_row;
    for (int64_t j0 = 0; j0 < p.n; j0 += kBlock) {
      const int64_t count = std::min(kBlock, p.n - j0);
      for (int64_t j = 0; j < count; ++j) acc[j] = bias != nullptr ? bias[j0 + j] : 0;
      if (p.trans_b) {
        // B(kk, j) = b[j * K + kk]: rows of B' are contiguous in K.
        for (int64_t j = 0; j < count; ++j) {
          const int8_t* b_j = b + (j0 + j) * p.k;
          Acc sum = 0;
          for (int64_t kk = 0; kk < p.k; ++kk) {
            sum += (static_cast<Acc>(a_i[kk * a_col]) - zp) * (static_cast<Acc>(b_j[kk]) - zp_b);
          }
          acc[j] += sum;
        }
      } else {
        // B(kk, j) = b[kk * N + j]: add row kk of B times A(i, kk).
        for (int64_t kk = 0; kk < p.k; ++kk) {
          const Acc av = static_cast<Acc>(a_i[kk * a_col]) - zp;
          const int8_t* b_row = b + kk * p.n + j0;
          for (int64_t j = 0; j < count; ++j) acc[j] += av * (static_cast<Acc>(b_row[j]) - zp_b);
        }
      }
      TY* y_row = y + i * p.n + j0;
      for (int64_t j = 0; j < count; ++j) {
        y_row[j] = static_cast<TY>(Requantize(acc[j], q.acc_scale[static_cast<size_t>(j0 + j)], p.activation,
                                             q.output_scale, q.output_zero_point, q.output_min, q.output_max));
      }
    }
  }
}

template <typename TA, typename TB, typename TY, typename Acc>
void QuantizedMatMul(const MatMulParams& p, const MatMulQuantParams& q, const TA* a, const TB* b, TY* y,
                     WorkRange range) {
  const FusedActivationParams no_activation;
  Acc acc[kBlock];
  const int64_t rows = static_cast<int64_t>(p.a_offsets.size()) * p.m;
  for (int64_t r = range.Begin(rows); r < range.End(rows); ++r) {
    const size_t batch = static_cast<size_t>(r / p.m);
    const int64_t i = r % p.m;
    const TA* am = a + p.a_offsets[batch];
    const TB* bm = b + p.b_offsets[batch];
    for (int64_t j0 = 0; j0 < p.n; j0 += kBlock) {
      const int64_t count = std::min(kBlock, p.n - j0);
      std::fill(acc, acc + count, Acc{0});
      for (int64_t kk = 0; kk < p.k; ++kk) {
        const Acc av = static_cast<Acc>(am[i * p.k + kk]) - q.a_zero_point;
        const TB* b_row = bm + kk * p.n + j0;
        for (int64_t j = 0; j < count; ++j) acc[j] += av * (static_cast<Acc>(b_row[j]) - q.b_zero_point);
      }
      TY* y_row = y + r * p.n + j0;
      for (int64_t j = 0; j < count; ++j) {
        y_row[j] = static_cast<TY>(Requantize(acc[j], q.acc_scale[static_cast<size_t>(j0 + j)], no_activation,
                                             q.output_scale, q.output_zero_point, q.output_min, q.output_max));
      }
    }
  }
}

}  // namespace

void quantized_gemm__ref(const GemmParams& p, const GemmQuantParams& q, DataType a_type, const void* a,
                         const int8_t* b, const int32_t* bias, DataType y_type, void* y, WorkRange range) {
  WithActivationType(a_type, [&](auto* a_tag) {
    using TA = std::remove_pointer_t<decltype(a_tag)>;
    using Acc = std::conditional_t<sizeof(TA) == 1, int32_t, int64_t>;
    WithActivationType(y_type, [&](auto* y_tag) {
      using TY = std::remove_pointer_t<decltype(y_tag)>;
      QuantizedGemm<TA, TY, Acc>(p, q, static_cast<const TA*>(a), b, bias, static_cast<TY*>(y), range);
    });
  });
}

void quantized_matmul__ref(const MatMulParams& p, const MatMulQuantParams& q, DataType a_type, const void* a,
                           DataType b_type, const void* b, DataType y_type, void* y, WorkRange range) {
  WithActivationType(a_type, [&](auto* a_tag) {
    using TA = std::remove_pointer_t<decltype(a_tag)>;
    WithActivationType(b_type, [&](auto* b_tag) {
      using TB = std::remove_pointer_t<decltype(b_tag)>;
      using Acc = std::conditional_t<sizeof(TA) == 1 && sizeof(TB) == 1, int32_t, int64_t>;
      WithActivationType(y_type, [&](auto* y_tag) {
        using TY = std::remove_pointer_t<decltype(y_tag)>;
        QuantizedMatMul<TA, TB, TY, Acc>(p, q, static_cast<const TA*>(a), static_cast<const TB*>(b),
                                         static_cast<TY*>(y), range);
      });
    });
  });
}

void s8_gemm__ref(const GemmParams& p, const GemmQuantParams& q, const int8_t* a, const int8_t* b,
                  const int32_t* bias, int8_t* y) {
  QuantizedGemm<int8_t, int8_t, int32_t>(p, q, a, b, bias, y, WorkRange{});
}

void s8_matmul__ref(const MatMulParams& p, const MatMulQuantParams& q, const int8_t* a, const int8_t* b,
                    int8_t* y) {
  QuantizedMatMul<int8_t, int8_t, int8_t, int32_t>(p, q, a, b, y, WorkRange{});
}

}  // namespace npurt
