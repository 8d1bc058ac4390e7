// Ops that split their work over threads (OpNode::threads: Conv, ConvTranspose,
// Gemm, MatMul) give the same bits with any thread count: every slice computes
// whole output channels or rows with the single-thread arithmetic. Each case
// runs once on one thread (the oracle is the reference kernel's whole call) and
// again on 2, 3 and 7; the shapes have channel / row counts that do not divide
// evenly, groups, strides, pads, batch 2, zero points and int16 mixes.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "tests/ops/int8_oracle.h"
#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;
using testing::accumulating::PerAxis;
using testing::PerTensor;

std::vector<float> RandomFloats(size_t n, std::mt19937* rng) {
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = d(*rng);
  return v;
}

template <typename T>
std::vector<T> RandomInts(size_t n, int lo, int hi, std::mt19937* rng) {
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<T> v(n);
  for (T& x : v) x = static_cast<T>(d(*rng));
  return v;
}

int64_t Count(const Shape& s) { return NumElements(s); }

// Runs `setup`'s op with `threads` and returns the output bytes.
template <typename SetupFn>
std::vector<uint8_t> OutputBytes(const char* op_name, SetupFn setup, int threads) {
  std::mt19937 rng(20261130);
  OpRunner op(op_name);
  setup(&op, &rng);
  op.set_threads(threads);
  const Status s = op.Run();
  EXPECT_TRUE(s.ok()) << s.message();
  if (!s.ok()) return {};
  const Tensor& y = op.output();
  const auto* p = static_cast<const uint8_t*>(y.data);
  return std::vector<uint8_t>(p, p + y.bytes);
}

template <typename SetupFn>
void ExpectSameBitsOnAnyThreadCount(const char* op_name, SetupFn setup) {
  const std::vector<uint8_t> one = OutputBytes(op_name, setup, 1);
  ASSERT_FALSE(one.empty());
  for (int threads : {2, 3, 7}) {
    const std::vector<uint8_t> many = OutputBytes(op_name, setup, threads);
    ASSERT_EQ(many.size(), one.size());
    EXPECT_EQ(std::memcmp(many.data(), one.data(), one.size()), 0) << op_name << " differs on " << threads << " threads";
  }
}

void ConvAttrs(OpRunner* op, int64_t group, int64_t stride) {
  op->attrs().SetInts("kernel_shape", {3, 3});
  op->attrs().SetInts("strides", {stride, stride});
  op->attrs().SetInts("pads", {1, 0, 2, 1});
  op->attrs().SetInt("group", group);
}

TEST(OpThreads, FloatConvGroupedStridedBatch2) {
  ExpectSameBitsOnAnyThreadCount("Conv", [](OpRunner* op, std::mt19937* rng) {
    ConvAttrs(op, 2, 2);
    const Shape xs{2, 8, 37, 41}, ws{14, 4, 3, 3};
    op->AddFloatInput(xs, RandomFloats(Count(xs), rng));
    op->AddFloatInput(ws, RandomFloats(Count(ws), rng), true);
    op->AddFloatInput({14}, RandomFloats(14, rng), true);
  });
}

TEST(OpThreads, FloatDepthwiseConv) {
  ExpectSameBitsOnAnyThreadCount("Conv", [](OpRunner* op, std::mt19937* rng) {
    ConvAttrs(op, 29, 1);
    const Shape xs{1, 29, 64, 70}, ws{29, 1, 3, 3};
    op->AddFloatInput(xs, RandomFloats(Count(xs), rng));
    op->AddFloatInput(ws, RandomFloats(Count(ws), rng), true);
  });
}

// int8 input with a zero point, per-channel weights, int16 output.
TEST(OpThreads, QuantizedConvInt8InInt16Out) {
  ExpectSameBitsOnAnyThreadCount("Conv", [](OpRunner* op, std::mt19937* rng) {
    ConvAttrs(op, 1, 1);
    op->attrs().SetString("output_type", "INT16");
    const Shape xs{2, 6, 31, 33}, ws{11, 6, 3, 3};
    op->AddInput<int8_t>(xs, RandomInts<int8_t>(Count(xs), -128, 127, rng), DataType::kInt8);
    op->SetInputQuant(0, PerTensor(0.05f, -7));
    op->AddInput<int8_t>(ws, RandomInts<int8_t>(Count(ws), -127, 127, rng), DataType::kInt8, true);
    std::vector<float> w_scales(11);
    for (size_t m = 0; m < w_scales.size(); ++m) w_scales[m] = 0.001f * static_cast<float>(m + 1);
    op->SetInputQuant(1, PerAxis(w_scales, 0));
    op->AddInput<int32_t>({11}, RandomInts<int32_t>(11, -5000, 5000, rng), DataType::kInt32, true);
    op->SetOutputQuant(0, PerTensor(0.0005f, 0));
  });
}

TEST(OpThreads, QuantizedDepthwiseConvInt16) {
  ExpectSameBitsOnAnyThreadCount("Conv", [](OpRunner* op, std::mt19937* rng) {
    ConvAttrs(op, 24, 2);
    const Shape xs{1, 24, 80, 90}, ws{24, 1, 3, 3};
    op->AddInput<int16_t>(xs, RandomInts<int16_t>(Count(xs), -32768, 32767, rng), DataType::kInt16);
    op->SetInputQuant(0, PerTensor(0.0001f, 0));
    op->AddInput<int8_t>(ws, RandomInts<int8_t>(Count(ws), -127, 127, rng), DataType::kInt8, true);
    op->SetInputQuant(1, PerTensor(0.01f));
    op->SetOutputQuant(0, PerTensor(0.002f, 3));
  });
}

