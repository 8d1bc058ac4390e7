// Semantic verification at load: files whose container and FlatBuffers are
// intact but whose contents lie (indices, bounds, plan, shapes) are rejected
// with kModelInvalid, before anything runs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>

#include "format/model_file.h"
#include "format/model_generated.h"
#include "runtime/core/context.h"
#include "runtime/core/model.h"
#include "tests/common/test_models.h"

namespace npurt {
namespace {

// Edits the fixture's payload in place through the mutable FlatBuffers API, then reseals.
std::vector<uint8_t> Mutated(const std::function<void(fb::Model*)>& edit,
                             const compiler::Graph& graph = testing::ConvReluPoolGraph()) {
  std::vector<uint8_t> file = testing::EmitOrDie(graph);
  ModelFileHeader h;
  std::memcpy(&h, file.data(), sizeof(h));
  edit(fb::GetMutableModel(file.data() + h.payload_offset));
  ResealModelFile(file.data(), file.size());
  return file;
}

fb::Tensor* TensorNamed(fb::Model* m, const std::string& name) {
  for (flatbuffers::uoffset_t i = 0; i < m->tensors()->size(); ++i) {
    fb::Tensor* t = m->mutable_tensors()->GetMutableObject(i);
    if (t->name()->str() == name) return t;
  }
  return nullptr;
}

// Loads and prepares, as rknn_init does.
Status LoadAndPrepare(const std::vector<uint8_t>& file) {
  std::shared_ptr<const Model> model;
  NPURT_RETURN_IF_ERROR(Model::Load(file.data(), file.size(), &model));
  std::unique_ptr<Context> ctx;
  return Context::Create(model, ContextOptions(), &ctx);
}

void ExpectInvalid(const std::vector<uint8_t>& file, const std::string& words) {
  const Status s = LoadAndPrepare(file);
  EXPECT_EQ(s.code(), StatusCode::kModelInvalid) << s.message();
  EXPECT_NE(s.message().find(words), std::string::npos) << "message: " << s.message();
}

TEST(ModelLoader, AcceptsTheFixture) { EXPECT_TRUE(LoadAndPrepare(testing::EmitOrDie(testing::ConvReluPoolGraph())).ok()); }

TEST(ModelLoader, RejectsConstantOutsideWeights) {
  ExpectInvalid(Mutated([](fb::Model* m) { TensorNamed(m, "conv.weight")->mutate_offset(1ull << 40); }), "outside the weights");
}

TEST(ModelLoader, RejectsArenaTensorOutsideArena) {
  ExpectInvalid(Mutated([](fb::Model* m) { TensorNamed(m, "conv:out")->mutate_offset(1ull << 33); }), "arena");
}

TEST(ModelLoader, RejectsSizeThatDisagreesWithShape) {
  ExpectInvalid(Mutated([](fb::Model* m) { TensorNamed(m, "conv.weight")->mutate_size(8); }), "needs");
}

TEST(ModelLoader, RejectsSharedWeightsWithoutAContentHashAndUnknownStorage) {
  // conv.weight (216 bytes) as another model's weight (remove_weight): found by its content hash only.
  ExpectInvalid(Mutated([](fb::Model* m) {
                  fb::Tensor* w = TensorNamed(m, "conv.weight");
                  w->mutate_storage(fb::Storage::SHARED);
                  w->mutate_content_hash(0);
                }),
                "has no content hash");
  ExpectInvalid(Mutated([](fb::Model* m) { TensorNamed(m, "conv.weight")->mutate_storage(static_cast<fb::Storage>(5)); }),
                "unknown storage 5");
  // With a hash it loads, and is a constant no op may write.
  std::vector<uint8_t> file = Mutated([](fb::Model* m) {
    fb::Tensor* w = TensorNamed(m, "conv.weight");
    w->mutate_storage(fb::Storage::SHARED);
    w->mutate_content_hash(0x1234567);
  });
  std::shared_ptr<const Model> model;
  ASSERT_TRUE(Model::Load(file.data(), file.size(), &model).ok());
  EXPECT_TRUE(model->has_shared_constants());
  const std::vector<uint8_t> written = Mutated([](fb::Model* m) {
    fb::Tensor* out = TensorNamed(m, "conv:out");
    out->mutate_storage(fb::Storage::SHARED);
    out->mutate_content_hash(0x1234567);
  });
  const Status s = Model::Load(written.data(), written.size(), &model);
  EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
  EXPECT_NE(s.message().find("which is a constant"), std::string::npos) << s.message();
}

TEST(ModelLoader, RejectsAFloatTypeOtherThanFp32OrFp16) {
  ExpectInvalid(Mutated([](fb::Model* m) { m->mutate_float_dtype(fb::DataType::INT8); }), "model float type is INT8");
}

TEST(ModelLoader, RejectsFp16StorageOfAnythingButAFloat32Constant) {
  ExpectInvalid(Mutated([](fb::Model* m) { TensorNamed(m, "conv:out")->mutate_stored_as(fb::DataType::FLOAT16); }),
                "only float32 constants may be stored as fp16");
  ExpectInvalid(Mutated([](fb::Model* m) { TensorNamed(m, "conv.weight")->mutate_stored_as(fb::DataType::INT8); }),
                "only float32 constants may be stored as fp16");
  // The fixture's float32 bytes are twice what fp16 storage of that shape needs.
  ExpectInvalid(Mutated([](fb::Model* m) { TensorNamed(m, "conv.weight")->mutate_stored_as(fb::DataType::FLOAT16); }),
                "stored as fp16 records");
}

TEST(ModelLoader, WidensFp16ConstantsIntoFloat32) {
  // conv.weight stored as fp16 over the first half of its own bytes: loads, and reads as those fp16 values.
  std::vector<uint8_t> file = Mutated([](fb::Model* m) {
    fb::Tensor* w = TensorNamed(m, "conv.weight");
    w->mutate_stored_as(fb::DataType::FLOAT16);
    w->mutate_size(w->size() / 2);
  });
  std::shared_ptr<const Model> model;
  ASSERT_TRUE(Model::Load(file.data(), file.size(), &model).ok());
  for (const TensorDesc& t : model->tensors()) {
    if (t.name != "conv.weight") continue;
    EXPECT_EQ(t.dtype, DataType::kFloat32);
    EXPECT_FALSE(t.stored_half);
    ASSERT_EQ(t.size, static_cast<uint64_t>(NumElements(t.shape)) * 4);
    const std::vector<uint8_t> original = testing::EmitOrDie(testing::ConvReluPoolGraph());
    std::shared_ptr<const Model> plain;
    ASSERT_TRUE(Model::Load(original.data(), original.size(), &plain).ok());
    const TensorDesc* p = nullptr;
    for (const TensorDesc& q : plain->tensors()) p = q.name == t.name ? &q : p;
    ASSERT_NE(p, nullptr);
    const uint8_t* half_bytes = plain->weights() + p->offset;  // what the mutated file's fp16 view reads
    const float* widened = reinterpret_cast<const float*>(model->weights() + t.offset);
    for (int64_t i = 0; i < NumElements(t.shape); ++i) {
      uint16_t h;
      std::memcpy(&h, half_bytes + 2 * i, 2);
      const float want = HalfToFloat(h);
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(widened[i]));
      } else {
        EXPECT_EQ(widened[i], want) << i;
      }
    }
  }
}

