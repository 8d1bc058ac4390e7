// The emitter's storage assignment and memory plan.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "runtime/core/model.h"
#include "runtime/ops/op.h"
#include "tests/common/test_models.h"

namespace npurt {
namespace {

TEST(Emitter, AssignsStorageByRole) {
  std::shared_ptr<const Model> m;
  const auto file = testing::EmitOrDie(testing::ConvReluPoolGraph());
  ASSERT_TRUE(Model::Load(file.data(), file.size(), &m).ok());
  for (const TensorDesc& t : m->tensors()) {
    if (t.name == "x") EXPECT_EQ(t.storage, Storage::kInput);
    if (t.name == "y" || t.name == "z") EXPECT_EQ(t.storage, Storage::kOutput);
    if (t.name == "conv.weight" || t.name == "conv.bias") EXPECT_EQ(t.storage, Storage::kConstant);
    if (t.name == "conv:out") EXPECT_EQ(t.storage, Storage::kArena);
  }
  EXPECT_EQ(m->arena_size(), 128u);  // conv:out = 2*4*4 floats = 128 bytes
  EXPECT_EQ(m->target_platform(), "rk3588");
}

TEST(Emitter, ChainReusesArena) {
  // x -> Relu -> Relu -> Relu -> Relu -> y: at most two intermediates live at once.
  compiler::Graph g;
  int t = g.AddTensor("x", {1, 1024}, DataType::kFloat32);
  g.AddInput(t);
  for (int i = 0; i < 4; ++i) t = g.AddNode("Relu", {t});
  g.AddOutput(t);
  std::shared_ptr<const Model> m;
  const auto file = testing::EmitOrDie(g);
  ASSERT_TRUE(Model::Load(file.data(), file.size(), &m).ok());
  EXPECT_EQ(m->arena_size(), 2u * 4096u);
}

TEST(Emitter, ViewsShareTheirInputsBytes) {
  std::shared_ptr<const Model> m;
  const auto file = testing::EmitOrDie(testing::ViewChainGraph());
  ASSERT_TRUE(Model::Load(file.data(), file.size(), &m).ok());
  std::map<std::string, uint64_t> offset;
  for (const TensorDesc& t : m->tensors()) offset[t.name] = t.offset;
  EXPECT_EQ(offset.at("f:out"), offset.at("a:out"));
  EXPECT_EQ(offset.at("r:out"), offset.at("b:out"));
  // a (with its view f) is live until the Add, beside b (with its view r): two buffers of 64 bytes.
  EXPECT_NE(offset.at("a:out"), offset.at("b:out"));
  EXPECT_EQ(m->arena_size(), 128u);
}

TEST(Emitter, ViewOfAGraphInputIsACopy) {
  compiler::Graph g;
  const int x = g.AddTensor("x", {2, 3}, DataType::kFloat32);
  g.AddInput(x);
  const int f = g.AddNode("Flatten", {x}, {}, 1, "f");
  g.AddOutput(g.AddNode("Relu", {f}, {}, 1, "relu"));
  std::shared_ptr<const Model> m;
  const auto file = testing::EmitOrDie(g);
  ASSERT_TRUE(Model::Load(file.data(), file.size(), &m).ok());
  for (const TensorDesc& t : m->tensors()) {
    if (t.name == "f:out") EXPECT_EQ(t.storage, Storage::kArena);
  }
  EXPECT_EQ(m->arena_size(), 64u);
}

TEST(Emitter, InputUsedDirectlyAsOutputGetsACopy) {
  compiler::Graph g;
  const int x = g.AddTensor("x", {2, 2}, DataType::kFloat32);
  g.AddInput(x);
  g.AddOutput(x);
  std::shared_ptr<const Model> m;
  const auto file = testing::EmitOrDie(g);
  ASSERT_TRUE(Model::Load(file.data(), file.size(), &m).ok());
  ASSERT_EQ(m->ops().size(), 1u);
  EXPECT_STREQ(m->ops()[0].def->name, "Identity");
}

TEST(Emitter, RejectsUnknownPlatformAndOp) {
  compiler::Graph g = testing::AddMulGraph();
  ASSERT_TRUE(g.InferShapes().ok());
  compiler::EmitOptions o;
  o.target_platform = "rk9999";
  std::vector<uint8_t> file;
  EXPECT_EQ(compiler::EmitModel(g, o, &file).code(), StatusCode::kParamInvalid);
  compiler::Graph bad;
  const int x = bad.AddTensor("x", {1}, DataType::kFloat32);
  bad.AddInput(x);
  bad.AddOutput(bad.AddNode("NoSuchOp", {x}));
  EXPECT_EQ(bad.InferShapes().code(), StatusCode::kModelInvalid);
}

}  // namespace
}  // namespace npurt

namespace npurt {
namespace {

// Scalars (rank 0) have an empty shape vector, which FlatBuffers need not align.
TEST(Emitter, ScalarTensorsRoundTrip) {
  compiler::Graph g;
  const int x = g.AddTensor("x", {}, DataType::kFloat32);
  g.AddInput(x);
  const int two = g.AddFloatConstant("two", {}, {2.0f});
  g.AddOutput(g.AddNode("Mul", {x, two}));
  const auto file = testing::EmitOrDie(g);
  std::shared_ptr<const Model> m;
  const Status s = Model::Load(file.data(), file.size(), &m);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(m->tensors()[m->inputs()[0].tensor].shape.empty());
}

}  // namespace
}  // namespace npurt
