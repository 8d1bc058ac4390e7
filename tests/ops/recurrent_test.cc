// RNN / GRU / LSTM (runtime/ops/recurrent.cc): one-unit cases computed by hand, sequence lengths,
// activations with parameters, and rejections. (ONNX's node tests and ONNX Runtime's random cases
// cover the rest.)
#include <gtest/gtest.h>

#include <cmath>

#include "tests/ops/op_runner.h"

namespace npurt {
namespace {

using testing::ExpectAllNear;
using testing::OpRunner;

float Sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

TEST(RecurrentOp, RnnStepsByHand) {
  // h1 = tanh(0.5 * 1 + 0.25 * 0 + 0.1), h2 = tanh(0.5 * 2 + 0.25 * h1 + 0.1).
  OpRunner op("RNN");
  op.attrs().SetInt("hidden_size", 1);
  op.AddFloatInput({2, 1, 1}, {1, 2});
  op.AddFloatInput({1, 1, 1}, {0.5f}, true);
  op.AddFloatInput({1, 1, 1}, {0.25f}, true);
  op.AddFloatInput({1, 2}, {0.1f, 0}, true);
  ASSERT_TRUE(op.Run(2).ok());
  const float h1 = std::tanh(0.6f), h2 = std::tanh(1.1f + 0.25f * h1);
  ExpectAllNear(op.FloatOutput(0), {h1, h2}, 1e-6f);
  ExpectAllNear(op.FloatOutput(1), {h2}, 1e-6f);
}

TEST(RecurrentOp, LstmStepByHandWithPeepholes) {
  // One unit, one step, zero initial state: c = i * g, h = o * tanh(c), with o seeing c (peephole).
  OpRunner op("LSTM");
  op.attrs().SetInt("hidden_size", 1);
  op.AddFloatInput({1, 1, 1}, {1});
  op.AddFloatInput({1, 4, 1}, {0.5f, -0.5f, 0.25f, 2}, true);  // W: i, o, f, c
  op.AddFloatInput({1, 4, 1}, {0, 0, 0, 0}, true);
  op.AddAbsentInput();
  op.AddAbsentInput();
  op.AddAbsentInput();
  op.AddAbsentInput();
  op.AddFloatInput({1, 3}, {0, 0.75f, 0}, true);  // P: i, o, f
  ASSERT_TRUE(op.Run(3).ok());
  const float c = Sigmoid(0.5f) * std::tanh(2.0f);
  const float h = Sigmoid(-0.5f + 0.75f * c) * std::tanh(c);
  ExpectAllNear(op.FloatOutput(1), {h}, 1e-6f);
  ExpectAllNear(op.FloatOutput(2), {c}, 1e-6f);
}

TEST(RecurrentOp, SequenceLengthsZeroThePadding) {
  // Two sequences of lengths 2 and 1: the second's step 2 gives zeros and keeps its state.
  OpRunner op("GRU");
  op.attrs().SetInt("hidden_size", 1);
  op.AddFloatInput({2, 2, 1}, {1, 1, 1, 5});
  op.AddFloatInput({1, 3, 1}, {0.3f, 0.2f, 0.7f}, true);
  op.AddFloatInput({1, 3, 1}, {0.1f, 0.1f, 0.1f}, true);
  op.AddAbsentInput();
  op.AddInput<int32_t>({2}, {2, 1}, DataType::kInt32, true);
  ASSERT_TRUE(op.Run(2).ok());
  const std::vector<float> y = op.FloatOutput(0), y_h = op.FloatOutput(1);
  EXPECT_EQ(y[3], 0.0f);          // time 1 of sequence 1
  EXPECT_EQ(y_h[1], y[1]);        // its last state is its step 0
  EXPECT_NE(y_h[0], y[0]);        // sequence 0 ran on
}

TEST(RecurrentOp, ActivationsWithParametersAndRejections) {
  // ScaledTanh(alpha 2, beta 0.5) as RNN's function: h = 2 tanh(0.5 * x).
  OpRunner op("RNN");
  op.attrs().SetInt("hidden_size", 1);
  op.attrs().SetString("activations", "ScaledTanh");
  op.attrs().SetFloats("activation_alpha", {2.0f});
  op.attrs().SetFloats("activation_beta", {0.5f});
  op.AddFloatInput({1, 1, 1}, {1.5f});
  op.AddFloatInput({1, 1, 1}, {1}, true);
  op.AddFloatInput({1, 1, 1}, {0}, true);
  ASSERT_TRUE(op.Run().ok());
  ExpectAllNear(op.FloatOutput(0), {2.0f * std::tanh(0.75f)}, 1e-6f);

  auto code = [](const char* name, const char* key, const char* value, Shape w) {
    OpRunner r(name);
    r.attrs().SetInt("hidden_size", 1);
    if (key != nullptr) r.attrs().SetString(key, value);
    r.AddFloatInput({1, 1, 1}, {1});
    r.AddFloatInput(w, std::vector<float>(static_cast<size_t>(NumElements(w))), true);
    r.AddFloatInput({1, w[1], 1}, std::vector<float>(static_cast<size_t>(w[1])), true);
    return r.Run().code();
  };
  EXPECT_EQ(code("RNN", "activations", "Swish", {1, 1, 1}), StatusCode::kModelInvalid);
  EXPECT_EQ(code("RNN", "direction", "sideways", {1, 1, 1}), StatusCode::kModelInvalid);
  EXPECT_EQ(code("LSTM", nullptr, nullptr, {1, 3, 1}), StatusCode::kModelInvalid);  // 3 gates for LSTM
  EXPECT_EQ(code("GRU", "activations", "Sigmoid", {1, 3, 1}), StatusCode::kModelInvalid);  // needs 2
}

}  // namespace
}  // namespace npurt