TEST(ModelLoader, RejectsNegativeDims) {
  ExpectInvalid(Mutated([](fb::Model* m) { TensorNamed(m, "conv.weight")->mutable_shape()->Mutate(0, -2); }),
                "invalid shape");
}

TEST(ModelLoader, RejectsOpIndexOutOfRange) {
  ExpectInvalid(Mutated([](fb::Model* m) { m->mutable_ops()->GetMutableObject(0)->mutable_inputs()->Mutate(0, 999); }),
                "reads tensor 999");
}

TEST(ModelLoader, RejectsReadBeforeWrite) {
  // Relu (op 1) reading its own output: never written before it runs.
  ExpectInvalid(Mutated([](fb::Model* m) {
                  auto* relu = m->mutable_ops()->GetMutableObject(1);
                  relu->mutable_inputs()->Mutate(0, relu->outputs()->Get(0));
                }),
                "before anything writes it");
}

TEST(ModelLoader, RejectsWritingAConstant) {
  ExpectInvalid(Mutated([](fb::Model* m) {
                  auto* conv = m->mutable_ops()->GetMutableObject(0);
                  conv->mutable_outputs()->Mutate(0, conv->inputs()->Get(1));
                }),
                "constant");
}

TEST(ModelLoader, RejectsUnknownOpType) {
  ExpectInvalid(Mutated([](fb::Model* m) {
                  // "Relu" -> "Xelu": a FlatBuffers string is a length word followed by its bytes.
                  auto* type = m->mutable_ops()->GetMutableObject(1)->mutable_type();
                  const char x = 'X';
                  std::memcpy(reinterpret_cast<uint8_t*>(type) + sizeof(flatbuffers::uoffset_t), &x, 1);
                }),
                "does not support");
}

