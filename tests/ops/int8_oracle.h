// The oracle of the int8 op tests: run the int8 op, and the float op on the
// dequantized inputs, then quantize the float result with the output's
// parameters; the two must agree within one quantization step everywhere and
// exactly almost everywhere.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "runtime/kernels/ref/quantize.h"
#include "tests/ops/op_runner.h"

namespace npurt {
namespace testing {

inline QuantInfo PerTensor(float scale, int32_t zero_point = 0) {
  QuantInfo q;
  q.scale = {scale};
  q.zero_point = {zero_point};
  return q;
}

inline std::vector<float> DequantizeAll(const std::vector<int8_t>& codes, const QuantInfo& q) {
  std::vector<float> out(codes.size());
  const int32_t zp = q.zero_point.empty() ? 0 : q.zero_point[0];
  for (size_t i = 0; i < codes.size(); ++i) out[i] = DequantizeValue(codes[i], q.scale[0], zp);
  return out;
}

inline std::vector<int8_t> QuantizeAll(const std::vector<float>& real, const QuantInfo& q) {
  std::vector<int8_t> out(real.size());
  const int32_t zp = q.zero_point.empty() ? 0 : q.zero_point[0];
  for (size_t i = 0; i < real.size(); ++i) {
    out[i] = static_cast<int8_t>(QuantizeValue(real[i], q.scale[0], zp, -128, 127));
  }
  return out;
}

inline std::vector<int8_t> RandomCodes(std::mt19937* rng, int64_t n) {
  std::uniform_int_distribution<int> code(-128, 127);
  std::vector<int8_t> v(static_cast<size_t>(n));
  for (int8_t& c : v) c = static_cast<int8_t>(code(*rng));
  return v;
}

// Random per-tensor parameters: scales over three decades, zero points often
// at the extremes (-128, 127) and 0, else anywhere.
inline QuantInfo RandomQuant(std::mt19937* rng, float min_scale = 0.002f, float max_scale = 0.5f) {
  std::uniform_real_distribution<float> log_scale(std::log(min_scale), std::log(max_scale));
  std::uniform_int_distribution<int> pick(0, 5);
  std::uniform_int_distribution<int> any(-128, 127);
  const int k = pick(*rng);
  const int32_t zp = k == 0 ? -128 : k == 1 ? 127 : k == 2 ? 0 : any(*rng);
  return PerTensor(std::exp(log_scale(*rng)), zp);
}

inline int64_t Count(const Shape& s) { return NumElements(s); }

// One input of an oracle case: INT8 codes with their quantization (the float
// op gets the real values), or a float/int64 tensor given unchanged to both.
struct OracleInput {
  Shape shape;
  DataType dtype = DataType::kInt8;
  std::vector<int8_t> codes;
  QuantInfo quant;
  std::vector<float> floats;
  std::vector<int64_t> ints;
  bool constant = false;
  bool absent = false;

  static OracleInput Int8(Shape shape, std::vector<int8_t> codes, QuantInfo quant, bool constant = false) {
    OracleInput in;
    in.shape = std::move(shape);
    in.codes = std::move(codes);
    in.quant = std::move(quant);
    in.constant = constant;
    return in;
  }
  static OracleInput Float(Shape shape, std::vector<float> values, bool constant = true) {
    OracleInput in;
    in.shape = std::move(shape);
    in.dtype = DataType::kFloat32;
    in.floats = std::move(values);
    in.constant = constant;
    return in;
  }
  static OracleInput Int64(Shape shape, std::vector<int64_t> values) {
    OracleInput in;
    in.shape = std::move(shape);
    in.dtype = DataType::kInt64;
    in.ints = std::move(values);
    in.constant = true;
    return in;
  }
  static OracleInput Absent() {
    OracleInput in;
    in.absent = true;
    return in;
  }
};

// Agreement between the int8 op and the oracle, accumulated over cases.
struct OracleStats {
  int64_t total = 0;
  int64_t exact = 0;
  int64_t off_by_one = 0;
  int64_t worse = 0;
  int max_diff = 0;

