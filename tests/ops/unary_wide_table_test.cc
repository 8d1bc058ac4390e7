// The int16 unary activations (the hybrid scheme's) off the reference target:
// a table of the reference formula over every input code, looked up per
// element. Against the same op under NPURT_CPU_TARGET=ref (the formula per
// element), bit for bit: every op, int16 -> int16, int16 -> int8 and
// int8 -> int16, all 65536 (or 256) input codes, and Clip with constant bounds.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/kernels/dispatch.h"
#include "tests/ops/int8_oracle.h"
#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::OpRunner;
using testing::PerTensor;

// Runs `op_name` on every code of `in` (int8 or int16) to `out`; returns the output bytes and the kernel.
std::vector<uint8_t> RunEveryCode(const char* op_name, DataType in, DataType out, std::string* kernel) {
  OpRunner op(op_name);
  if (out != in) op.attrs().SetString("output_type", out == DataType::kInt16 ? "INT16" : "INT8");
  const bool in16 = in == DataType::kInt16;
  const int32_t count = in16 ? 65536 : 256, lo = in16 ? -32768 : -128;
  if (in16) {
    std::vector<int16_t> codes(static_cast<size_t>(count));
    for (int32_t i = 0; i < count; ++i) codes[static_cast<size_t>(i)] = static_cast<int16_t>(lo + i);
    op.AddInput<int16_t>({1, count}, codes, DataType::kInt16);
    op.SetInputQuant(0, PerTensor(8.0f / 32768.0f, 311));
  } else {
    std::vector<int8_t> codes(static_cast<size_t>(count));
    for (int32_t i = 0; i < count; ++i) codes[static_cast<size_t>(i)] = static_cast<int8_t>(lo + i);
    op.AddInput<int8_t>({1, count}, codes, DataType::kInt8);
    op.SetInputQuant(0, PerTensor(8.0f / 128.0f, -3));
  }
  if (std::string(op_name) == "Clip") {
    op.AddInput<float>({}, {-1.5f}, DataType::kFloat32, true);
    op.AddInput<float>({}, {2.25f}, DataType::kFloat32, true);
  }
  op.SetOutputQuant(0, out == DataType::kInt16 ? PerTensor(4.0f / 32768.0f, -17) : PerTensor(4.0f / 128.0f, 5));
  const Status s = op.Run();
  EXPECT_TRUE(s.ok()) << op_name << ": " << s.message();
  *kernel = op.node().kernel;
  const Tensor& y = op.output();
  const uint8_t* bytes = y.as<uint8_t>();
  return std::vector<uint8_t>(bytes, bytes + y.bytes);
}

TEST(UnaryWideTable, EveryCodeGivesTheReferenceFormulasBits) {
  if (ActiveCpuTarget() == CpuTarget::kRef) GTEST_SKIP() << "the reference target computes the formula";
  const DataType mixes[][2] = {{DataType::kInt16, DataType::kInt16},
                               {DataType::kInt16, DataType::kInt8},
                               {DataType::kInt8, DataType::kInt16}};
  for (const char* name : {"Relu", "Clip", "LeakyRelu", "Sigmoid", "HardSigmoid", "HardSwish", "Tanh", "Exp", "Log",
                           "Sqrt", "Erf", "Sin", "Elu", "Softplus", "Mish", "Round", "Sign"}) {
    for (const auto& mix : mixes) {
      std::string kernel, ref_kernel;
      std::vector<uint8_t> want;
      {
        const ScopedCpuTargetCap reference(CpuTarget::kRef);
        want = RunEveryCode(name, mix[0], mix[1], &ref_kernel);
      }
      const std::vector<uint8_t> got = RunEveryCode(name, mix[0], mix[1], &kernel);
      EXPECT_EQ(ref_kernel, "ref");
      EXPECT_EQ(kernel, "quantized_unary__table") << name;
      ASSERT_EQ(got, want) << name << " " << DataTypeName(mix[0]) << " -> " << DataTypeName(mix[1]);
    }
  }
}

}  // namespace
}  // namespace npurt