TEST(ModelLoader, RejectsOverlappingPlan) {
  // x -> Relu a -> Relu b -> Add(a, b): a and b are live together in the arena.
  compiler::Graph g;
  const int x = g.AddTensor("x", {1, 16}, DataType::kFloat32);
  g.AddInput(x);
  const int a = g.AddNode("Relu", {x}, {}, 1, "a");
  const int b = g.AddNode("Relu", {a}, {}, 1, "b");
  g.AddOutput(g.AddNode("Add", {a, b}, {}, 1, "sum"));
  ASSERT_TRUE(LoadAndPrepare(testing::EmitOrDie(g)).ok());
  ExpectInvalid(Mutated([](fb::Model* m) { TensorNamed(m, "b:out")->mutate_offset(TensorNamed(m, "a:out")->offset()); }, g),
                "overlap");
}

TEST(ModelLoader, AcceptsViewsOnTheirInputsBytesOnly) {
  const compiler::Graph g = testing::ViewChainGraph();
  ASSERT_TRUE(LoadAndPrepare(testing::EmitOrDie(g)).ok());
  // A view placed elsewhere on live bytes, or a computing op placed on its input's bytes, is an overlap.
  ExpectInvalid(Mutated([](fb::Model* m) { TensorNamed(m, "r:out")->mutate_offset(TensorNamed(m, "a:out")->offset()); }, g),
                "overlap");
  ExpectInvalid(Mutated([](fb::Model* m) { TensorNamed(m, "b:out")->mutate_offset(TensorNamed(m, "f:out")->offset()); }, g),
                "overlap");
}

TEST(ModelLoader, RejectsArenaSmallerThanPlan) {
  ExpectInvalid(Mutated([](fb::Model* m) { m->mutable_plan()->mutate_arena_size(64); }), "arena");
}

TEST(ModelLoader, RejectsShapeThatContradictsTheOp) {
  // The Relu output is recorded as [1,2,4,8] (same byte size check fails first
  // unless size is patched too): patch both so only the op's shape check catches it.
  ExpectInvalid(Mutated([](fb::Model* m) {
                  fb::Tensor* y = TensorNamed(m, "y");
                  y->mutable_shape()->Mutate(2, 2);
                  y->mutable_shape()->Mutate(3, 8);
                }),
                "computes to");
}

TEST(ModelLoader, RejectsIoRecordPointingElsewhere) {
  ExpectInvalid(Mutated([](fb::Model* m) { m->mutable_inputs()->GetMutableObject(0)->mutate_tensor(1); }), "input");
}

TEST(ModelLoader, RejectsBadNativeParameters) {
  ExpectInvalid(Mutated([](fb::Model* m) { m->mutable_outputs()->GetMutableObject(0)->mutate_native_c2(0); }), "C2");
}

// An int8 constant [2, 3] with per-channel parameters along axis 0, dequantized and added to the input.
compiler::Graph QuantizedConstantGraph(QuantInfo quant) {
  compiler::Graph g;
  const int x = g.AddTensor("x", {2, 3}, DataType::kFloat32);
  g.AddInput(x);
  const int w = g.AddConstant<int8_t>("w", {2, 3}, DataType::kInt8, {1, 2, 3, -1, -2, -3});
  g.tensors()[w].quant = std::move(quant);
  const int scale = g.AddFloatConstant("scale", {2}, {0.5f, 0.25f});
  Attributes axis;
  axis.SetInt("axis", 0);
  const int dequantized = g.AddNode("DequantizeLinear", {w, scale}, axis, 1, "dequantize");
  const int y = g.AddNode("Add", {dequantized, x}, {}, 1, "add");
  g.tensors()[y].name = "y";
  g.AddOutput(y);
  return g;
}

QuantInfo PerChannel(std::vector<float> scale, std::vector<int32_t> zero_point, int axis) {
  QuantInfo q;
  q.scale = std::move(scale);
  q.zero_point = std::move(zero_point);
  q.axis = axis;
  return q;
}

TEST(ModelLoader, AcceptsAndKeepsQuantParams) {
  const std::vector<uint8_t> file =
      testing::EmitOrDie(QuantizedConstantGraph(PerChannel({0.5f, 0.25f}, {0, 0}, 0)));
  std::shared_ptr<const Model> model;
  ASSERT_TRUE(Model::Load(file.data(), file.size(), &model).ok());
  for (const TensorDesc& t : model->tensors()) {
    if (t.name != "w") continue;
    EXPECT_EQ(t.quant.scale, (std::vector<float>{0.5f, 0.25f}));
    EXPECT_EQ(t.quant.axis, 0);
  }
  EXPECT_TRUE(LoadAndPrepare(file).ok());
}

