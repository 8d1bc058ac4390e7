// Shared helpers for the C API contract tests (tests/api/*_test.cc).
//
// The tests talk to librknnrt.so through rknn_api.h only. Fixture models are
// emitted in memory from tests/common/test_models.h:
//
//   ConvReluPool: x[1,3,4,4] float model (reported FP16, NHWC input)
//     y[1,2,4,4] = relu(conv(x)): y[0] = relu(0.1 * sum_c x[c] + 0.5),
//                                 y[1] = relu(0.2 * sum_c x[c] - 100)
//     z[1,3,1,1] = per-channel mean of x
//   AddMul: a[2,3], b[2,3] -> sum = a + b, prod = sum * a
//
// Every expected value below is computed by hand from the input data (the
// oracles never call into npurt).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "rknn_api.h"
#include "tests/common/test_models.h"

namespace apitest {

// Errors are logged by default; make sure no RKNN_LOG_LEVEL from the caller's
// shell changes that (the runtime reads it once, at its first log line).
inline const int kLogLevelUnset = (unsetenv("RKNN_LOG_LEVEL"), 0);

constexpr uint32_t kN = 1, kC = 3, kH = 4, kW = 4;
constexpr uint32_t kYC = 2;
constexpr char kCustomString[] = "fixture: conv_relu_pool";

// ---------------------------------------------------------------- models

inline std::vector<uint8_t> ConvReluPoolModelFor(const std::string& platform,
                                                 const std::string& custom = kCustomString) {
  return npurt::testing::EmitOrDie(npurt::testing::ConvReluPoolGraph(), platform, custom);
}

// The rk3588 fixture (the same bytes npurt_make_test_models writes).
inline const std::vector<uint8_t>& ConvReluPoolModel() {
  static const std::vector<uint8_t>* model = new std::vector<uint8_t>(ConvReluPoolModelFor("rk3588"));
  return *model;
}

inline const std::vector<uint8_t>& AddMulModel() {
  static const std::vector<uint8_t>* model =
      new std::vector<uint8_t>(npurt::testing::EmitOrDie(npurt::testing::AddMulGraph()));
  return *model;
}

inline int InitFromBytes(rknn_context* ctx, const std::vector<uint8_t>& model, uint32_t flags = 0) {
  return rknn_init(ctx, const_cast<uint8_t*>(model.data()), static_cast<uint32_t>(model.size()), flags, nullptr);
}

// Owns a context; destroys it at scope exit unless release()d.
class ScopedContext {
 public:
  explicit ScopedContext(const std::vector<uint8_t>& model, uint32_t flags = 0) {
    init_result_ = InitFromBytes(&ctx_, model, flags);
    if (init_result_ != RKNN_SUCC) ctx_ = 0;
  }
  ~ScopedContext() {
    if (ctx_ != 0) rknn_destroy(ctx_);
  }
  ScopedContext(const ScopedContext&) = delete;
  ScopedContext& operator=(const ScopedContext&) = delete;

  int init_result() const { return init_result_; }
  rknn_context get() const { return ctx_; }
  rknn_context release() {
    rknn_context c = ctx_;
    ctx_ = 0;
    return c;
  }

 private:
  rknn_context ctx_ = 0;
  int init_result_ = RKNN_ERR_FAIL;
};

// ---------------------------------------------------------------- FP16

inline float HalfToFloat(uint16_t h) {
  const uint32_t sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  float v;
  if (exp == 0) {
    v = std::ldexp(static_cast<float>(mant), -24);
  } else if (exp == 31) {
    v = mant ? NAN : INFINITY;
  } else {
    v = std::ldexp(static_cast<float>(mant + 1024), static_cast<int>(exp) - 25);
  }
  return sign ? -v : v;
}

// Round-to-nearest-even for the normal range (test data only: tiny values flush to 0).
inline uint16_t FloatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, sizeof(x));
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  const int fexp = static_cast<int>((x >> 23) & 0xff);
  const uint32_t mant = x & 0x7fffff;
  if (fexp == 255) return static_cast<uint16_t>(sign | 0x7c00 | (mant ? 0x200 : 0));
  const int exp = fexp - 127 + 15;
  if (fexp == 0 || exp <= 0) return sign;
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00);
  uint32_t h = sign | (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  const uint32_t rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) ++h;
  return static_cast<uint16_t>(h);
}

// ---------------------------------------------------------------- input data

// x[c][h][w] for pattern `seed`: distinct per pixel and channel, all in [20, 250],
// and large enough at some pixels that y[1] = relu(0.2 * sum - 100) is positive.
inline uint8_t XValue(uint32_t c, uint32_t h, uint32_t w, uint32_t seed = 0) {
  const uint32_t p = (h * kW + w + seed * 5) % (kH * kW);
  return static_cast<uint8_t>(10 * p + 30 * c + 20);
}

