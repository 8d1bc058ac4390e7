#include "runtime/kernels/portable/softmax_table.h"

#include <cmath>
#include <limits>

#include "runtime/kernels/ref/quantize.h"

namespace npurt {

void s8_softmax__table(const S8SoftmaxParams& q, const int8_t* x, int8_t* y, WorkRange range) {
  const SoftmaxParams& p = q.softmax;
  const int64_t n = p.axis_size, stride = p.inner;
  const int64_t rows = p.outer * p.inner;
  float e[256];
  for (int64_t r = range.Begin(rows), end = range.End(rows); r < end; ++r) {
    const int64_t base = (r / p.inner) * n * stride + r % p.inner;
    int8_t max_code = -128;
    for (int64_t k = 0; k < n; ++k) max_code = x[base + k * stride] > max_code ? x[base + k * stride] : max_code;
    const float max = DequantizeValue(max_code, q.in_scale, q.in_zero_point);
    for (int c = -128; c <= max_code; ++c) e[c + 128] = std::exp(DequantizeValue(c, q.in_scale, q.in_zero_point) - max);
    double sum = 0.0;
    for (int64_t k = 0; k < n; ++k) sum += e[x[base + k * stride] + 128];
    const float scale = static_cast<float>(1.0 / sum);
    for (int64_t k = 0; k < n; ++k) {
      y[base + k * stride] =
          static_cast<int8_t>(QuantizeValue(e[x[base + k * stride] + 128] * scale, q.out_scale, q.out_zero_point, -128, 127));
    }
  }
}

namespace {

// Row r's exponentials into e (the reference's expressions, summed in its order) and 1 / their sum.
template <typename T>
float RowExps(const S8SoftmaxParams& q, const T* x, int64_t r, float* e) {
  const SoftmaxParams& p = q.softmax;
  const int64_t n = p.axis_size, stride = p.inner;
  const int64_t base = (r / p.inner) * n * stride + r % p.inner;
  T max_code = std::numeric_limits<T>::lowest();
  for (int64_t k = 0; k < n; ++k) max_code = x[base + k * stride] > max_code ? x[base + k * stride] : max_code;
  const float max = DequantizeValue(max_code, q.in_scale, q.in_zero_point);
  double sum = 0.0;
  for (int64_t k = 0; k < n; ++k) {
    e[k] = std::exp(DequantizeValue(x[base + k * stride], q.in_scale, q.in_zero_point) - max);
    sum += e[k];
  }
  return static_cast<float>(1.0 / sum);
}

template <typename T, typename TOut>
void SoftmaxRows(const S8SoftmaxParams& q, const T* x, TOut* y, float* e, WorkRange range) {
  constexpr int32_t kMin = std::numeric_limits<TOut>::min(), kMax = std::numeric_limits<TOut>::max();
  const SoftmaxParams& p = q.softmax;
  const int64_t n = p.axis_size, stride = p.inner;
  const int64_t rows = p.outer * p.inner;
  for (int64_t r = range.Begin(rows), end = range.End(rows); r < end; ++r) {
    const int64_t base = (r / p.inner) * n * stride + r % p.inner;
    const float scale = RowExps(q, x, r, e);
    for (int64_t k = 0; k < n; ++k) {
      y[base + k * stride] = static_cast<TOut>(QuantizeValue(e[k] * scale, q.out_scale, q.out_zero_point, kMin, kMax));
    }
  }
}

template <typename T>
void SoftmaxRowsTo(const S8SoftmaxParams& q, const T* x, DataType output_type, void* y, float* e, WorkRange range) {
  if (output_type == DataType::kInt16) {
    SoftmaxRows(q, x, static_cast<int16_t*>(y), e, range);
  } else {
    SoftmaxRows(q, x, static_cast<int8_t*>(y), e, range);
  }
}

}  // namespace

float quantized_softmax_exps(const S8SoftmaxParams& params, DataType input_type, const void* input, int64_t row,
                             float* exps) {
  return input_type == DataType::kInt16 ? RowExps(params, static_cast<const int16_t*>(input), row, exps)
                                        : RowExps(params, static_cast<const int8_t*>(input), row, exps);
}

void quantized_softmax__rows(const S8SoftmaxParams& params, DataType input_type, const void* input,
                             DataType output_type, void* output, float* exps, WorkRange rows) {
  if (input_type == DataType::kInt16) {
    SoftmaxRowsTo(params, static_cast<const int16_t*>(input), output_type, output, exps, rows);
  } else {
    SoftmaxRowsTo(params, static_cast<const int8_t*>(input), output_type, output, exps, rows);
  }
}

}  // namespace npurt