  void Add(const std::vector<int8_t>& got, const std::vector<int8_t>& want) {
    EXPECT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size() && i < want.size(); ++i) {
      const int d = std::abs(static_cast<int>(got[i]) - static_cast<int>(want[i]));
      ++total;
      exact += d == 0 ? 1 : 0;
      off_by_one += d == 1 ? 1 : 0;
      worse += d > 1 ? 1 : 0;
      max_diff = std::max(max_diff, d);
    }
  }
  // Within one step everywhere, exactly equal in at least `min_exact_share` of the elements.
  void Expect(double min_exact_share = 0.99) const {
    EXPECT_GT(total, 0);
    EXPECT_EQ(worse, 0) << "max difference " << max_diff << " steps";
    EXPECT_GE(static_cast<double>(exact), min_exact_share * static_cast<double>(total))
        << exact << " of " << total << " exact, " << off_by_one << " off by one";
  }
};

// Runs `op` with INT8 inputs/outputs and the float op on the real values,
// quantizes the float outputs with `out_quant` and adds the comparison to
// `stats`. Returns false (with a test failure) when either run fails.
inline bool RunAgainstFloatOracle(const std::string& op, const Attributes& attrs,
                                  const std::vector<OracleInput>& inputs, const std::vector<QuantInfo>& out_quant,
                                  OracleStats* stats) {
  OpRunner q(op), f(op);
  q.attrs() = attrs;
  f.attrs() = attrs;
  for (size_t index = 0; index < inputs.size(); ++index) {
    const OracleInput& in = inputs[index];
    if (in.absent) {
      q.AddAbsentInput();
      f.AddAbsentInput();
    } else if (in.dtype == DataType::kInt8) {
      q.AddInput(in.shape, in.codes, DataType::kInt8, in.constant);
      q.SetInputQuant(index, in.quant);
      f.AddFloatInput(in.shape, DequantizeAll(in.codes, in.quant), in.constant);
    } else if (in.dtype == DataType::kFloat32) {
      q.AddFloatInput(in.shape, in.floats, in.constant);
      f.AddFloatInput(in.shape, in.floats, in.constant);
    } else {
      q.AddInt64Input(in.shape, in.ints, in.constant);
      f.AddInt64Input(in.shape, in.ints, in.constant);
    }
  }
  for (size_t i = 0; i < out_quant.size(); ++i) q.SetOutputQuant(i, out_quant[i]);
  const int num_outputs = static_cast<int>(out_quant.size());
  const Status sq = q.Run(num_outputs);
  const Status sf = f.Run(num_outputs);
  EXPECT_TRUE(sq.ok()) << op << " int8: " << sq.message();
  EXPECT_TRUE(sf.ok()) << op << " float: " << sf.message();
  if (!sq.ok() || !sf.ok()) return false;
  for (size_t i = 0; i < out_quant.size(); ++i) {
    EXPECT_EQ(q.output(i).dtype, DataType::kInt8);
    EXPECT_EQ(q.OutputShape(i), f.OutputShape(i));
    stats->Add(q.OutputValues<int8_t>(i), QuantizeAll(f.FloatOutput(i), out_quant[i]));
  }
  return true;
}

// ---- helpers of the accumulating ops' oracle tests (Conv, ConvTranspose, Gemm, MatMul) ----
namespace accumulating {

inline QuantInfo PerAxis(std::vector<float> scales, int axis) {
  QuantInfo q;
  q.zero_point.assign(scales.size(), 0);
  q.scale = std::move(scales);
  q.axis = axis;
  return q;
}

inline int Uniform(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

inline std::vector<int8_t> RandomInt8(std::mt19937& rng, int64_t n) {
  std::vector<int8_t> v(static_cast<size_t>(n));
  for (int8_t& e : v) e = static_cast<int8_t>(Uniform(rng, -128, 127));
  return v;
}

// Zero points that matter: both extremes, 0 and anything.
inline int32_t RandomZeroPoint(std::mt19937& rng) {
  switch (Uniform(rng, 0, 3)) {
    case 0: return -128;
    case 1: return 127;
    case 2: return 0;
    default: return Uniform(rng, -100, 100);
  }
}

// Real values of a quantized tensor, per tensor or per axis.
inline std::vector<float> Dequantize(const Shape& shape, const std::vector<int8_t>& v, const QuantInfo& q) {
  int64_t inner = 1, axis_size = 1;
  if (q.axis >= 0) {
    axis_size = shape[static_cast<size_t>(q.axis)];
    for (size_t d = static_cast<size_t>(q.axis) + 1; d < shape.size(); ++d) inner *= shape[d];
  }
  std::vector<float> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const size_t a = static_cast<size_t>((static_cast<int64_t>(i) / inner) % axis_size);
    out[i] = DequantizeValue(v[i], q.scale[a], q.zero_point.empty() ? 0 : q.zero_point[a]);
  }
  return out;
}

// Output parameters for the oracle's real outputs: usually spanning their
// range (times `narrow` <= 1, which saturates the ends), sometimes with an
// extreme zero point (-128: only non-negative values representable, 127: only
// non-positive ones).
inline QuantInfo OutputQuantFor(const std::vector<float>& real, std::mt19937& rng) {
  float lo = 0.0f, hi = 0.0f;
  for (float v : real) lo = std::min(lo, v), hi = std::max(hi, v);
  const float narrow = 0.1f * Uniform(rng, 7, 10);
  const int mode = Uniform(rng, 0, 5);
  if (mode == 0) return PerTensor(std::max(hi, 1e-3f) / 255.0f * narrow, -128);
  if (mode == 1) return PerTensor(std::max(-lo, 1e-3f) / 255.0f * narrow, 127);
  const float scale = std::max(hi - lo, 1e-3f) / 255.0f * narrow;
  const float zp = std::nearbyint(-128.0f - lo / scale);
  return PerTensor(scale, static_cast<int32_t>(std::min(127.0f, std::max(-128.0f, zp))));
}

struct MatchCount {
  int64_t total = 0;
  int64_t exact = 0;
};

// Every int8 output within one step of the quantized oracle; counts exact matches.
inline void ExpectWithinOneStep(const std::vector<int8_t>& got, const std::vector<float>& real, const QuantInfo& yq,
                         const std::string& what, MatchCount* count) {
  ASSERT_EQ(got.size(), real.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    const int32_t want = QuantizeValue(real[i], yq.scale[0], yq.zero_point[0], -128, 127);
    const int32_t diff = std::abs(static_cast<int32_t>(got[i]) - want);
    ASSERT_LE(diff, 1) << what << " at " << i << ": got " << int{got[i]} << ", oracle " << want << " (real "
                       << real[i] << ")";
    ++count->total;
    if (diff == 0) ++count->exact;
  }
}

// Why ±1 can occur: the int8 kernel sums exactly in int32 and rounds
// acc * acc_scale once; the oracle sums float products of dequantized values,
// whose rounding errors can move a value across a rounding boundary of the
// output (a .5 step) -- then the two differ by one step. That is rare.
inline void ExpectMostlyExact(const MatchCount& count) {
  EXPECT_GE(static_cast<double>(count.exact), 0.99 * static_cast<double>(count.total))
      << count.exact << " of " << count.total << " exact";
}

}  // namespace accumulating

}  // namespace testing
}  // namespace npurt
