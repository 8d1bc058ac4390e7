// Ops that declare they run on channels-last tensors (OpNode::channels_last_io,
// layout_agnostic, layout_tied; runtime/core/layout_pass.h) give the bits of
// their ONNX-layout run: each case runs the op on random operands twice, once
// in NCHW and once with its rank-4 operands stored NHWC (OpRunner converts in
// and back), and compares the outputs byte for byte. The NCHW runs themselves
// are checked against oracles in the ops' own tests. Run under every
// NPURT_CPU_TARGET (op_tests_cpu_target_*), so each kernel the op may choose
// walks the channels-last order.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "runtime/kernels/dispatch.h"
#include "tests/ops/int8_oracle.h"
#include "tests/ops/kernel_harness.h"
#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;
using testing::PerTensor;

struct Operand {
  Shape shape;
  DataType type = DataType::kFloat32;
  bool constant = false;
  std::vector<uint8_t> bytes;  // filled by Randomize
  QuantInfo quant;
};

// Random values: codes over the type's whole range, floats around zero with a few exact zeros.
void Randomize(Operand* o, std::mt19937* rng) {
  const int64_t n = NumElements(o->shape);
  o->bytes.resize(static_cast<size_t>(n) * DataTypeSize(o->type));
  if (o->type == DataType::kFloat32) {
    std::normal_distribution<float> value(0.0f, 3.0f);
    for (int64_t i = 0; i < n; ++i) {
      const float v = i % 17 == 0 ? 0.0f : value(*rng);
      std::memcpy(o->bytes.data() + i * 4, &v, 4);
    }
    return;
  }
  const int bits = o->type == DataType::kInt16 ? 16 : 8;
  o->bytes = testing::RandomActivationBytes(rng, o->type, n);
  std::uniform_real_distribution<float> scale(bits == 16 ? 1e-4f : 0.01f, bits == 16 ? 1e-3f : 0.1f);
  std::uniform_int_distribution<int32_t> zero_point(-20, 20);
  o->quant = PerTensor(scale(*rng), zero_point(*rng));
}

// What prepare declared about layouts.
struct LayoutFlags {
  bool channels_last_io = false, layout_agnostic = false, layout_tied = false;
};

struct Result {
  std::vector<uint8_t> bytes;
  LayoutFlags flags;
};

// Runs op_type on `inputs` (plus `extra` inputs such as Resize's scales) with every rank-4 input and the
// output channels-last or not.
Result RunOnce(const std::string& op_type, const std::function<void(OpRunner*)>& attrs,
               const std::vector<Operand>& inputs, const std::function<void(OpRunner*)>& extra, DataType out_type,
               const QuantInfo& out_quant, bool channels_last, int threads, Status* status) {
  OpRunner op(op_type);
  attrs(&op);
  op.set_threads(threads);
  for (size_t i = 0; i < inputs.size(); ++i) {
    op.AddInput(inputs[i].shape, inputs[i].bytes, inputs[i].type, inputs[i].constant);
    if (!inputs[i].quant.empty()) op.SetInputQuant(i, inputs[i].quant);
  }
  extra(&op);
  if (out_type != DataType::kFloat32) op.SetOutputQuant(0, out_quant);
  std::vector<bool> last(inputs.size(), false);
  for (size_t i = 0; i < inputs.size(); ++i) last[i] = channels_last && inputs[i].shape.size() == 4 && !inputs[i].constant;
  op.SetChannelsLast(last, channels_last);
  *status = op.Run();
  Result r;
  if (!status->ok()) return r;
  r.bytes = op.OutputValues<uint8_t>();
  r.flags.channels_last_io = op.node().channels_last_io;
  r.flags.layout_agnostic = op.node().layout_agnostic;
  r.flags.layout_tied = op.node().layout_tied;
  return r;
}

