// int16 activations (the hybrid scheme): Conv, ConvTranspose, MatMul, Gemm, element-wise and
// lookup ops with int16 inputs and/or outputs (the `output_type` attribute),
// each against the float op on the dequantized inputs, its result quantized
// with the output's parameters: within one step everywhere, exact almost
// everywhere. Plus a hand-computed case and the error paths.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "runtime/kernels/dispatch.h"
#include "runtime/kernels/ref/quantize.h"
#include "tests/ops/int8_oracle.h"
#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;
using testing::PerTensor;

// A quantized activation of either width: codes (as int32) and parameters.
struct Activation {
  DataType type = DataType::kInt8;
  Shape shape;
  std::vector<int32_t> codes;
  QuantInfo quant;

  std::vector<float> Real() const {
    std::vector<float> r(codes.size());
    for (size_t i = 0; i < codes.size(); ++i) r[i] = DequantizeValue(codes[i], quant.scale[0], quant.zero_point[0]);
    return r;
  }
};

QuantRange RangeOf(DataType type) {
  QuantRange r{};
  QuantizedRange(type, &r);
  return r;
}

// Random codes over the type's range; int16 tensors are symmetric (zero point 0), as the compiler makes them.
Activation RandomActivation(std::mt19937* rng, DataType type, Shape shape, float scale) {
  Activation a;
  a.type = type;
  a.shape = std::move(shape);
  const QuantRange r = RangeOf(type);
  std::uniform_int_distribution<int32_t> code(static_cast<int32_t>(r.min), static_cast<int32_t>(r.max));
  a.codes.resize(static_cast<size_t>(NumElements(a.shape)));
  for (int32_t& c : a.codes) c = code(*rng);
  const int32_t zp = type == DataType::kInt8 ? std::uniform_int_distribution<int32_t>(-20, 20)(*rng) : 0;
  a.quant = PerTensor(scale, zp);
  return a;
}

void AddActivation(OpRunner* op, const Activation& a, bool constant = false) {
  const size_t index = op->num_inputs();
  if (a.type == DataType::kInt16) {
    std::vector<int16_t> v(a.codes.begin(), a.codes.end());
    op->AddInput(a.shape, v, DataType::kInt16, constant);
  } else {
    std::vector<int8_t> v(a.codes.begin(), a.codes.end());
    op->AddInput(a.shape, v, DataType::kInt8, constant);
  }
  op->SetInputQuant(index, a.quant);
}

std::vector<int32_t> OutputCodes(const OpRunner& op) {
  if (op.output().dtype == DataType::kInt16) {
    const std::vector<int16_t> v = op.OutputValues<int16_t>();
    return std::vector<int32_t>(v.begin(), v.end());
  }
  const std::vector<int8_t> v = op.OutputValues<int8_t>();
  return std::vector<int32_t>(v.begin(), v.end());
}

// Compares the quantized run with the quantized float reference.
void ExpectMatchesOracle(const std::vector<int32_t>& got, const std::vector<float>& reference, DataType out_type,
                         const QuantInfo& out_quant, double min_exact_share = 0.99) {
  const QuantRange r = RangeOf(out_type);
  ASSERT_EQ(got.size(), reference.size());
  size_t exact = 0;
  int worst = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const int32_t want = QuantizeValue(reference[i], out_quant.scale[0], out_quant.zero_point[0],
                                       static_cast<int32_t>(r.min), static_cast<int32_t>(r.max));
    const int d = std::abs(got[i] - want);
    exact += d == 0 ? 1 : 0;
    worst = std::max(worst, d);
  }
  EXPECT_LE(worst, 1);
  EXPECT_GE(static_cast<double>(exact), min_exact_share * static_cast<double>(got.size()))
      << exact << " of " << got.size() << " exact";
}

// Symmetric per-output-channel int8 weights with their real values.
struct Weights {
  std::vector<int8_t> codes;
  std::vector<float> real;
  QuantInfo quant;
};