void ConvTransposeAttrs(OpRunner* op, int64_t group) {
  op->attrs().SetInts("kernel_shape", {2, 3});
  op->attrs().SetInts("strides", {2, 2});
  op->attrs().SetInts("pads", {0, 1, 0, 1});
  op->attrs().SetInt("group", group);
}

TEST(OpThreads, FloatConvTransposeGroupedBatch2) {
  ExpectSameBitsOnAnyThreadCount("ConvTranspose", [](OpRunner* op, std::mt19937* rng) {
    ConvTransposeAttrs(op, 3);
    const Shape xs{2, 12, 30, 27}, ws{12, 5, 2, 3};
    op->AddFloatInput(xs, RandomFloats(Count(xs), rng));
    op->AddFloatInput(ws, RandomFloats(Count(ws), rng), true);
    op->AddFloatInput({15}, RandomFloats(15, rng), true);
  });
}

TEST(OpThreads, QuantizedConvTranspose) {
  ExpectSameBitsOnAnyThreadCount("ConvTranspose", [](OpRunner* op, std::mt19937* rng) {
    ConvTransposeAttrs(op, 1);
    const Shape xs{1, 16, 40, 38}, ws{16, 7, 2, 3};
    op->AddInput<int8_t>(xs, RandomInts<int8_t>(Count(xs), -128, 127, rng), DataType::kInt8);
    op->SetInputQuant(0, PerTensor(0.02f, 12));
    op->AddInput<int8_t>(ws, RandomInts<int8_t>(Count(ws), -127, 127, rng), DataType::kInt8, true);
    op->SetInputQuant(1, PerTensor(0.01f));
    op->AddInput<int32_t>({7}, RandomInts<int32_t>(7, -3000, 3000, rng), DataType::kInt32, true);
    op->SetOutputQuant(0, PerTensor(0.05f, -4));
  });
}

TEST(OpThreads, FloatGemmTransposedBWithC) {
  ExpectSameBitsOnAnyThreadCount("Gemm", [](OpRunner* op, std::mt19937* rng) {
    op->attrs().SetInt("transB", 1);
    op->attrs().SetFloat("alpha", 0.5f);
    op->AddFloatInput({67, 130}, RandomFloats(67 * 130, rng));
    op->AddFloatInput({45, 130}, RandomFloats(45 * 130, rng), true);
    op->AddFloatInput({45}, RandomFloats(45, rng), true);
  });
}

TEST(OpThreads, QuantizedGemmInt16Input) {
  ExpectSameBitsOnAnyThreadCount("Gemm", [](OpRunner* op, std::mt19937* rng) {
    op->AddInput<int16_t>({53, 120}, RandomInts<int16_t>(53 * 120, -32768, 32767, rng), DataType::kInt16);
    op->SetInputQuant(0, PerTensor(0.0002f, 0));
    op->AddInput<int8_t>({120, 41}, RandomInts<int8_t>(120 * 41, -127, 127, rng), DataType::kInt8, true);
    op->SetInputQuant(1, PerTensor(0.01f));
    op->SetOutputQuant(0, PerTensor(0.03f, 5));
  });
}

TEST(OpThreads, FloatBatchedMatMulRowsAcrossMatrices) {
  ExpectSameBitsOnAnyThreadCount("MatMul", [](OpRunner* op, std::mt19937* rng) {
    op->AddFloatInput({3, 25, 64}, RandomFloats(3 * 25 * 64, rng));
    op->AddFloatInput({3, 64, 37}, RandomFloats(3 * 64 * 37, rng));
  });
}

TEST(OpThreads, QuantizedMatMulActivationTimesActivation) {
  ExpectSameBitsOnAnyThreadCount("MatMul", [](OpRunner* op, std::mt19937* rng) {
    op->AddInput<int8_t>({2, 31, 96}, RandomInts<int8_t>(2 * 31 * 96, -128, 127, rng), DataType::kInt8);
    op->SetInputQuant(0, PerTensor(0.02f, -3));
    op->AddInput<int8_t>({2, 96, 29}, RandomInts<int8_t>(2 * 96 * 29, -128, 127, rng), DataType::kInt8);
    op->SetInputQuant(1, PerTensor(0.03f, 9));
    op->SetOutputQuant(0, PerTensor(0.5f, 1));
  });
}

// Below ThreadsFor's size an op stays on the calling thread; above it the pool takes slices.
TEST(OpThreads, FloatGlobalAveragePoolAndMaxPool) {
  for (const char* name : {"GlobalAveragePool", "GlobalMaxPool"}) {
    ExpectSameBitsOnAnyThreadCount(name, [](OpRunner* op, std::mt19937* rng) {
      const Shape xs{2, 37, 41, 43};
      op->AddFloatInput(xs, RandomFloats(Count(xs), rng));
    });
  }
}

TEST(OpThreads, QuantizedGlobalAveragePoolInt16) {
  ExpectSameBitsOnAnyThreadCount("GlobalAveragePool", [](OpRunner* op, std::mt19937* rng) {
    const Shape xs{2, 37, 41, 43};
    op->AddInput<int16_t>(xs, RandomInts<int16_t>(Count(xs), -32768, 32767, rng), DataType::kInt16);
    op->SetInputQuant(0, PerTensor(0.0003f, 0));
    op->SetOutputQuant(0, PerTensor(0.0002f, 0));
  });
}

TEST(OpThreads, SmallOpsStayOnOneThread) {
  OpNode node;
  node.threads = 4;
  EXPECT_EQ(ThreadsFor(node, 1000), 1);
  EXPECT_EQ(ThreadsFor(node, int64_t{1} << 20), 4);
}

}  // namespace
}  // namespace npurt