// Writes pattern `seed` as uint8 NHWC rows of `w_stride` pixels (a row's padding is left as is).
inline void WriteImage(uint8_t* dst, uint32_t w_stride, uint32_t seed) {
  for (uint32_t h = 0; h < kH; ++h)
    for (uint32_t w = 0; w < kW; ++w)
      for (uint32_t c = 0; c < kC; ++c) dst[(h * w_stride + w) * kC + c] = XValue(c, h, w, seed);
}

inline std::vector<uint8_t> InputNhwcU8(uint32_t seed = 0) {
  std::vector<uint8_t> v(kH * kW * kC);
  for (uint32_t h = 0; h < kH; ++h)
    for (uint32_t w = 0; w < kW; ++w)
      for (uint32_t c = 0; c < kC; ++c) v[(h * kW + w) * kC + c] = XValue(c, h, w, seed);
  return v;
}

inline std::vector<float> InputNchwF32(uint32_t seed = 0) {
  std::vector<float> v(kC * kH * kW);
  for (uint32_t c = 0; c < kC; ++c)
    for (uint32_t h = 0; h < kH; ++h)
      for (uint32_t w = 0; w < kW; ++w) v[(c * kH + h) * kW + w] = XValue(c, h, w, seed);
  return v;
}

inline std::vector<float> InputNhwcF32(uint32_t seed = 0) {
  std::vector<float> v(kH * kW * kC);
  for (uint32_t h = 0; h < kH; ++h)
    for (uint32_t w = 0; w < kW; ++w)
      for (uint32_t c = 0; c < kC; ++c) v[(h * kW + w) * kC + c] = XValue(c, h, w, seed);
  return v;
}

inline std::vector<uint16_t> InputNhwcF16(uint32_t seed = 0) {
  std::vector<uint16_t> v(kH * kW * kC);
  for (uint32_t h = 0; h < kH; ++h)
    for (uint32_t w = 0; w < kW; ++w)
      for (uint32_t c = 0; c < kC; ++c) v[(h * kW + w) * kC + c] = FloatToHalf(XValue(c, h, w, seed));
  return v;
}

inline rknn_input MakeInput(void* buf, uint32_t size, rknn_tensor_type type, rknn_tensor_format fmt,
                            uint32_t index = 0) {
  rknn_input in;
  std::memset(&in, 0, sizeof(in));
  in.index = index;
  in.buf = buf;
  in.size = size;
  in.pass_through = 0;
  in.type = type;
  in.fmt = fmt;
  return in;
}

// ---------------------------------------------------------------- oracles

struct ConvReluPoolExpected {
  std::vector<float> y;  // [2][4][4], NCHW
  std::vector<float> z;  // [3]
};

inline ConvReluPoolExpected Oracle(uint32_t seed = 0) {
  ConvReluPoolExpected e;
  e.y.assign(kYC * kH * kW, 0.0f);
  e.z.assign(kC, 0.0f);
  for (uint32_t h = 0; h < kH; ++h) {
    for (uint32_t w = 0; w < kW; ++w) {
      double sum = 0;
      for (uint32_t c = 0; c < kC; ++c) sum += XValue(c, h, w, seed);
      const double y0 = 0.1 * sum + 0.5, y1 = 0.2 * sum - 100.0;
      e.y[0 * kH * kW + h * kW + w] = static_cast<float>(y0 > 0 ? y0 : 0);
      e.y[1 * kH * kW + h * kW + w] = static_cast<float>(y1 > 0 ? y1 : 0);
    }
  }
  for (uint32_t c = 0; c < kC; ++c) {
    double sum = 0;
    for (uint32_t h = 0; h < kH; ++h)
      for (uint32_t w = 0; w < kW; ++w) sum += XValue(c, h, w, seed);
    e.z[c] = static_cast<float>(sum / (kH * kW));
  }
  return e;
}

// The tolerance covers one FP16 rounding of the result (rel. 2^-11) and float32 accumulation.
inline ::testing::AssertionResult AllNear(const float* got, const std::vector<float>& want, const char* what) {
  for (size_t i = 0; i < want.size(); ++i) {
    const float tol = 1e-3f * std::max(1.0f, std::fabs(want[i]));
    if (!(std::fabs(got[i] - want[i]) <= tol)) {
      return ::testing::AssertionFailure() << what << "[" << i << "] = " << got[i] << ", expected " << want[i];
    }
  }
  return ::testing::AssertionSuccess();
}

inline std::vector<float> DecodeHalves(const void* buf, size_t count) {
  std::vector<float> out(count);
  const uint16_t* h = static_cast<const uint16_t*>(buf);
  for (size_t i = 0; i < count; ++i) out[i] = HalfToFloat(h[i]);
  return out;
}