Weights RandomWeights(std::mt19937* rng, const Shape& shape) {
  Weights w;
  const int64_t channels = shape[0];
  const int64_t per = NumElements(shape) / channels;
  std::uniform_int_distribution<int> code(-127, 127);
  std::uniform_real_distribution<float> scale(0.002f, 0.05f);
  w.quant.axis = 0;
  for (int64_t c = 0; c < channels; ++c) {
    w.quant.scale.push_back(scale(*rng));
    w.quant.zero_point.push_back(0);
  }
  w.codes.resize(static_cast<size_t>(NumElements(shape)));
  w.real.resize(w.codes.size());
  for (size_t i = 0; i < w.codes.size(); ++i) {
    w.codes[i] = static_cast<int8_t>(code(*rng));
    w.real[i] = static_cast<float>(w.codes[i]) * w.quant.scale[i / static_cast<size_t>(per)];
  }
  return w;
}

// Runs `op` (Conv or ConvTranspose) with quantized activation x and int8 weights (codes, their real values and
// parameters) and the float op on the real values, the output parameters fitted to the float result's range in
// out_type; expects the oracle's agreement.
void ExpectWeightedOpMatchesOracle(const char* op, const Attributes& attrs, const Activation& x, const Shape& w_shape,
                                   const std::vector<int8_t>& w_codes, const std::vector<float>& w_real,
                                   const QuantInfo& w_quant, DataType out_type) {
  OpRunner f(op);
  f.attrs() = attrs;
  f.attrs().SetString("output_type", "");
  f.AddFloatInput(x.shape, x.Real());
  f.AddFloatInput(w_shape, w_real, true);
  ASSERT_TRUE(f.Run().ok());
  const std::vector<float> reference = f.FloatOutput();
  float lo = 0.0f, hi = 0.0f;
  for (float v : reference) lo = std::min(lo, v), hi = std::max(hi, v);
  const QuantInfo out_quant =
      out_type == DataType::kInt16
          ? PerTensor(std::max(-lo, hi) / 32767.0f)
          : PerTensor((hi - lo) / 255.0f, static_cast<int32_t>(std::lround(-128 - lo / ((hi - lo) / 255.0f))));

  OpRunner q(op);
  q.attrs() = attrs;
  AddActivation(&q, x);
  q.AddInput(w_shape, w_codes, DataType::kInt8, true);
  q.SetInputQuant(1, w_quant);
  q.SetOutputQuant(0, out_quant);
  const Status s = q.Run();
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(q.output().dtype, out_type);
  ExpectMatchesOracle(OutputCodes(q), reference, out_type, out_quant);
}

TEST(Int16Activation, HandComputedDepthwiseConvKeepsWhatInt8Loses) {
  // One channel, a 1x1 kernel of weight 1 (scale 1/127 -> code 127), input 0.001 and 1.0 at scale 1/32767:
  // the int16 output at the same scale carries both, an int8 output at scale 1/127 rounds 0.001 to 0.
  OpRunner op("Conv");
  op.attrs().SetInt("group", 1);
  op.attrs().SetString("output_type", "INT16");
  op.AddInput<int16_t>({1, 1, 1, 2}, {33, 32767}, DataType::kInt16);
  op.SetInputQuant(0, PerTensor(1.0f / 32767.0f));
  op.AddInput<int8_t>({1, 1, 1, 1}, {127}, DataType::kInt8, true);
  op.SetInputQuant(1, PerTensor(1.0f / 127.0f));
  op.SetOutputQuant(0, PerTensor(1.0f / 32767.0f));
  ASSERT_TRUE(op.Run().ok());
  ASSERT_EQ(op.output().dtype, DataType::kInt16);
  EXPECT_EQ(op.OutputValues<int16_t>(), (std::vector<int16_t>{33, 32767}));
}