// Both layouts (when prepare offers channels-last), one and three threads; returns prepare's layout flags.
LayoutFlags ExpectSameBits(const std::string& op_type, const std::function<void(OpRunner*)>& attrs,
                      const std::vector<Operand>& inputs, DataType out_type, QuantInfo out_quant = {},
                      const std::function<void(OpRunner*)>& extra = [](OpRunner*) {}) {
  if (out_type != DataType::kFloat32 && out_quant.empty()) out_quant = PerTensor(0.05f, 3);
  Status s;
  const Result plain = RunOnce(op_type, attrs, inputs, extra, out_type, out_quant, false, 1, &s);
  EXPECT_TRUE(s.ok()) << s.message();
  const LayoutFlags& f = plain.flags;
  if (!f.channels_last_io && !f.layout_agnostic && !f.layout_tied) return f;  // the ONNX layout only
  for (int threads : {1, 3}) {
    const Result last = RunOnce(op_type, attrs, inputs, extra, out_type, out_quant, true, threads, &s);
    EXPECT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(last.bytes, plain.bytes) << op_type << " channels-last on " << threads << " thread(s)";
  }
  return plain.flags;
}

const DataType kQuantizedTypes[] = {DataType::kInt8, DataType::kInt16};

// ---- Elementwise binary ops with broadcasting ----

TEST(ChannelsLast, BinaryWithPerChannelAndSpatialOperandsKeepsTheBits) {
  std::mt19937 rng(11);
  const Shape x_shape = {2, 19, 5, 7};
  // Operands that read the same in both layouts: per channel (rank 4 and 3), one spatial map, a single value.
  const std::vector<Shape> other_shapes = {{1, 19, 1, 1}, {19, 1, 1}, {2, 1, 5, 7}, {1}, {2, 19, 5, 7}};
  for (const char* op_type : {"Add", "Sub", "Mul"}) {
    for (DataType type : {DataType::kFloat32, DataType::kInt8, DataType::kInt16}) {
      for (const Shape& other : other_shapes) {
        for (bool swap : {false, true}) {
          Operand x{x_shape, type}, y{other, type, /*constant=*/other.size() < 4};
          Randomize(&x, &rng);
          Randomize(&y, &rng);
          std::vector<Operand> inputs = swap ? std::vector<Operand>{y, x} : std::vector<Operand>{x, y};
          SCOPED_TRACE(std::string(op_type) + " " + DataTypeName(type) + " other " + ShapeToString(other) +
                       (swap ? " first" : " second"));
          const LayoutFlags flags = ExpectSameBits(op_type, [](OpRunner*) {}, inputs, type);
          EXPECT_TRUE(flags.layout_agnostic);
        }
      }
    }
  }
}

TEST(ChannelsLast, QuantizedBinaryWithFloatPerChannelConstant) {
  // The hybrid scheme's learnable affine after smoothing: int16 x times a float (1, C, 1, 1) constant.
  std::mt19937 rng(12);
  for (const char* op_type : {"Mul", "Add"}) {
    Operand x{{1, 40, 6, 9}, DataType::kInt16}, y{{1, 40, 1, 1}, DataType::kFloat32, true};
    Randomize(&x, &rng);
    Randomize(&y, &rng);
    for (DataType out : kQuantizedTypes) {
      const LayoutFlags flags = ExpectSameBits(op_type, [](OpRunner*) {}, {x, y}, out, PerTensor(2e-3f, -7));
      EXPECT_TRUE(flags.layout_agnostic);
    }
  }
}

TEST(ChannelsLast, BinaryBroadcastAlongOneSpatialDimStaysInTheOnnxLayout) {
  // (1, C, H, 1) reads differently per layout: the op must not offer channels-last.
  OpRunner op("Add");
  op.AddFloatInput({1, 3, 4, 5}, std::vector<float>(60, 1.0f));
  op.AddFloatInput({1, 3, 4, 1}, std::vector<float>(12, 2.0f), true);
  ASSERT_TRUE(op.Run().ok());
  EXPECT_FALSE(op.node().layout_agnostic);
  OpRunner rank5("Mul");
  rank5.AddFloatInput({1, 2, 3, 4, 5}, std::vector<float>(120, 1.0f));
  rank5.AddFloatInput({1, 2, 1, 1, 1}, std::vector<float>(2, 2.0f), true);
  ASSERT_TRUE(rank5.Run().ok());
  EXPECT_FALSE(rank5.node().layout_agnostic);
}

// ---- Global pools ----