// ---------------------------------------------------------------- run helpers

inline int SetDefaultInput(rknn_context ctx, uint32_t seed = 0) {
  std::vector<uint8_t> x = InputNhwcU8(seed);
  rknn_input in = MakeInput(x.data(), static_cast<uint32_t>(x.size()), RKNN_TENSOR_UINT8, RKNN_TENSOR_NHWC);
  return rknn_inputs_set(ctx, 1, &in);
}

// rknn_query of a tensor attr (`cmd` one of the *_ATTR queries) for tensor `index`; a failure is a test failure.
inline rknn_tensor_attr QueryTensorAttr(rknn_context ctx, rknn_query_cmd cmd, uint32_t index) {
  rknn_tensor_attr attr;
  std::memset(&attr, 0, sizeof(attr));
  attr.index = index;
  EXPECT_EQ(rknn_query(ctx, cmd, &attr, sizeof(attr)), RKNN_SUCC) << "query " << cmd << " index " << index;
  return attr;
}

// Gets outputs 0..n-1 as float32 (runtime-allocated), copies them out, releases; with `frame_id`,
// also the frame they belong to (rknn_output_extend). Returns the first non-success code, or RKNN_SUCC.
inline int GetAllFloatOutputs(rknn_context ctx, uint32_t n, std::vector<std::vector<float>>* outputs,
                              uint64_t* frame_id = nullptr) {
  std::vector<rknn_output> out(n);
  for (uint32_t i = 0; i < n; ++i) {
    std::memset(&out[i], 0, sizeof(rknn_output));
    out[i].index = i;
    out[i].want_float = 1;
  }
  rknn_output_extend extend;
  std::memset(&extend, 0, sizeof(extend));
  int ret = rknn_outputs_get(ctx, n, out.data(), &extend);
  if (ret != RKNN_SUCC) return ret;
  if (frame_id != nullptr) *frame_id = extend.frame_id;
  outputs->assign(n, {});
  for (uint32_t i = 0; i < n; ++i) {
    if (out[i].buf == nullptr) {
      rknn_outputs_release(ctx, n, out.data());
      return RKNN_ERR_OUTPUT_INVALID;
    }
    const float* p = static_cast<const float*>(out[i].buf);
    (*outputs)[i].assign(p, p + out[i].size / sizeof(float));
  }
  return rknn_outputs_release(ctx, n, out.data());
}

// The conv_relu_pool fixture's two outputs (GetAllFloatOutputs, checking their sizes).
inline int GetFloatOutputs(rknn_context ctx, std::vector<float>* y, std::vector<float>* z,
                           uint64_t* frame_id = nullptr) {
  std::vector<std::vector<float>> out;
  const int ret = GetAllFloatOutputs(ctx, 2, &out, frame_id);
  if (ret != RKNN_SUCC) return ret;
  if (out[0].size() != kYC * kH * kW || out[1].size() != kC) return RKNN_ERR_OUTPUT_INVALID;
  *y = std::move(out[0]);
  *z = std::move(out[1]);
  return RKNN_SUCC;
}

// inputs_set (uint8 NHWC, pattern `seed`) + run + float outputs.
inline int RunOnce(rknn_context ctx, uint32_t seed, std::vector<float>* y, std::vector<float>* z) {
  int ret = SetDefaultInput(ctx, seed);
  if (ret != RKNN_SUCC) return ret;
  ret = rknn_run(ctx, nullptr);
  if (ret != RKNN_SUCC) return ret;
  return GetFloatOutputs(ctx, y, z);
}

inline ::testing::AssertionResult OutputsMatch(const std::vector<float>& y, const std::vector<float>& z,
                                               uint32_t seed) {
  const ConvReluPoolExpected e = Oracle(seed);
  if (y.size() != e.y.size() || z.size() != e.z.size()) return ::testing::AssertionFailure() << "wrong output sizes";
  ::testing::AssertionResult r = AllNear(y.data(), e.y, "y");
  if (!r) return r;
  return AllNear(z.data(), e.z, "z");
}

// ---------------------------------------------------------------- logging

// Runs `fn` with stderr captured and returns what was written.
template <typename Fn>
std::string CaptureStderrOf(Fn fn) {
  ::testing::internal::CaptureStderr();
  fn();
  return ::testing::internal::GetCapturedStderr();
}

// A context handle that was never handed out (handles are never reused).
constexpr rknn_context kUnknownContext = static_cast<rknn_context>(0x7fff1234u);

// A context that existed and has been destroyed.
inline rknn_context DestroyedContext() {
  rknn_context ctx = 0;
  if (InitFromBytes(&ctx, ConvReluPoolModel()) != RKNN_SUCC) return kUnknownContext;
  rknn_destroy(ctx);
  return ctx;
}

}  // namespace apitest