TEST(Int16Activation, ConvAgainstFloatOracleForEveryTypeMix) {
  std::mt19937 rng(16);
  const DataType types[] = {DataType::kInt8, DataType::kInt16};
  int cases = 0;
  for (DataType in_type : types) {
    for (DataType out_type : types) {
      for (int trial = 0; trial < 6; ++trial) {
        const bool depthwise = trial % 2 == 0;
        const int64_t c = 3 + trial, h = 5 + trial % 3, w = 7 + trial;
        const int64_t m = depthwise ? c : 4 + trial;
        const int64_t k = depthwise ? 3 : 1 + trial % 2 * 2;
        const Activation x = RandomActivation(&rng, in_type, {1, c, h, w}, in_type == DataType::kInt16 ? 1e-4f : 0.02f);
        const Weights wt = RandomWeights(&rng, {m, depthwise ? 1 : c, k, k});
        Attributes attrs;
        attrs.SetInt("group", depthwise ? c : 1);
        attrs.SetInts("pads", {k / 2, k / 2, k / 2, k / 2});
        attrs.SetInts("strides", {1 + trial % 2, 1});
        if (trial % 3 == 0) attrs.SetString("activation", "HardSwish");
        if (out_type != in_type) attrs.SetString("output_type", DataTypeName(out_type));

        ExpectWeightedOpMatchesOracle("Conv", attrs, x, {m, depthwise ? 1 : c, k, k}, wt.codes, wt.real, wt.quant,
                                      out_type);
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, 24);
}

TEST(Int16Activation, ConvTransposeAgainstFloatOracleForEveryTypeMix) {
  // Weights [C, M/g, k, k], symmetric int8 per output channel along axis 1 (M/g scales, shared by the groups).
  std::mt19937 rng(61);
  const DataType types[] = {DataType::kInt8, DataType::kInt16};
  int cases = 0;
  for (DataType in_type : types) {
    for (DataType out_type : types) {
      for (int trial = 0; trial < 3; ++trial) {
        const bool depthwise = trial == 2;
        const int64_t c = 3 + trial, h = 4 + trial, w = 5 + trial;
        const int64_t group = depthwise ? c : 1;
        const int64_t per_group = depthwise ? 1 : 2 + trial;  // M / g
        const int64_t k = 2 + trial % 2;
        const Activation x = RandomActivation(&rng, in_type, {1, c, h, w}, in_type == DataType::kInt16 ? 1e-4f : 0.02f);
        const Shape w_shape = {c, per_group, k, k};
        std::vector<int8_t> codes(static_cast<size_t>(NumElements(w_shape)));
        std::vector<float> real(codes.size());
        QuantInfo wq;
        wq.axis = 1;
        std::uniform_real_distribution<float> scale(0.002f, 0.05f);
        for (int64_t j = 0; j < per_group; ++j) wq.scale.push_back(scale(rng)), wq.zero_point.push_back(0);
        std::uniform_int_distribution<int> code(-127, 127);
        for (size_t i = 0; i < codes.size(); ++i) {
          codes[i] = static_cast<int8_t>(code(rng));
          real[i] = static_cast<float>(codes[i]) * wq.scale[(i / static_cast<size_t>(k * k)) % static_cast<size_t>(per_group)];
        }
        Attributes attrs;
        attrs.SetInt("group", group);
        attrs.SetInts("strides", {2, 1 + trial % 2});
        attrs.SetInts("pads", {trial % 2, 0, 0, trial % 2});
        if (out_type != in_type) attrs.SetString("output_type", DataTypeName(out_type));

        ExpectWeightedOpMatchesOracle("ConvTranspose", attrs, x, w_shape, codes, real, wq, out_type);
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, 12);
}

// The quantized MatMul of two activations (exact sums in double, then the requantization rows) gives the
// reference kernel's bits: every int8 / int16 mix, batches broadcast, zero points, K from 1 to 300 (sums
// far past int32 for int16 x int16), N past a vector, both output types, one and three threads.
TEST(Int16Activation, MatMulOfTwoActivationsGivesTheReferenceBits) {
  std::mt19937 rng(0x3a7);
  std::uniform_int_distribution<int64_t> dim(1, 40), depth(1, 300), batch(1, 3);
  int cases = 0;
  for (int iter = 0; iter < 60; ++iter) {
    const DataType a_type = iter % 2 ? DataType::kInt16 : DataType::kInt8;
    const DataType b_type = iter / 2 % 2 ? DataType::kInt16 : DataType::kInt8;
    const DataType y_type = iter / 4 % 2 ? DataType::kInt16 : DataType::kInt8;
    const int64_t m = dim(rng), k = iter % 7 == 0 ? 1 : depth(rng), n = dim(rng), batches = batch(rng);
    Activation a = RandomActivation(&rng, a_type, {batches, m, k}, 1e-3f);
    Activation b = RandomActivation(&rng, b_type, iter % 3 == 0 ? Shape{k, n} : Shape{batches, k, n}, 2e-3f);
    if (b_type == DataType::kInt16) b.quant.zero_point[0] = std::uniform_int_distribution<int32_t>(-300, 300)(rng);
    // Output parameters that keep most codes inside the type's range.
    const float spread = std::sqrt(static_cast<float>(k)) * (a_type == DataType::kInt16 ? 32768.0f : 128.0f) * 1e-3f *
                         (b_type == DataType::kInt16 ? 32768.0f : 128.0f) * 2e-3f;
    const QuantInfo yq = PerTensor(spread / (y_type == DataType::kInt16 ? 8000.0f : 40.0f), iter % 5 - 2);
    const int threads = iter % 2 ? 3 : 1;
    std::vector<int32_t> outputs[2];
    for (int ref = 0; ref < 2; ++ref) {
      std::unique_ptr<ScopedCpuTargetCap> cap;
      if (ref == 1) cap = std::make_unique<ScopedCpuTargetCap>(CpuTarget::kRef);
      OpRunner q("MatMul");
      q.attrs().SetString("output_type", y_type == DataType::kInt16 ? "INT16" : "INT8");
      AddActivation(&q, a);
      AddActivation(&q, b);
      q.SetOutputQuant(0, yq);
      q.set_threads(threads);
      ASSERT_TRUE(q.Run().ok()) << iter;
      if (ref == 0 && ActiveCpuTarget() != CpuTarget::kRef) {
        EXPECT_EQ(q.node().kernel, "quantized_matmul_sums__portable") << iter;
      }
      outputs[ref] = OutputCodes(q);
    }
    ASSERT_EQ(outputs[0], outputs[1]) << "iteration " << iter << " m " << m << " k " << k << " n " << n;
    ++cases;
  }
  EXPECT_EQ(cases, 60);
}

TEST(Int16Activation, MatMulOfTwoInt16ActivationsAndGemmWithInt16Input) {
  std::mt19937 rng(7);
  const Activation a = RandomActivation(&rng, DataType::kInt16, {2, 5, 33}, 3e-5f);
  const Activation b = RandomActivation(&rng, DataType::kInt16, {2, 33, 6}, 3e-5f);
  OpRunner f("MatMul");
  f.AddFloatInput(a.shape, a.Real());
  f.AddFloatInput(b.shape, b.Real());
  ASSERT_TRUE(f.Run().ok());
  const QuantInfo out_quant = PerTensor(2e-5f, 3);
  OpRunner q("MatMul");
  q.attrs().SetString("output_type", "INT8");
  AddActivation(&q, a);
  AddActivation(&q, b);
  q.SetOutputQuant(0, out_quant);
  ASSERT_TRUE(q.Run().ok());
  ASSERT_EQ(q.output().dtype, DataType::kInt8);
  ExpectMatchesOracle(OutputCodes(q), f.FloatOutput(), DataType::kInt8, out_quant);

  const Activation x = RandomActivation(&rng, DataType::kInt16, {4, 40}, 1e-4f);
  Weights wt = RandomWeights(&rng, {40, 9});  // [K, N]: per-tensor use of the first scale
  wt.quant.scale.assign(1, wt.quant.scale[0]);
  wt.quant.zero_point.assign(1, 0);
  wt.quant.axis = -1;
  for (size_t i = 0; i < wt.real.size(); ++i) wt.real[i] = static_cast<float>(wt.codes[i]) * wt.quant.scale[0];
  OpRunner fg("Gemm");
  fg.AddFloatInput(x.shape, x.Real());
  fg.AddFloatInput({40, 9}, wt.real, true);
  ASSERT_TRUE(fg.Run().ok());
  const QuantInfo g_quant = PerTensor(1e-5f);
  OpRunner qg("Gemm");
  AddActivation(&qg, x);
  qg.AddInput({40, 9}, wt.codes, DataType::kInt8, true);
  qg.SetInputQuant(1, wt.quant);
  qg.SetOutputQuant(0, g_quant);
  ASSERT_TRUE(qg.Run().ok());
  ASSERT_EQ(qg.output().dtype, DataType::kInt16);
  // 36 outputs at int16 resolution: the float reference's own summation order can flip one rounding.
  ExpectMatchesOracle(OutputCodes(qg), fg.FloatOutput(), DataType::kInt16, g_quant, 0.9);
}

TEST(Int16Activation, ElementwiseAndLookupOps) {
  std::mt19937 rng(3);
  // Add: int16 + int8 -> int16.
  const Activation a = RandomActivation(&rng, DataType::kInt16, {2, 3, 4, 5}, 2e-4f);
  const Activation b = RandomActivation(&rng, DataType::kInt8, {1, 3, 1, 1}, 0.03f);
  OpRunner f("Add");
  f.AddFloatInput(a.shape, a.Real());
  f.AddFloatInput(b.shape, b.Real());
  ASSERT_TRUE(f.Run().ok());
  const QuantInfo out_quant = PerTensor(4e-4f);
  OpRunner q("Add");
  AddActivation(&q, a);
  AddActivation(&q, b);
  q.SetOutputQuant(0, out_quant);
  ASSERT_TRUE(q.Run().ok());
  ASSERT_EQ(q.output().dtype, DataType::kInt16);
  ExpectMatchesOracle(OutputCodes(q), f.FloatOutput(), DataType::kInt16, out_quant, 1.0);

  // HardSwish int16 -> int16 and Sigmoid int8 -> int16.
  for (const char* name : {"HardSwish", "Sigmoid"}) {
    const DataType in_type = std::string(name) == "Sigmoid" ? DataType::kInt8 : DataType::kInt16;
    const Activation x = RandomActivation(&rng, in_type, {3, 50}, in_type == DataType::kInt16 ? 2e-4f : 0.05f);
    OpRunner fu(name);
    fu.AddFloatInput(x.shape, x.Real());
    ASSERT_TRUE(fu.Run().ok());
    const QuantInfo uq = PerTensor(std::string(name) == "Sigmoid" ? 1.0f / 32767.0f : 2e-4f);
    OpRunner qu(name);
    if (in_type != DataType::kInt16) qu.attrs().SetString("output_type", "INT16");
    AddActivation(&qu, x);
    qu.SetOutputQuant(0, uq);
    ASSERT_TRUE(qu.Run().ok()) << name;
    ASSERT_EQ(qu.output().dtype, DataType::kInt16) << name;
    ExpectMatchesOracle(OutputCodes(qu), fu.FloatOutput(), DataType::kInt16, uq, 1.0);
  }
}

// Ops that carry int16 through unchanged in type: Concat (requantizing an input whose parameters differ),
// Resize, Softmax, GlobalAveragePool and AveragePool, against the float op on the real values.
TEST(Int16Activation, ConcatResizeSoftmaxAndPools) {
  std::mt19937 rng(11);
  const Activation a = RandomActivation(&rng, DataType::kInt16, {1, 2, 3, 4}, 1e-3f);
  const Activation b = RandomActivation(&rng, DataType::kInt16, {1, 3, 3, 4}, 4e-4f);
  const QuantInfo out_quant = PerTensor(1e-3f);
  struct Case {
    const char* op;
    std::vector<const Activation*> inputs;
    Attributes attrs;
    QuantInfo out;
  };
  std::vector<Case> cases(5);
  cases[0] = {"Concat", {&a, &b}, {}, out_quant};
  cases[0].attrs.SetInt("axis", 1);
  cases[1] = {"Resize", {&b}, {}, PerTensor(4e-4f)};
  cases[1].attrs.SetString("mode", "linear");
  cases[2] = {"Softmax", {&a}, {}, PerTensor(1.0f / 32767.0f)};
  cases[3] = {"GlobalAveragePool", {&b}, {}, PerTensor(2e-4f)};
  cases[4] = {"AveragePool", {&a}, {}, PerTensor(5e-4f)};
  cases[4].attrs.SetInts("kernel_shape", {2, 2});
  for (const Case& c : cases) {
    OpRunner f(c.op), q(c.op);
    f.attrs() = c.attrs;
    q.attrs() = c.attrs;
    for (const Activation* in : c.inputs) {
      f.AddFloatInput(in->shape, in->Real());
      AddActivation(&q, *in);
    }
    if (std::string(c.op) == "Resize") {  // roi, scales (opset 11 inputs)
      for (OpRunner* r : {&f, &q}) {
        r->AddFloatInput({0}, {}, true);
        r->AddFloatInput({4}, {1.0f, 1.0f, 2.0f, 1.5f}, true);
      }
    }
    q.SetOutputQuant(0, c.out);
    const Status sf = f.Run(), sq = q.Run();
    ASSERT_TRUE(sf.ok()) << c.op << ": " << sf.message();
    ASSERT_TRUE(sq.ok()) << c.op << ": " << sq.message();
    ASSERT_EQ(q.output().dtype, DataType::kInt16) << c.op;
    SCOPED_TRACE(c.op);
    ExpectMatchesOracle(OutputCodes(q), f.FloatOutput(), DataType::kInt16, c.out, 0.9);
  }
}

TEST(Int16Activation, Errors) {
  {  // An output type that is not INT8 or INT16.
    OpRunner op("Relu");
    op.attrs().SetString("output_type", "INT4");
    op.AddInput<int16_t>({2}, {1, -1}, DataType::kInt16);
    op.SetInputQuant(0, PerTensor(0.1f));
    op.SetOutputQuant(0, PerTensor(0.1f));
    const Status s = op.Run();
    EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
    EXPECT_NE(s.message().find("output_type 'INT4'"), std::string::npos) << s.message();
  }
  {  // An int16 weight: weights are int8 only.
    OpRunner op("Conv");
    op.AddInput<int16_t>({1, 1, 1, 1}, {5}, DataType::kInt16);
    op.SetInputQuant(0, PerTensor(0.1f));
    op.AddInput<int16_t>({1, 1, 1, 1}, {5}, DataType::kInt16, true);
    op.SetInputQuant(1, PerTensor(0.1f));
    op.SetOutputQuant(0, PerTensor(0.1f));
    const Status s = op.Run();
    EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
    EXPECT_NE(s.message().find("needs int8 weights"), std::string::npos) << s.message();
  }
  {  // An int16 activation without parameters.
    OpRunner op("Sigmoid");
    op.AddInput<int16_t>({2}, {1, -1}, DataType::kInt16);
    op.SetOutputQuant(0, PerTensor(0.1f));
    const Status s = op.Run();
    EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
    EXPECT_NE(s.message().find("no quantization parameters"), std::string::npos) << s.message();
  }
}

}  // namespace
}  // namespace npurt