TEST(ChannelsLast, GlobalPoolsKeepTheBits) {
  std::mt19937 rng(13);
  // Channel counts around the kernel's block of 256 channels, pixels from 1 to a few hundred.
  const std::vector<Shape> shapes = {{1, 3, 1, 1}, {2, 19, 5, 7}, {1, 300, 3, 4}, {1, 256, 20, 20}, {3, 513, 2, 1}};
  for (const char* op_type : {"GlobalAveragePool", "GlobalMaxPool"}) {
    for (DataType type : {DataType::kFloat32, DataType::kInt8, DataType::kInt16}) {
      for (const Shape& shape : shapes) {
        Operand x{shape, type};
        Randomize(&x, &rng);
        SCOPED_TRACE(std::string(op_type) + " " + DataTypeName(type) + " " + ShapeToString(shape));
        const QuantInfo out_quant = type == DataType::kFloat32 ? QuantInfo{} : PerTensor(x.quant.scale[0] * 1.5f, -2);
        const LayoutFlags flags = ExpectSameBits(op_type, [](OpRunner*) {}, {x}, type, out_quant);
        EXPECT_TRUE(flags.channels_last_io);
      }
    }
  }
}

TEST(ChannelsLast, GlobalPoolNamesItsChannelsLastKernel) {
  OpRunner op("GlobalAveragePool");
  op.AddFloatInput({1, 2, 2, 2}, std::vector<float>(8, 1.0f));
  ASSERT_TRUE(op.Run().ok());
  ASSERT_NE(op.node().channels_last_kernel, nullptr);
  EXPECT_STREQ(op.node().channels_last_kernel, "global_pool__nhwc");
}

// ---- Nearest Resize ----

TEST(ChannelsLast, NearestResizeKeepsTheBitsInEveryLayoutPair) {
  std::mt19937 rng(14);
  struct Case {
    Shape in;
    std::vector<float> scales;
  };
  const std::vector<Case> cases = {{{1, 24, 5, 5}, {1, 1, 2, 2}}, {{2, 7, 3, 4}, {1, 1, 3, 1.5f}},
                                   {{1, 96, 8, 6}, {1, 1, 0.5f, 0.5f}}, {{1, 5, 4, 4}, {1, 2, 2, 2}}};
  for (DataType type : {DataType::kFloat32, DataType::kInt8, DataType::kInt16}) {
    for (const Case& c : cases) {
      for (bool requantize : {false, true}) {
        Operand x{c.in, type};
        Randomize(&x, &rng);
        // int8 with other output parameters goes through a table; int16 keeps them (the row kernel's case).
        QuantInfo out_quant = x.quant;
        if (requantize && type == DataType::kInt8) out_quant = PerTensor(x.quant.scale[0] * 1.3f, 5);
        SCOPED_TRACE(std::string(DataTypeName(type)) + " " + ShapeToString(c.in) + (requantize ? " requantized" : ""));
        const auto scales = [&c](OpRunner* op) {
          op->AddAbsentInput();
          op->AddFloatInput({4}, c.scales, true);
        };
        const LayoutFlags flags = ExpectSameBits(
            "Resize", [](OpRunner* op) { op->attrs().SetString("mode", "nearest"); }, {x}, type, out_quant, scales);
        // Under NPURT_CPU_TARGET=ref the reference kernel runs, in the ONNX layout only.
        EXPECT_EQ(flags.channels_last_io, ActiveCpuTarget() != CpuTarget::kRef);
      }
    }
  }
}

// ---- Concat ----

TEST(ChannelsLast, ConcatKeepsTheBitsOnEveryAxis) {
  std::mt19937 rng(15);
  for (DataType type : {DataType::kFloat32, DataType::kInt8, DataType::kInt16}) {
    for (int axis : {0, 1, 2, 3, -3}) {
      std::vector<Operand> inputs;
      for (int64_t length : {3, 1, 8}) {
        Shape shape = {2, 5, 4, 3};
        shape[static_cast<size_t>(axis < 0 ? axis + 4 : axis)] = length;
        Operand x{shape, type};
        Randomize(&x, &rng);
        if (type != DataType::kFloat32 && length == 1) x.quant = PerTensor(0.05f, 3);  // one copied input
        inputs.push_back(x);
      }
      SCOPED_TRACE(std::string(DataTypeName(type)) + " axis " + std::to_string(axis));
      const LayoutFlags flags =
          ExpectSameBits("Concat", [axis](OpRunner* op) { op->attrs().SetInt("axis", axis); }, inputs, type);
      EXPECT_TRUE(flags.layout_tied);
    }
  }
}

}  // namespace
}  // namespace npurt