TEST(ModelLoader, RejectsInconsistentQuantParams) {
  ExpectInvalid(testing::EmitOrDie(QuantizedConstantGraph(PerChannel({0.5f, 0.25f, 1.0f}, {}, 0))),
                "3 scales along axis 0");
  ExpectInvalid(testing::EmitOrDie(QuantizedConstantGraph(PerChannel({0.5f, 0.25f}, {}, 2))),
                "2 scales along axis 2");
  ExpectInvalid(testing::EmitOrDie(QuantizedConstantGraph(PerChannel({0.5f, 0.25f}, {}, -1))),
                "per-tensor quantization needs one scale");
  ExpectInvalid(testing::EmitOrDie(QuantizedConstantGraph(PerChannel({0.5f, 0.25f}, {0}, 0))),
                "1 zero points for 2 scales");
  ExpectInvalid(testing::EmitOrDie(QuantizedConstantGraph(PerChannel({0.5f, 0.25f}, {0, 200}, 0))),
                "zero point 200 is outside INT8");
  ExpectInvalid(testing::EmitOrDie(QuantizedConstantGraph(PerChannel({0.5f, -1.0f}, {}, 0))), "quant scale -1");
  compiler::Graph float_with_quant = testing::ConvReluPoolGraph();
  float_with_quant.tensors()[0].quant = PerChannel({1.0f}, {0}, -1);
  ExpectInvalid(testing::EmitOrDie(float_with_quant), "cannot carry quantization parameters");
}

TEST(ModelLoader, RejectsMissingFile) {
  std::shared_ptr<const Model> model;
  const Status s = Model::Load("/nonexistent/model.rknn", 0, &model);
  EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
  EXPECT_NE(s.message().find("/nonexistent/model.rknn"), std::string::npos);
}

}  // namespace
}  // namespace npurt

namespace npurt {
namespace {

// Dynamic-shape models: every shape set is verified like the root graph, and may differ from it in
// shapes only.
std::vector<uint8_t> DynamicModel(std::vector<compiler::Graph> sets) {
  for (compiler::Graph& g : sets) EXPECT_TRUE(g.InferShapes().ok());
  std::vector<uint8_t> file;
  EXPECT_TRUE(compiler::EmitDynamicModel(sets, 0, compiler::EmitOptions(), &file).ok());
  return file;
}

TEST(ModelLoaderDynamic, AcceptsTheFixtureAndSharesItsWeights) {
  std::shared_ptr<const Model> model;
  const std::vector<uint8_t> file = testing::DynamicConvReluPoolModel();
  ASSERT_TRUE(Model::Load(file.data(), file.size(), &model).ok());
  EXPECT_EQ(model->shape_sets().size(), 3u);
  const std::vector<uint8_t> single = testing::EmitOrDie(testing::ConvReluPoolGraph());
  std::shared_ptr<const Model> one;
  ASSERT_TRUE(Model::Load(single.data(), single.size(), &one).ok());
  EXPECT_EQ(model->weights_size(), one->weights_size()) << "three sets, one copy of the weights";
  EXPECT_EQ(model->max_io_bytes(true, 0), 3u * 8 * 6 * sizeof(float));
  EXPECT_TRUE(LoadAndPrepare(file).ok());
}

TEST(ModelLoaderDynamic, RejectsASetWhoseInputsDifferBeyondTheirShape) {
  compiler::Graph renamed = testing::ConvReluPoolGraph(8, 8);
  renamed.tensors()[renamed.inputs()[0].tensor].name = "x2";
  ExpectInvalid(DynamicModel({testing::ConvReluPoolGraph(), renamed}),
                "shape set 1: input 0 ('x2') differs from the model's in more than its shape");
  compiler::Graph preprocessed = testing::ConvReluPoolGraph(8, 8);
  preprocessed.inputs()[0].mean = {1.0f, 2.0f, 3.0f};
  ExpectInvalid(DynamicModel({testing::ConvReluPoolGraph(), preprocessed}), "differs from the model's");
}

TEST(ModelLoaderDynamic, RejectsABrokenSet) {
  compiler::Graph broken = testing::ConvReluPoolGraph(8, 8);
  std::vector<uint8_t> file = DynamicModel({testing::ConvReluPoolGraph(), broken});
  ModelFileHeader h;
  std::memcpy(&h, file.data(), sizeof(h));
  fb::Model* m = fb::GetMutableModel(file.data() + h.payload_offset);
  fb::ShapeSet* set = m->mutable_shape_sets()->GetMutableObject(1);
  set->mutable_plan()->mutate_arena_size(set->plan()->arena_size() + (1ull << 40));
  ResealModelFile(file.data(), file.size());
  ExpectInvalid(file, "shape set 1: ");
}

}  // namespace
}  // namespace npurt
