// The ONNX importer: models built as ModelProtos in C++, converted with
// CompileOnnxFile / ImportAndOptimize, and checked by structure, by error
// message, and by running the converted model through the runtime against
// hand-computed values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "compiler/onnx/onnx_importer.h"
#include "runtime/core/context.h"
#include "tests/compiler/onnx_builder.h"

namespace npurt {
namespace {

using compiler::CompileOptions;
using compiler::Graph;
using onnx_test::ConvertAndRun;
using onnx_test::ExpectNear;
using onnx_test::Floats;
using onnx_test::Ints;
using onnx_test::OnnxBuilder;

bool Contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Errors are one line.
void ExpectOneLine(const Status& s) { EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message(); }

int CountOps(const Graph& g, const std::string& op) {
  return static_cast<int>(std::count_if(g.nodes().begin(), g.nodes().end(),
                                        [&op](const compiler::IrNode& n) { return n.op_type == op; }));
}

// ---- error paths ----

TEST(OnnxImport, UnsupportedOpNamesOpNodeOpsetAndSupportedList) {
  OnnxBuilder b(13);
  b.Input("x", {1, 4});
  b.Int64Initializer("k", {1}, {2});
  b.Node("TopK", {"x", "k"}, {"values", "indices"}, "topk_node");
  b.Output("values");
  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(b, CompileOptions(), &file);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "node 'topk_node'")) << s.message();
  EXPECT_TRUE(Contains(s.message(), "unsupported operator 'TopK'")) << s.message();
  EXPECT_TRUE(Contains(s.message(), "opset 13")) << s.message();
  EXPECT_TRUE(Contains(s.message(), "supported ONNX operators: Conv, ConvTranspose")) << s.message();
  EXPECT_TRUE(Contains(s.message(), "Shape")) << s.message();
  ExpectOneLine(s);
}

TEST(OnnxImport, NodeOfAnotherOnnxDomainIsUnsupported) {
  OnnxBuilder b(13);
  b.AddOpset("ai.onnx.ml", 2);
  b.Input("x", {1, 4});
  b.Node("Normalizer", {"x"}, {"y"}, "norm")->set_domain("ai.onnx.ml");
  b.Output("y");
  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(b, CompileOptions(), &file);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "unsupported operator 'Normalizer' (domain 'ai.onnx.ml', opset 13)")) << s.message();
}

// x[1,4] -> cst.cstSoftplus (declared y[1,4] float) -> Relu -> z
OnnxBuilder CustomOpModel(bool declare_output = true) {
  OnnxBuilder b(13);
  b.AddOpset("cst", 1);
  b.Input("x", {1, 4});
  onnx::NodeProto* n = b.Node("cstSoftplus", {"x"}, {"y"}, "softplus_node");
  n->set_domain("cst");
  OnnxBuilder::AttrFloat(n, "beta", 2.0f);
  OnnxBuilder::AttrString(n, "tag", "demo");
  if (declare_output) b.ValueInfo("y", {1, 4});
  b.Node("Relu", {"y"}, {"z"}, "relu");
  b.Output("z");
  return b;
}

TEST(OnnxImport, NodeOfACustomDomainBecomesACustomOpWithItsAttributesAndDeclaredShape) {
  Graph g;
  ASSERT_TRUE(onnx_test::Import(CustomOpModel(), CompileOptions(), &g).ok());
  const compiler::IrNode* custom = nullptr;
  for (const compiler::IrNode& n : g.nodes()) {
    if (n.op_type == "Custom") custom = &n;
  }
  ASSERT_NE(custom, nullptr);
  EXPECT_EQ(custom->name, "softplus_node");
  std::string type, domain, tag;
  ASSERT_TRUE(custom->attrs.GetString("npurt.op_type", "", &type).ok());
  ASSERT_TRUE(custom->attrs.GetString("npurt.domain", "", &domain).ok());
  ASSERT_TRUE(custom->attrs.GetString("tag", "", &tag).ok());
  EXPECT_EQ(type, "cstSoftplus");
  EXPECT_EQ(domain, "cst");
  EXPECT_EQ(tag, "demo");
  float beta = 0;
  ASSERT_TRUE(custom->attrs.GetFloat("beta", 0, &beta).ok());
  EXPECT_EQ(beta, 2.0f);
  std::vector<int64_t> shapes, types;
  ASSERT_TRUE(custom->attrs.GetInts("npurt.output_shapes", {}, &shapes).ok());
  ASSERT_TRUE(custom->attrs.GetInts("npurt.output_dtypes", {}, &types).ok());
  EXPECT_EQ(shapes, (std::vector<int64_t>{2, 1, 4}));
  EXPECT_EQ(types, (std::vector<int64_t>{0}));
  EXPECT_EQ(g.tensors()[custom->outputs[0]].shape, (Shape{1, 4}));
  std::vector<uint8_t> file;
  EXPECT_TRUE(onnx_test::Convert(CustomOpModel(), CompileOptions(), &file).ok());
}

TEST(OnnxImport, NamedOpTypesAreCustomOpsInOnnxsOwnDomainToo) {
  OnnxBuilder b = CustomOpModel();
  b.graph().mutable_node(0)->set_domain("");  // rknn-toolkit2's "non-ONNX-standard" custom op
  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(b, CompileOptions(), &file);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "unsupported operator 'cstSoftplus'")) << s.message();
  CompileOptions o;
  o.custom_op_types = {"cstSoftplus"};
  s = onnx_test::Convert(b, o, &file);
  EXPECT_TRUE(s.ok()) << s.message();
}

TEST(OnnxImport, CustomOpWithoutADeclaredOutputShapeSaysWhatToAdd) {
  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(CustomOpModel(false), CompileOptions(), &file);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
  EXPECT_TRUE(Contains(s.message(), "softplus_node")) << s.message();
  EXPECT_TRUE(Contains(s.message(), "custom op 'cst.cstSoftplus'")) << s.message();
  EXPECT_TRUE(Contains(s.message(), "value_info")) << s.message();
}

TEST(OnnxImport, CustomOpOnConstantInputsIsNotFolded) {
  OnnxBuilder b(13);
  b.AddOpset("cst", 1);
  b.Input("x", {1, 4});
  b.FloatInitializer("c", {1, 4}, {1, 2, 3, 4});
  b.Node("cstTable", {"c"}, {"t"}, "table")->set_domain("cst");
  b.ValueInfo("t", {1, 4});
  b.Node("Add", {"x", "t"}, {"y"});
  b.Output("y");
  Graph g;
  ASSERT_TRUE(onnx_test::Import(b, CompileOptions(), &g).ok());
  int custom = 0;
  for (const compiler::IrNode& n : g.nodes()) custom += n.op_type == "Custom";
  EXPECT_EQ(custom, 1);
}

TEST(OnnxImport, CustomOpIsRefusedForRv1106WhoseRuntimeHasNoCustomOps) {
  CompileOptions o;
  o.target_platform = "rv1106";
  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(CustomOpModel(), o, &file);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "custom op")) << s.message();
  EXPECT_TRUE(Contains(s.message(), "rv1106")) << s.message();
}

TEST(OnnxImport, QuantizingACustomOpModelSaysCalibrationCannotRunIt) {
  CompileOptions o;
  o.quantize = true;
  o.dataset = "unused.txt";  // refused before the dataset is read
  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(CustomOpModel(), o, &file);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kParamInvalid);
  EXPECT_TRUE(Contains(s.message(), "'softplus_node' is a custom op")) << s.message();
  EXPECT_TRUE(Contains(s.message(), "in float")) << s.message();
}

// x[1,4096] + c[1,4096] (16 KiB) + e[1] -> y
OnnxBuilder BigConstantModel() {
  OnnxBuilder b(13);
  b.Input("x", {1, 4096});
  Floats c(4096);
  for (size_t i = 0; i < c.size(); ++i) c[i] = static_cast<float>(i % 7);
  b.FloatInitializer("c", {1, 4096}, c);
  b.FloatInitializer("e", {1}, {0.5f});
  b.Node("Add", {"x", "c"}, {"s"});
  b.Node("Add", {"s", "e"}, {"y"});
  b.Output("y");
  return b;
}

TEST(OnnxImport, RemoveWeightLeavesOutLargeConstantsAndNeedsASharingContext) {
  std::vector<uint8_t> full, weightless;
  ASSERT_TRUE(onnx_test::Convert(BigConstantModel(), CompileOptions(), &full).ok());
  CompileOptions o;
  o.remove_weight = true;
  Status s = onnx_test::Convert(BigConstantModel(), o, &weightless);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_LT(weightless.size(), 8192u) << "the 16 KiB constant is left out";
  std::shared_ptr<const Model> a, b;
  ASSERT_TRUE(Model::Load(full.data(), full.size(), &a).ok());
  ASSERT_TRUE(Model::Load(weightless.data(), weightless.size(), &b).ok());
  EXPECT_FALSE(a->has_shared_constants());
  EXPECT_TRUE(b->has_shared_constants());
  std::unique_ptr<Context> owner, alone, sharer;
  s = Context::Create(b, ContextOptions(), &alone);
  EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
  EXPECT_TRUE(Contains(s.message(), "remove_weight")) << s.message();
  ASSERT_TRUE(Context::Create(a, ContextOptions(), &owner).ok());
  ContextOptions shares;
  shares.weights_from = owner.get();
  ASSERT_TRUE(Context::Create(b, shares, &sharer).ok());
  // Dynamic shapes: every set's constants are left out alike.
  o.dynamic_input = {{{1, 4096}}, {{2, 4096}}};
  s = onnx_test::Convert(BigConstantModel(), o, &weightless);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_LT(weightless.size(), 8192u) << "the 16 KiB constant is left out";
}

TEST(OnnxImport, CustomOpAttributeNamesStartingNpurtAreReserved) {
  OnnxBuilder b = CustomOpModel();
  OnnxBuilder::AttrInt(b.graph().mutable_node(0), "npurt.op_type", 1);
  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(b, CompileOptions(), &file);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "reserved")) << s.message();
}

TEST(OnnxImport, DeclaredButUnusedDomainsAreIgnored) {
  OnnxBuilder b(13);
  b.AddOpset("ai.onnx.ml", 2);
  b.AddOpset("com.microsoft", 1);
  b.AddOpset("org.pytorch.aten", 1);
  b.Input("x", {1, 4});
  b.Node("Relu", {"x"}, {"y"})->set_domain("ai.onnx");
  b.Output("y");
  auto out = ConvertAndRun(b, CompileOptions(), {{-1, 2, -3, 4}});
  ASSERT_EQ(out.size(), 1u);
  ExpectNear(out[0], {0, 2, 0, 4});
}

TEST(OnnxImport, DynamicDimNeedsInputShapes) {
  OnnxBuilder b(13);
  b.Input("x", {-1, 3, 4, 4}, onnx::TensorProto::FLOAT, {"batch"});
  b.Node("Relu", {"x"}, {"y"});
  b.Output("y");
  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(b, CompileOptions(), &file);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "input 'x' has dynamic dim 0 ('batch')")) << s.message();
  EXPECT_TRUE(Contains(s.message(), "--input-shapes x:")) << s.message();
  ExpectOneLine(s);

  CompileOptions o;
  o.input_shapes["x"] = {2, 3, 4, 4};
  EXPECT_TRUE(onnx_test::Convert(b, o, &file).ok());
  std::shared_ptr<const Model> m;
  ASSERT_TRUE(Model::Load(file.data(), file.size(), &m).ok());
  EXPECT_EQ(m->tensors()[m->inputs()[0].tensor].shape, (Shape{2, 3, 4, 4}));

  // An unnamed dynamic dim, and a shape given for a name that is not an input.
  OnnxBuilder c(13);
  c.Input("img", {1, 3, -1, -1});
  c.Node("Relu", {"img"}, {"y"});
  c.Output("y");
  s = onnx_test::Convert(c, CompileOptions(), &file);
  EXPECT_TRUE(Contains(s.message(), "input 'img' has dynamic dim 2 (?) in shape [1,3,?,?]")) << s.message();
  o.input_shapes.clear();
  o.input_shapes["image"] = {1, 3, 8, 8};
  s = onnx_test::Convert(c, o, &file);
  EXPECT_TRUE(Contains(s.message(), "'image', which is not an input (inputs: img)")) << s.message();
  o.input_shapes.clear();
  o.input_shapes["img"] = {1, 3, 8};
  s = onnx_test::Convert(c, o, &file);
  EXPECT_TRUE(Contains(s.message(), "input 'img' has 4 dims")) << s.message();
}

TEST(OnnxImport, MissingFile) {
  std::vector<uint8_t> file;
  Status s = compiler::CompileOnnxFile("/nonexistent/dir/model.onnx", CompileOptions(), &file);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "cannot open '/nonexistent/dir/model.onnx': No such file or directory");
}

TEST(OnnxImport, CorruptTruncatedEmptyFiles) {
  const std::string path = onnx_test::TempPath("corrupt.onnx");
  std::vector<uint8_t> file;
  // Random bytes.
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage += static_cast<char>((i * 7919 + 13) & 0xff);
  ASSERT_TRUE(onnx_test::WriteBytes(path, garbage));
  Status s = compiler::CompileOnnxFile(path, CompileOptions(), &file);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "'" + path + "'")) << s.message();
  EXPECT_TRUE(Contains(s.message(), "not a")) << s.message();
  ExpectOneLine(s);

  // A real model cut in half.
  OnnxBuilder b(13);
  b.Input("x", {1, 64});
  b.FloatInitializer("w", {64, 64}, Floats(64 * 64, 0.5f));
  b.Node("MatMul", {"x", "w"}, {"y"});
  b.Output("y");
  const std::string bytes = b.Serialize();
  ASSERT_TRUE(onnx_test::WriteBytes(path, bytes.substr(0, bytes.size() / 2)));
  s = compiler::CompileOnnxFile(path, CompileOptions(), &file);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "'" + path + "' is not a valid ONNX model")) << s.message();

  ASSERT_TRUE(onnx_test::WriteBytes(path, ""));
  s = compiler::CompileOnnxFile(path, CompileOptions(), &file);
  EXPECT_TRUE(Contains(s.message(), "is empty, not an ONNX model")) << s.message();

  // Text that happens to parse as protobuf but has no graph.
  ASSERT_TRUE(onnx_test::WriteBytes(path, std::string("\x08\x07", 2)));
  s = compiler::CompileOnnxFile(path, CompileOptions(), &file);
  EXPECT_TRUE(Contains(s.message(), "is not an ONNX model (no graph)")) << s.message();
  std::remove(path.c_str());

  s = compiler::CompileOnnxFile("/tmp", CompileOptions(), &file);
  EXPECT_TRUE(Contains(s.message(), "it is a directory")) << s.message();
}

TEST(OnnxImport, OpsetAboveNineteen) {
  for (int opset : {20, 21}) {
    OnnxBuilder b(opset);
    b.Input("x", {1, 4});
    b.Node("Relu", {"x"}, {"y"});
    b.Output("y");
    std::vector<uint8_t> file;
    Status s = onnx_test::Convert(b, CompileOptions(), &file);
    ASSERT_FALSE(s.ok());
    EXPECT_TRUE(Contains(s.message(), "uses ai.onnx opset " + std::to_string(opset) + "; npurt imports opsets 1 to 19"))
        << s.message();
  }
}

TEST(OnnxImport, ExternalDataIsAClearError) {
  OnnxBuilder b(13);
  b.Input("x", {1, 2});
  onnx::TensorProto w;
  w.set_name("w");
  w.set_data_type(onnx::TensorProto::FLOAT);
  w.add_dims(2);
  w.set_data_location(onnx::TensorProto::EXTERNAL);
  onnx::StringStringEntryProto* e = w.add_external_data();
  e->set_key("location");
  e->set_value("weights.bin");
  b.Initializer(w);
  b.Node("Add", {"x", "w"}, {"y"});
  b.Output("y");
  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(b, CompileOptions(), &file);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "initializer 'w' keeps its data in an external file ('weights.bin')")) << s.message();
}

TEST(OnnxImport, UnsupportedModeOfASupportedOpNamesTheNode) {
  OnnxBuilder b(13);
  b.Input("x", {1, 1, 2, 2});
  b.FloatInitializer("scales", {4}, {1, 1, 2, 2});
  onnx::NodeProto* n = b.Node("Resize", {"x", "", "scales"}, {"y"}, "resize_cubic");
  OnnxBuilder::AttrString(n, "mode", "cubic");
  b.Output("y");
  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(b, CompileOptions(), &file);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "node 'resize_cubic' (Resize, opset 13)")) << s.message();
  EXPECT_TRUE(Contains(s.message(), "cubic")) << s.message();
}

// The runtime's Conv takes a fourth input (a fused residual) that ONNX's does not: an ONNX Conv with four
// inputs is a broken model.
TEST(OnnxImport, ConvWithAFourthInputIsRejected) {
  OnnxBuilder b(13);
  b.Input("x", {1, 1, 2, 2});
  b.FloatInitializer("w", {1, 1, 1, 1}, {1});
  b.FloatInitializer("b", {1}, {0});
  b.Input("r", {1, 1, 2, 2});
  b.Node("Conv", {"x", "w", "b", "r"}, {"y"}, "conv4");
  b.Output("y");
  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(b, CompileOptions(), &file);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "node 'conv4'")) << s.message();
  EXPECT_TRUE(Contains(s.message(), "has 4 inputs; the ONNX operator takes at most 3")) << s.message();
  ExpectOneLine(s);
}

TEST(OnnxImport, UsedUnsupportedOutputFails) {
  OnnxBuilder b(11);
  b.Input("x", {1, 4});
  b.Node("Dropout", {"x"}, {"y", "mask"}, "drop");
  onnx::NodeProto* cast = b.Node("Cast", {"mask"}, {"maskf"});
  OnnxBuilder::AttrInt(cast, "to", onnx::TensorProto::FLOAT);
  b.Output("y");
  b.Output("maskf");
  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(b, CompileOptions(), &file);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "node 'drop' (Dropout): unsupported operator output 1 ('mask')")) << s.message();
}

// ---- weights ----

TEST(OnnxImport, WeightsFromConstantNodesOnly) {
  // Paddle style: no initializers; W in raw_data, B in float_data.
  OnnxBuilder b(11, 8);
  b.Input("x", {1, 2, 2, 2});
  b.FloatConstant("w", {1, 2, 1, 1}, {0.5f, -1.0f}, /*raw=*/true);
  b.FloatConstant("bias", {1}, {0.25f}, /*raw=*/false);
  b.Node("Conv", {"x", "w", "bias"}, {"y"}, "conv");
  b.Output("y");
  ASSERT_EQ(b.graph().initializer_size(), 0);
  Graph g;
  Status s = onnx_test::Import(b, CompileOptions(), &g);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(CountOps(g, "Constant"), 0);
  ASSERT_EQ(CountOps(g, "Conv"), 1);
  for (int id : g.nodes()[0].inputs) {
    if (g.tensors()[id].name != "x") EXPECT_TRUE(g.tensors()[id].is_constant) << g.tensors()[id].name;
  }
  auto out = ConvertAndRun(b, CompileOptions(), {{1, 2, 3, 4, 5, 6, 7, 8}});
  ASSERT_EQ(out.size(), 1u);
  ExpectNear(out[0], {-4.25f, -4.75f, -5.25f, -5.75f});
}

TEST(OnnxImport, OldStyleInitializersListedAsInputsAreNotInputs) {
  OnnxBuilder b(8, 3);
  b.Input("x", {1, 3});
  b.Input("w", {1, 3});  // also an initializer: a default value, not an input
  b.FloatInitializer("w", {1, 3}, {10, 20, 30});
  b.Node("Add", {"x", "w"}, {"y"});
  b.Output("y");
  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(b, CompileOptions(), &file);
  ASSERT_TRUE(s.ok()) << s.message();
  std::shared_ptr<const Model> m;
  ASSERT_TRUE(Model::Load(file.data(), file.size(), &m).ok());
  ASSERT_EQ(m->inputs().size(), 1u);
  EXPECT_EQ(m->tensors()[m->inputs()[0].tensor].name, "x");
  EXPECT_EQ(m->tensors()[m->outputs()[0].tensor].name, "y");
  ExpectNear(onnx_test::RunModel(file, {{1, 2, 3}})[0], {11, 22, 33});
}

TEST(OnnxImport, ConstantValueForms) {
  // value_float scales, value_ints is a Reshape target, value_floats is added.
  OnnxBuilder b(13);
  b.Input("x", {2, 2});
  auto constant = [&b](const std::string& out) { return b.Node("Constant", {}, {out}); };
  onnx::NodeProto* c = constant("scale");
  onnx::AttributeProto* a = c->add_attribute();
  a->set_name("value_float");
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(3.0f);
  c = constant("shape");
  OnnxBuilder::AttrInts(c, "value_ints", {4});
  c = constant("offs");
  OnnxBuilder::AttrFloats(c, "value_floats", {1, 2, 3, 4});
  c = constant("one");
  OnnxBuilder::AttrInt(c, "value_int", 1);
  b.Node("Mul", {"x", "scale"}, {"m"});
  b.Node("Reshape", {"m", "shape"}, {"r"});
  b.Node("Add", {"r", "offs"}, {"y"});
  onnx::NodeProto* cast = b.Node("Cast", {"one"}, {"onef"});
  OnnxBuilder::AttrInt(cast, "to", onnx::TensorProto::FLOAT);
  b.Node("Sub", {"y", "onef"}, {"z"});
  b.Output("z");
  auto out = ConvertAndRun(b, CompileOptions(), {{1, 2, 3, 4}});
  ASSERT_EQ(out.size(), 1u);
  ExpectNear(out[0], {3, 7, 11, 15});
}

// ---- Clip in both forms ----

TEST(OnnxImport, ClipAttributeForm) {
  OnnxBuilder b(9);
  b.Input("x", {1, 4});
  onnx::NodeProto* n = b.Node("Clip", {"x"}, {"y"});
  OnnxBuilder::AttrFloat(n, "min", 0.0f);
  OnnxBuilder::AttrFloat(n, "max", 6.0f);
  b.Output("y");
  auto out = ConvertAndRun(b, CompileOptions(), {{-2, 0.5f, 3, 7}});
  ASSERT_EQ(out.size(), 1u);
  ExpectNear(out[0], {0, 0.5f, 3, 6});
}

TEST(OnnxImport, ClipInputForm) {
  {
    OnnxBuilder b(11);
    b.Input("x", {1, 4});
    b.FloatConstant("lo", {}, {1.0f});
    b.FloatConstant("hi", {}, {4.0f});
    b.Node("Clip", {"x", "lo", "hi"}, {"y"});
    b.Output("y");
    ExpectNear(ConvertAndRun(b, CompileOptions(), {{-2, 0.5f, 3, 7}}).at(0), {1, 1, 3, 4});
  }
  {
    // Omitted min: only an upper bound.
    OnnxBuilder b(12);
    b.Input("x", {1, 4});
    b.FloatInitializer("hi", {}, {4.0f});
    b.Node("Clip", {"x", "", "hi"}, {"y"});
    b.Output("y");
    ExpectNear(ConvertAndRun(b, CompileOptions(), {{-2, 0.5f, 3, 7}}).at(0), {-2, 0.5f, 3, 4});
  }
  {
    // A computed bound stays an input and is read at run time.
    OnnxBuilder b(13);
    b.Input("x", {1, 4});
    b.Input("m", {1});
    b.Node("Clip", {"x", "m"}, {"y"});
    b.Output("y");
    ExpectNear(ConvertAndRun(b, CompileOptions(), {{-2, 0.5f, 3, 7}, {0.6f}}).at(0), {0.6f, 0.6f, 3, 7});
  }
}

// ---- folding ----

TEST(OnnxImport, ShapeGatherConcatReshapeFoldsAway) {
  OnnxBuilder b(13);
  b.Input("x", {2, 3, 4});
  b.Node("Shape", {"x"}, {"s"});
  b.Int64Constant("i0", {}, {0});
  b.Node("Gather", {"s", "i0"}, {"d0"});
  b.Int64Constant("axes", {1}, {0});
  b.Node("Unsqueeze", {"d0", "axes"}, {"u"});
  b.Int64Constant("minus_one", {1}, {-1});
  OnnxBuilder::AttrInt(b.Node("Concat", {"u", "minus_one"}, {"target"}), "axis", 0);
  b.Node("Reshape", {"x", "target"}, {"y"});
  b.Output("y");
  Graph g;
  Status s = onnx_test::Import(b, CompileOptions(), &g);
  ASSERT_TRUE(s.ok()) << s.message();
  for (const char* op : {"Shape", "Gather", "Unsqueeze", "Concat", "Constant"}) EXPECT_EQ(CountOps(g, op), 0) << op;
  ASSERT_EQ(g.outputs().size(), 1u);
  EXPECT_EQ(g.tensors()[g.outputs()[0]].shape, (Shape{2, 12}));
  Floats x(24);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  ExpectNear(ConvertAndRun(b, CompileOptions(), {x}).at(0), x);
}

TEST(OnnxImport, ConstantSubgraphsAreEvaluatedWithTheRuntimeOps) {
  OnnxBuilder b(13);
  b.Input("x", {1, 3});
  b.FloatConstant("a", {3}, {1, 2, 3});
  b.FloatConstant("b", {3}, {0.5f, 0.5f, 0.5f});
  b.Node("Add", {"a", "b"}, {"ab"});
  b.Node("Sqrt", {"ab"}, {"r"});
  b.Node("Mul", {"x", "r"}, {"y"});
  b.Output("y");
  Graph g;
  ASSERT_TRUE(onnx_test::Import(b, CompileOptions(), &g).ok());
  EXPECT_EQ(CountOps(g, "Add"), 0);
  EXPECT_EQ(CountOps(g, "Sqrt"), 0);
  EXPECT_EQ(CountOps(g, "Mul"), 1);
  ExpectNear(ConvertAndRun(b, CompileOptions(), {{2, 2, 2}}).at(0),
             {2 * std::sqrt(1.5f), 2 * std::sqrt(2.5f), 2 * std::sqrt(3.5f)});
}

TEST(OnnxImport, PyTorchStyleShapeOpsFold) {
  // Range, ConstantOfShape, Equal/Where (PyTorch's reshape with -1), Expand, Size.
  OnnxBuilder b(13);
  b.Input("x", {1, 3});
  b.Int64Constant("start", {}, {0});
  b.Int64Constant("limit", {}, {3});
  b.Int64Constant("delta", {}, {1});
  b.Node("Range", {"start", "limit", "delta"}, {"r"});
  OnnxBuilder::AttrInt(b.Node("Cast", {"r"}, {"rf"}), "to", onnx::TensorProto::FLOAT);  // [0,1,2]
  b.Node("Shape", {"x"}, {"s"});
  onnx::NodeProto* cos = b.Node("ConstantOfShape", {"s"}, {"ones"});
  onnx::AttributeProto* v = cos->add_attribute();
  v->set_name("value");
  v->set_type(onnx::AttributeProto::TENSOR);
  *v->mutable_t() = OnnxBuilder::FloatTensor("v", {1}, {2.0f});  // [[2,2,2]]
  b.Node("Add", {"x", "rf"}, {"a"});
  b.Node("Mul", {"a", "ones"}, {"m"});  // 2 * (x + [0,1,2])
  // target = Where(Equal([2,-1], -1), [9,3], [2,-1]) = [2,3]
  b.Int64Constant("t0", {2}, {2, -1});
  b.Int64Constant("neg", {}, {-1});
  b.Int64Constant("alt", {2}, {9, 3});
  b.Node("Equal", {"t0", "neg"}, {"is_neg"});
  b.Node("Where", {"is_neg", "alt", "t0"}, {"target"});
  b.Int64Constant("eshape", {2}, {2, 1});
  b.Node("Expand", {"m", "eshape"}, {"e"});  // computed input: x * ones -> [2,3]
  b.Node("Reshape", {"e", "target"}, {"y"});
  b.Node("Size", {"y"}, {"n"});
  OnnxBuilder::AttrInt(b.Node("Cast", {"n"}, {"nf"}), "to", onnx::TensorProto::FLOAT);
  b.Node("Add", {"y", "nf"}, {"z"});  // + 6
  b.Output("z");
  Graph g;
  Status s = onnx_test::Import(b, CompileOptions(), &g);
  ASSERT_TRUE(s.ok()) << s.message();
  for (const char* op : {"Range", "Cast", "Shape", "ConstantOfShape", "Equal", "Where", "Size"}) {
    EXPECT_EQ(CountOps(g, op), 0) << op;
  }
  EXPECT_EQ(g.tensors()[g.outputs()[0]].shape, (Shape{2, 3}));
  ExpectNear(ConvertAndRun(b, CompileOptions(), {{1, 2, 3}}).at(0), {8, 12, 16, 8, 12, 16});
}

TEST(OnnxImport, ImportOnlyOpOnRuntimeValuesFails) {
  OnnxBuilder b(13);
  b.Input("n", {});
  b.FloatInitializer("start", {}, {0});
  b.FloatInitializer("delta", {}, {1});
  b.Node("Range", {"start", "n", "delta"}, {"r"}, "range_node");
  b.Output("r");
  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(b, CompileOptions(), &file);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "node 'range_node' (Range, opset 13): unsupported operator 'Range' on run-time values"))
      << s.message();
  EXPECT_TRUE(Contains(s.message(), "input 1 ('n') is computed at run time")) << s.message();
}

TEST(OnnxImport, ComparisonsAndWhereFoldOnConstantsAndRunOnRuntimeValues) {
  OnnxBuilder b(13);
  b.Input("x", {1, 3});
  b.Input("y", {1, 3});
  b.Int64Initializer("a", {2}, {4, 7});
  b.Int64Initializer("b", {2}, {4, 9});
  b.Node("Equal", {"a", "b"}, {"folded"});  // int64 constants: evaluated here
  b.Node("Not", {"folded"}, {"folded_not"});
  b.Node("Greater", {"x", "y"}, {"gt"});
  b.Node("Where", {"gt", "x", "y"}, {"z"});
  b.Output("z");
  b.Output("folded_not");
  Graph g;
  Status s = onnx_test::Import(b, CompileOptions(), &g);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(CountOps(g, "Equal"), 0);
  EXPECT_EQ(CountOps(g, "Not"), 0);
  EXPECT_EQ(CountOps(g, "Greater"), 1);
  EXPECT_EQ(CountOps(g, "Where"), 1);
  EXPECT_EQ(g.tensors()[g.outputs()[1]].dtype, DataType::kBool);
}

TEST(OnnxImport, FoldedComparisonBroadcastsAgainstAScalar) {
  // The fold once broadcast into its first operand's shape while reading it: [2, 3] vs a scalar gave [1, 1].
  OnnxBuilder b(13);
  b.Input("x", {2, 3});
  b.FloatInitializer("m", {2, 3}, {0, 1, 0, 2, 0, 3});
  b.FloatInitializer("zero", {}, {0});
  b.FloatInitializer("minus100", {}, {-100});
  b.Node("Equal", {"m", "zero"}, {"is_zero"});
  b.Node("Where", {"is_zero", "minus100", "m"}, {"mask"});
  b.Node("Add", {"x", "mask"}, {"y"});
  b.Output("y");
  auto out = ConvertAndRun(b, CompileOptions(), {{1, 1, 1, 1, 1, 1}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0], (Floats{-99, 2, -99, 3, -99, 4}));
}

// ---- op conversions with special cases ----

TEST(OnnxImport, CastMapsOnnxTypeCodes) {
  OnnxBuilder b(13);
  b.Input("x", {4});
  OnnxBuilder::AttrInt(b.Node("Cast", {"x"}, {"i"}), "to", onnx::TensorProto::INT32);
  OnnxBuilder::AttrInt(b.Node("Cast", {"i"}, {"f"}), "to", onnx::TensorProto::FLOAT);
  // DOUBLE becomes float32, constants included.
  OnnxBuilder::AttrInt(b.Node("Cast", {"f"}, {"d"}), "to", onnx::TensorProto::DOUBLE);
  onnx::TensorProto two;
  two.set_name("two");
  two.set_data_type(onnx::TensorProto::DOUBLE);
  two.add_double_data(2.0);
  b.ConstantNode("two", two);
  b.Node("Mul", {"d", "two"}, {"y"});
  b.Output("y");
  Graph g;
  Status s = onnx_test::Import(b, CompileOptions(), &g);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(g.tensors()[g.outputs()[0]].dtype, DataType::kFloat32);
  for (const compiler::IrNode& n : g.nodes()) {
    if (n.op_type != "Cast") continue;
    int64_t dtype = -1;
    ASSERT_TRUE(n.attrs.GetInt("dtype", -1, &dtype).ok());
    EXPECT_TRUE(dtype == static_cast<int64_t>(DataType::kInt32) || dtype == static_cast<int64_t>(DataType::kFloat32));
    EXPECT_FALSE(n.attrs.Has("to"));
  }
  ExpectNear(ConvertAndRun(b, CompileOptions(), {{1.7f, -2.5f, 3.2f, 0.4f}}).at(0), {2, -4, 6, 0});
}

TEST(OnnxImport, SoftmaxKeepsItsOpsetSemantics) {
  const Floats x = {0, 1, 2, 3};
  for (int opset : {11, 13}) {
    OnnxBuilder b(opset);
    b.Input("x", {1, 2, 2});
    OnnxBuilder::AttrInt(b.Node("Softmax", {"x"}, {"y"}), "axis", 1);
    b.Output("y");
    Floats want(4);
    if (opset == 11) {  // coerced to [1, 4]: one softmax over all four
      float sum = 0;
      for (float v : x) sum += std::exp(v);
      for (int i = 0; i < 4; ++i) want[i] = std::exp(x[i]) / sum;
    } else {  // over axis 1 only: pairs (x[0][0][j], x[0][1][j])
      for (int j = 0; j < 2; ++j) {
        const float sum = std::exp(x[j]) + std::exp(x[2 + j]);
        want[j] = std::exp(x[j]) / sum;
        want[2 + j] = std::exp(x[2 + j]) / sum;
      }
    }
    ExpectNear(ConvertAndRun(b, CompileOptions(), {x}).at(0), want);
  }
}

TEST(OnnxImport, UpsampleAndResizeForms) {
  const Floats x = {1, 2, 3, 4};
  const Floats want = {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4};
  {
    OnnxBuilder b(7);  // scales attribute
    b.Input("x", {1, 1, 2, 2});
    OnnxBuilder::AttrFloats(b.Node("Upsample", {"x"}, {"y"}), "scales", {1, 1, 2, 2});
    b.Output("y");
    ExpectNear(ConvertAndRun(b, CompileOptions(), {x}).at(0), want);
  }
  {
    OnnxBuilder b(9);  // scales input
    b.Input("x", {1, 1, 2, 2});
    b.FloatConstant("scales", {4}, {1, 1, 2, 2});
    OnnxBuilder::AttrString(b.Node("Upsample", {"x", "scales"}, {"y"}), "mode", "nearest");
    b.Output("y");
    Graph g;
    ASSERT_TRUE(onnx_test::Import(b, CompileOptions(), &g).ok());
    EXPECT_EQ(CountOps(g, "Resize"), 1);
    ExpectNear(ConvertAndRun(b, CompileOptions(), {x}).at(0), want);
  }
  {
    OnnxBuilder b(11);  // Paddle det: nearest, asymmetric, floor; empty roi
    b.Input("x", {1, 1, 2, 2});
    b.FloatConstant("roi", {0}, {});
    b.FloatConstant("scales", {4}, {1, 1, 2, 2});
    onnx::NodeProto* n = b.Node("Resize", {"x", "roi", "scales"}, {"y"});
    OnnxBuilder::AttrString(n, "mode", "nearest");
    OnnxBuilder::AttrString(n, "coordinate_transformation_mode", "asymmetric");
    OnnxBuilder::AttrString(n, "nearest_mode", "floor");
    b.Output("y");
    ExpectNear(ConvertAndRun(b, CompileOptions(), {x}).at(0), want);
  }
  {
    OnnxBuilder b(10);  // opset 10: (X, scales)
    b.Input("x", {1, 1, 2, 2});
    b.FloatInitializer("scales", {4}, {1, 1, 2, 2});
    b.Node("Resize", {"x", "scales"}, {"y"});
    b.Output("y");
    ExpectNear(ConvertAndRun(b, CompileOptions(), {x}).at(0), want);
  }
}

TEST(OnnxImport, LoweredOps) {
  OnnxBuilder b(12);
  b.Input("x", {1, 3});
  b.FloatInitializer("c", {3}, {1, 2, 4});
  b.Node("Dropout", {"x"}, {"d"});
  b.Node("Sum", {"d", "c", "c"}, {"s"});  // x + 2c
  b.Node("Neg", {"s"}, {"n"});
  b.Node("Reciprocal", {"c"}, {"rc"});   // folded: [1, .5, .25]
  b.Node("Mul", {"n", "rc"}, {"y"});
  b.Output("y");
  Graph g;
  ASSERT_TRUE(onnx_test::Import(b, CompileOptions(), &g).ok());
  EXPECT_EQ(CountOps(g, "Dropout"), 0);
  EXPECT_EQ(CountOps(g, "Div"), 0);
  ExpectNear(ConvertAndRun(b, CompileOptions(), {{1, 2, 3}}).at(0), {-3.0f, -3.0f, -2.75f});
}

TEST(OnnxImport, NodesOutOfOrderAreSorted) {
  OnnxBuilder b(13);
  b.Input("x", {1, 2});
  b.Node("Relu", {"a"}, {"y"});
  b.FloatInitializer("one", {}, {1});
  b.Node("Add", {"x", "one"}, {"a"});
  b.Output("y");
  ExpectNear(ConvertAndRun(b, CompileOptions(), {{-3, 1}}).at(0), {0, 2});
}

// ---- opsets before 7 ----

TEST(OnnxImport, LegacyBroadcastWithAxis) {
  OnnxBuilder b(6);
  b.Input("a", {1, 3, 2});
  b.FloatInitializer("bias", {3}, {100, 200, 300});
  onnx::NodeProto* n = b.Node("Add", {"a", "bias"}, {"y"});
  OnnxBuilder::AttrInt(n, "broadcast", 1);
  OnnxBuilder::AttrInt(n, "axis", 1);
  b.Output("y");
  ExpectNear(ConvertAndRun(b, CompileOptions(), {{0, 1, 2, 3, 4, 5}}).at(0), {100, 101, 202, 203, 304, 305});
  // The same with a computed B: a Reshape node aligns it.
  OnnxBuilder c(6);
  c.Input("a", {1, 3, 2});
  c.Input("m", {3});
  onnx::NodeProto* mul = c.Node("Mul", {"a", "m"}, {"y"});
  OnnxBuilder::AttrInt(mul, "broadcast", 1);
  OnnxBuilder::AttrInt(mul, "axis", 1);
  c.Output("y");
  ExpectNear(ConvertAndRun(c, CompileOptions(), {{0, 1, 2, 3, 4, 5}, {1, 2, 3}}).at(0), {0, 1, 4, 6, 12, 15});
}

TEST(OnnxImport, LegacyOpForms) {
  {
    OnnxBuilder b(6);  // PRelu: a per-channel slope
    b.Input("x", {1, 2, 2});
    b.FloatInitializer("slope", {2}, {0.5f, 0.25f});
    b.Node("PRelu", {"x", "slope"}, {"y"});
    b.Output("y");
    ExpectNear(ConvertAndRun(b, CompileOptions(), {{-1, 2, -4, 4}}).at(0), {-0.5f, 2, -1, 4});
  }
  {
    OnnxBuilder b(3);  // Concat: axis defaults to 1
    b.Input("x", {1, 1, 2});
    b.FloatInitializer("c", {1, 1, 2}, {7, 8});
    b.Node("Concat", {"x", "c"}, {"y"});
    b.Output("y");
    ExpectNear(ConvertAndRun(b, CompileOptions(), {{1, 2}}).at(0), {1, 2, 7, 8});
  }
  {
    OnnxBuilder b(1);  // Pad: `paddings`; Cast: `to` as a string (opset < 6)
    b.Input("x", {1, 2});
    OnnxBuilder::AttrInts(b.Node("Pad", {"x"}, {"p"}), "paddings", {0, 1, 0, 1});
    onnx::NodeProto* cast = b.Node("Cast", {"p"}, {"i"});
    OnnxBuilder::AttrString(cast, "to", "INT32");
    OnnxBuilder::AttrString(b.Node("Cast", {"i"}, {"y"}), "to", "FLOAT");
    b.Output("y");
    ExpectNear(ConvertAndRun(b, CompileOptions(), {{1.5f, -2.5f}}).at(0), {0, 1, -2, 0});
  }
  {
    // IR version 2 had no opset_import: opset 1.
    OnnxBuilder b(1, 2);
    b.model().clear_opset_import();
    b.Input("x", {1, 2});
    OnnxBuilder::AttrInts(b.Node("Relu", {"x"}, {"y"}), "consumed_inputs", {0});
    b.Output("y");
    ExpectNear(ConvertAndRun(b, CompileOptions(), {{-1, 1}}).at(0), {0, 1});
  }
}

TEST(OnnxImport, UnusedOptionalOutputsAreDropped) {
  OnnxBuilder b(12);
  b.Input("x", {1, 1, 2, 2});
  onnx::NodeProto* n = b.Node("MaxPool", {"x"}, {"y", "indices"});
  OnnxBuilder::AttrInts(n, "kernel_shape", {2, 2});
  b.Output("y");
  ExpectNear(ConvertAndRun(b, CompileOptions(), {{1, 4, 3, 2}}).at(0), {4});
}

TEST(OnnxImport, ComputedShapeInputsAreAnUnsupportedUse) {
  OnnxBuilder b(14);
  b.Input("x", {2, 3});
  b.Input("shape", {2}, onnx::TensorProto::INT64);
  b.Node("Reshape", {"x", "shape"}, {"y"}, "reshape");
  b.Output("y");
  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(b, CompileOptions(), &file);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "node 'reshape' (Reshape, opset 14): unsupported operator use: input 1 ('shape') is "
                                    "computed at run time, but npurt needs it constant"))
      << s.message();
}

// ---- a Paddle-style model ----

TEST(OnnxImport, PaddleStyleGraph) {
  // What paddle2onnx writes: IR 8, opset 11, no initializers (weights in
  // Constant nodes), named dynamic dims, Clip with inputs, an unfolded BN, a
  // hard-swish made of Add/Clip/Mul/Div, a Shape/Slice/Concat/Reshape chain.
  OnnxBuilder b(11, 8);
  b.Input("x", {-1, 2, -1, -1}, onnx::TensorProto::FLOAT,
          {"p2o.DynamicDimension.0", "", "p2o.DynamicDimension.1", "p2o.DynamicDimension.2"});
  const Floats w = {1, 2, -1, 0.5f}, bias = {0.1f, -0.2f};
  const Floats scale = {1, 2}, shift = {0, 1}, mean = {0.5f, 0}, var = {1, 4};
  const Floats fc = {1, 0, -1, 0.5f, 2, 0};  // [2, 3]
  b.FloatConstant("conv.w", {2, 2, 1, 1}, w);
  b.FloatConstant("conv.b", {2}, bias);
  b.Node("Conv", {"x", "conv.w", "conv.b"}, {"c"}, "conv2d_0");
  b.FloatConstant("bn.scale", {2}, scale);
  b.FloatConstant("bn.bias", {2}, shift);
  b.FloatConstant("bn.mean", {2}, mean);
  b.FloatConstant("bn.var", {2}, var);
  OnnxBuilder::AttrFloat(b.Node("BatchNormalization", {"c", "bn.scale", "bn.bias", "bn.mean", "bn.var"}, {"bn"}),
                         "epsilon", 1e-5f);
  b.FloatConstant("three", {1}, {3});
  b.FloatConstant("zero", {1}, {0});
  b.FloatConstant("six", {1}, {6});
  b.Node("Add", {"bn", "three"}, {"bn3"});
  b.Node("Clip", {"bn3", "zero", "six"}, {"clip"});
  b.Node("Mul", {"bn", "clip"}, {"hs0"});
  b.Node("Div", {"hs0", "six"}, {"hs"});
  onnx::NodeProto* hsig = b.Node("HardSigmoid", {"hs"}, {"gate"});
  OnnxBuilder::AttrFloat(hsig, "alpha", 0.2f);
  OnnxBuilder::AttrFloat(hsig, "beta", 0.5f);
  b.Node("Mul", {"hs", "gate"}, {"se"});
  b.Node("GlobalAveragePool", {"se"}, {"g"});
  b.Node("Shape", {"g"}, {"gs"});
  b.Int64Constant("s0", {1}, {0});
  b.Int64Constant("s1", {1}, {1});
  b.Node("Slice", {"gs", "s0", "s1"}, {"batch"});
  b.Int64Constant("rest", {1}, {-1});
  OnnxBuilder::AttrInt(b.Node("Concat", {"batch", "rest"}, {"target"}), "axis", 0);
  b.Node("Reshape", {"g", "target"}, {"flat"});
  b.FloatConstant("fc.w", {2, 3}, fc);
  b.Node("MatMul", {"flat", "fc.w"}, {"logits"});
  OnnxBuilder::AttrInt(b.Node("Softmax", {"logits"}, {"softmax_0.tmp_0"}), "axis", 1);
  b.Output("softmax_0.tmp_0");

  const Floats x = {0.1f, -0.4f, 1.5f, 2.0f, -1.0f, 0.3f, 0.7f, -2.0f};  // [1,2,2,2]
  // The same computation written out.
  Floats g(2, 0.0f);
  for (int p = 0; p < 4; ++p) {
    const float c0 = x[p], c1 = x[4 + p];
    const float conv[2] = {w[0] * c0 + w[1] * c1 + bias[0], w[2] * c0 + w[3] * c1 + bias[1]};
    for (int o = 0; o < 2; ++o) {
      const float bn = (conv[o] - mean[o]) / std::sqrt(var[o] + 1e-5f) * scale[o] + shift[o];
      const float hs = bn * std::min(std::max(bn + 3.0f, 0.0f), 6.0f) / 6.0f;
      const float gate = std::min(std::max(0.2f * hs + 0.5f, 0.0f), 1.0f);
      g[o] += hs * gate / 4.0f;
    }
  }
  Floats logits(3), want(3);
  float sum = 0;
  for (int j = 0; j < 3; ++j) {
    logits[j] = g[0] * fc[j] + g[1] * fc[3 + j];
    sum += std::exp(logits[j]);
  }
  for (int j = 0; j < 3; ++j) want[j] = std::exp(logits[j]) / sum;

  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(b, CompileOptions(), &file);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Contains(s.message(), "input 'x' has dynamic dim 0 ('p2o.DynamicDimension.0')")) << s.message();

  CompileOptions o;
  o.input_shapes["x"] = {1, 2, 2, 2};
  Graph graph;
  s = onnx_test::Import(b, o, &graph);
  ASSERT_TRUE(s.ok()) << s.message();
  for (const char* op : {"Constant", "Shape", "Slice", "Concat"}) EXPECT_EQ(CountOps(graph, op), 0) << op;
  auto out = ConvertAndRun(b, o, {x});
  ASSERT_EQ(out.size(), 1u);
  ExpectNear(out[0], want, 1e-5f);
}

// ---- subgraph cut ----

OnnxBuilder ChainModel() {
  // x -> Relu -> a -> Mul 2 -> b -> Add 1 -> y
  OnnxBuilder b(13);
  b.Input("x", {1, 4});
  b.FloatInitializer("two", {}, {2});
  b.FloatInitializer("one", {}, {1});
  b.Node("Relu", {"x"}, {"a"});
  b.Node("Mul", {"a", "two"}, {"b"});
  b.Node("Add", {"b", "one"}, {"y"});
  b.Output("y");
  return b;
}

TEST(OnnxImport, SubgraphCut) {
  OnnxBuilder b = ChainModel();
  CompileOptions o;
  o.inputs = {"a"};
  o.outputs = {"b"};
  Graph g;
  Status s = onnx_test::Import(b, o, &g);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(g.inputs().size(), 1u);
  EXPECT_EQ(g.tensors()[g.inputs()[0].tensor].name, "a");
  EXPECT_EQ(g.tensors()[g.inputs()[0].tensor].shape, (Shape{1, 4}));  // inferred from the full model
  EXPECT_EQ(CountOps(g, "Relu"), 0);
  EXPECT_EQ(CountOps(g, "Add"), 0);
  ExpectNear(ConvertAndRun(b, o, {{-1, 0, 1, 2}}).at(0), {-2, 0, 2, 4});

  // Only outputs: an intermediate becomes the output.
  CompileOptions only_out;
  only_out.outputs = {"a", "y"};
  auto out = ConvertAndRun(b, only_out, {{-1, 0, 1, 2}});
  ASSERT_EQ(out.size(), 2u);
  ExpectNear(out[0], {0, 0, 1, 2});
  ExpectNear(out[1], {1, 1, 3, 5});

  // A given shape for the cut input wins.
  o.input_shapes["a"] = {2, 2};
  ASSERT_TRUE(onnx_test::Import(b, o, &g).ok());
  EXPECT_EQ(g.tensors()[g.inputs()[0].tensor].shape, (Shape{2, 2}));
}

TEST(OnnxImport, SubgraphCutErrors) {
  OnnxBuilder b = ChainModel();
  Graph g;
  CompileOptions o;
  o.outputs = {"nope"};
  Status s = onnx_test::Import(b, o, &g);
  EXPECT_TRUE(Contains(s.message(), "output 'nope': the model has no tensor of that name")) << s.message();
  o.outputs = {"b"};
  o.inputs = {"nope"};
  s = onnx_test::Import(b, o, &g);
  EXPECT_TRUE(Contains(s.message(), "input 'nope': the model has no tensor")) << s.message();
  o.inputs = {"a", "y"};
  s = onnx_test::Import(b, o, &g);
  EXPECT_TRUE(Contains(s.message(), "input 'y' is not used by the outputs")) << s.message();
  // A cut that does not separate the outputs from the model input.
  OnnxBuilder two_paths = ChainModel();
  two_paths.Node("Add", {"b", "x"}, {"z"});
  o.inputs = {"a"};
  o.outputs = {"z"};
  s = onnx_test::Import(two_paths, o, &g);
  EXPECT_TRUE(Contains(s.message(), "the outputs still depend on model input 'x'")) << s.message();
}

// ---- input preprocessing ----

TEST(OnnxImport, MeanStdAndChannelReorderAreStoredAndApplied) {
  OnnxBuilder b(13);
  b.Input("x", {1, 3, 1, 2});
  b.FloatInitializer("one", {}, {1});
  b.Node("Mul", {"x", "one"}, {"y"});
  b.Output("y");
  CompileOptions o;
  o.mean_values = {{1, 2, 3}};
  o.std_values = {{2, 4, 8}};
  o.reorder_channels = {true};
  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(b, o, &file);
  ASSERT_TRUE(s.ok()) << s.message();
  std::shared_ptr<const Model> m;
  ASSERT_TRUE(Model::Load(file.data(), file.size(), &m).ok());
  EXPECT_EQ(m->inputs()[0].mean, (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(m->inputs()[0].std, (std::vector<float>{2, 4, 8}));
  EXPECT_EQ(m->inputs()[0].channel_order, (std::vector<int>{2, 1, 0}));
  // Application channel c holds 10 * (c + 1); internal channel c reads application channel 2 - c.
  auto out = onnx_test::RunModel(file, {{10, 10, 20, 20, 30, 30}});
  ASSERT_EQ(out.size(), 1u);
  ExpectNear(out[0], {14.5f, 14.5f, 4.5f, 4.5f, 0.875f, 0.875f});

  // One value for every channel; errors name the input.
  o.mean_values = {{127.5f}};
  o.std_values = {{127.5f}};
  o.reorder_channels = {};
  ASSERT_TRUE(onnx_test::Convert(b, o, &file).ok());
  ASSERT_TRUE(Model::Load(file.data(), file.size(), &m).ok());
  EXPECT_EQ(m->inputs()[0].mean, (std::vector<float>{127.5f, 127.5f, 127.5f}));
  o.mean_values = {{1, 2}};
  s = onnx_test::Convert(b, o, &file);
  EXPECT_TRUE(Contains(s.message(), "mean values for input 'x': 2 values given, the input has 3 channels")) << s.message();
  o.mean_values = {{1}, {2}};
  s = onnx_test::Convert(b, o, &file);
  EXPECT_TRUE(Contains(s.message(), "mean values given for 2 inputs, the model has 1")) << s.message();
  o.mean_values = {};
  o.std_values = {{0}};
  s = onnx_test::Convert(b, o, &file);
  EXPECT_TRUE(Contains(s.message(), "std values for input 'x' contain 0")) << s.message();
}

TEST(OnnxImport, SupportedOpListCoversEveryRuntimeOp) {
  std::vector<compiler::OnnxOpSupport> ops = compiler::SupportedOnnxOps();
  for (const OpDef* def : AllOps()) {
    auto it = std::find_if(ops.begin(), ops.end(), [def](const compiler::OnnxOpSupport& s) { return s.op_type == def->name; });
    if (def->custom) {  // made from nodes of other domains, never from an ONNX op of its name
      EXPECT_EQ(it, ops.end()) << def->name;
      continue;
    }
    ASSERT_NE(it, ops.end()) << def->name;
    EXPECT_EQ(it->kind, "runtime") << def->name;
  }
  for (const char* folded : {"Constant", "Shape", "Size", "ConstantOfShape", "Range"}) {
    auto it = std::find_if(ops.begin(), ops.end(), [folded](const compiler::OnnxOpSupport& s) { return s.op_type == folded; });
    ASSERT_NE(it, ops.end()) << folded;
    EXPECT_EQ(it->kind, "import-only") << folded;
  }
}

}  // namespace
}  // namespace npurt

namespace npurt {
namespace {

// One Einsum node on inputs x0, x1, ... of the given shapes, run on `values`.
std::vector<onnx_test::Floats> RunEinsum(const std::string& equation, const std::vector<onnx_test::Ints>& shapes,
                                         const std::vector<onnx_test::Floats>& values) {
  onnx_test::OnnxBuilder b(13);
  std::vector<std::string> names;
  for (size_t i = 0; i < shapes.size(); ++i) {
    names.push_back("x" + std::to_string(i));
    b.Input(names.back(), shapes[i]);
  }
  onnx_test::OnnxBuilder::AttrString(b.Node("Einsum", names, {"y"}), "equation", equation);
  b.Output("y");
  return onnx_test::ConvertAndRun(b, compiler::CompileOptions(), values);
}

TEST(OnnxImport, EinsumLowersOntoMatMulTransposeAndSums) {
  // Batch matmul: [[1, 2], [3, 4]] x [[5, 6], [7, 8]].
  EXPECT_EQ(RunEinsum("bij,bjk->bik", {{1, 2, 2}, {1, 2, 2}}, {{1, 2, 3, 4}, {5, 6, 7, 8}})[0],
            (onnx_test::Floats{19, 22, 43, 50}));
  // Implicit output (letters seen once: none): the inner product, a scalar.
  EXPECT_EQ(RunEinsum("i,i", {{3}, {3}}, {{1, 2, 3}, {4, 5, 6}})[0], (onnx_test::Floats{32}));
  EXPECT_EQ(RunEinsum("ij->ji", {{2, 3}}, {{1, 2, 3, 4, 5, 6}})[0], (onnx_test::Floats{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(RunEinsum("ij->", {{2, 3}}, {{1, 2, 3, 4, 5, 6}})[0], (onnx_test::Floats{21}));
  // Bilinear, three operands: [1, 2] [[1, 2], [3, 4]] [5, 6]^T = 95.
  EXPECT_EQ(RunEinsum("bi,ij,bj->b", {{1, 2}, {2, 2}, {1, 2}}, {{1, 2}, {1, 2, 3, 4}, {5, 6}})[0],
            (onnx_test::Floats{95}));
  // Attention scores with uppercase letters and spaces (torchvision MaxViT's spelling), a letter summed
  // out of one operand only, and an ellipsis.
  EXPECT_EQ(RunEinsum("B I D, B J D -> B I J", {{1, 1, 2}, {1, 2, 2}}, {{1, 2}, {3, 4, 5, 6}})[0],
            (onnx_test::Floats{11, 17}));
  EXPECT_EQ(RunEinsum("ij,k->i", {{2, 2}, {3}}, {{1, 2, 3, 4}, {1, 1, 1}})[0], (onnx_test::Floats{9, 21}));
  EXPECT_EQ(RunEinsum("...ij,...jk->...ik", {{2, 1, 2}, {2, 2, 1}}, {{1, 2, 3, 4}, {5, 6, 7, 8}})[0],
            (onnx_test::Floats{17, 53}));
}

TEST(OnnxImport, EinsumDiagonalsAndBadEquationsAreClearErrors) {
  auto error = [](const std::string& equation, const std::vector<onnx_test::Ints>& shapes) {
    onnx_test::OnnxBuilder b(13);
    std::vector<std::string> names;
    for (size_t i = 0; i < shapes.size(); ++i) {
      names.push_back("x" + std::to_string(i));
      b.Input(names.back(), shapes[i]);
    }
    onnx_test::OnnxBuilder::AttrString(b.Node("Einsum", names, {"y"}, "einsum_node"), "equation", equation);
    b.Output("y");
    std::vector<uint8_t> file;
    return onnx_test::Convert(b, compiler::CompileOptions(), &file).message();
  };
  EXPECT_NE(error("ii->i", {{2, 2}}).find("diagonal"), std::string::npos);
  EXPECT_NE(error("ij,jk->ik", {{2, 3}, {4, 2}}).find("letter 'j' is 3 in one operand and 4"), std::string::npos);
  EXPECT_NE(error("ijk->i", {{2, 3}}).find("does not match its rank"), std::string::npos);
  EXPECT_NE(error("ij,jk->iz", {{2, 3}, {3, 2}}).find("output letter 'z'"), std::string::npos);
  EXPECT_NE(error("ij->ij", {{2, 3}, {3, 2}}).find("1 operands for 2 inputs"), std::string::npos);
}

// If on `cond`: then_branch = Relu(x) + b (b a branch initializer, x read from the outer graph),
// else_branch = Neg(x); y = If(...) * 10.
void AddIfNode(onnx_test::OnnxBuilder& b, const std::string& cond, const std::string& else_op = "Neg") {
  using onnx_test::OnnxBuilder;
  onnx::NodeProto* n = b.Node("If", {cond}, {"picked"}, "if_node");
  onnx::GraphProto* then_g = OnnxBuilder::AttrGraph(n, "then_branch");
  *then_g->add_initializer() = OnnxBuilder::FloatTensor("b", {3}, {1, 2, 3});
  OnnxBuilder::SubgraphNode(then_g, "Relu", {"x"}, {"r"});
  OnnxBuilder::SubgraphNode(then_g, "Add", {"r", "b"}, {"then_out"});
  OnnxBuilder::SubgraphOutput(then_g, "then_out");
  onnx::GraphProto* else_g = OnnxBuilder::AttrGraph(n, "else_branch");
  OnnxBuilder::SubgraphNode(else_g, else_op, {"x"}, {"else_out"});
  OnnxBuilder::SubgraphOutput(else_g, "else_out");
  b.FloatInitializer("ten", {}, {10});
  b.Node("Mul", {"picked", "ten"}, {"y"});
  b.Output("y");
}

TEST(OnnxImport, IfOnAShapeConditionInlinesTheChosenBranchOnly) {
  // cond = Shape(x)[1] > limit: constant once x's shape is fixed, as exporters write it.
  for (int64_t limit : {2, 3}) {
    onnx_test::OnnxBuilder b(13);
    b.Input("x", {2, 3});
    b.Node("Shape", {"x"}, {"shape"});
    b.Int64Initializer("one", {}, {1});
    b.Int64Initializer("limit", {}, {limit});
    b.Node("Gather", {"shape", "one"}, {"dim1"});
    b.Node("Greater", {"dim1", "limit"}, {"cond"});
    // The branch not taken may hold what npurt cannot run: it is never imported.
    AddIfNode(b, "cond", limit == 3 ? "Neg" : "NoSuchOperator");
    const auto y = onnx_test::ConvertAndRun(b, compiler::CompileOptions(), {{-1, 2, -3, 4, -5, 6}});
    ASSERT_EQ(y.size(), 1u);
    if (limit == 2) {  // 3 > 2: Relu(x) + [1, 2, 3], times 10
      EXPECT_EQ(y[0], (onnx_test::Floats{10, 40, 30, 50, 20, 90}));
    } else {  // 3 > 3 is false: -x, times 10
      EXPECT_EQ(y[0], (onnx_test::Floats{10, -20, 30, -40, 50, -60}));
    }
  }
}

TEST(OnnxImport, IfNestedInABranchReadsEveryOuterScope) {
  using onnx_test::OnnxBuilder;
  onnx_test::OnnxBuilder b(13);
  b.Input("x", {2});
  b.FloatInitializer("two", {}, {2});
  onnx::TensorProto yes;
  yes.set_name("yes");
  yes.set_data_type(onnx::TensorProto::BOOL);
  yes.set_raw_data(std::string(1, '\1'));
  b.Initializer(yes);
  onnx::NodeProto* outer = b.Node("If", {"yes"}, {"y"}, "outer_if");
  onnx::GraphProto* outer_then = OnnxBuilder::AttrGraph(outer, "then_branch");
  OnnxBuilder::SubgraphNode(outer_then, "Mul", {"x", "two"}, {"x2"});
  onnx::NodeProto* inner = OnnxBuilder::SubgraphNode(outer_then, "If", {"yes"}, {"inner_out"});
  onnx::GraphProto* inner_then = OnnxBuilder::AttrGraph(inner, "then_branch");
  OnnxBuilder::SubgraphNode(inner_then, "Add", {"x2", "x"}, {"sum"});  // x2 from the branch, x from the top
  OnnxBuilder::SubgraphOutput(inner_then, "sum");
  onnx::GraphProto* inner_else = OnnxBuilder::AttrGraph(inner, "else_branch");
  OnnxBuilder::SubgraphOutput(inner_else, "x");
  OnnxBuilder::SubgraphOutput(outer_then, "inner_out");
  onnx::GraphProto* outer_else = OnnxBuilder::AttrGraph(outer, "else_branch");
  OnnxBuilder::SubgraphOutput(outer_else, "x");
  b.Output("y");
  EXPECT_EQ(onnx_test::ConvertAndRun(b, compiler::CompileOptions(), {{1, -4}})[0], (onnx_test::Floats{3, -12}));
}

TEST(OnnxImport, IfOnARunTimeConditionRunsBothBranchesAndSelects) {
  // cond = ReduceSum(x) > 0, known only when x is.
  onnx_test::OnnxBuilder b(13);
  b.Input("x", {3});
  onnx::NodeProto* sum = b.Node("ReduceSum", {"x"}, {"s"});
  onnx_test::OnnxBuilder::AttrInt(sum, "keepdims", 0);
  b.FloatInitializer("zero", {}, {0});
  b.Node("Greater", {"s", "zero"}, {"cond"});
  AddIfNode(b, "cond");
  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(b, compiler::CompileOptions(), &file);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(onnx_test::RunModel(file, {{1, -2, 3}})[0], (onnx_test::Floats{20, 20, 60}));   // sum 2: Relu(x) + b
  EXPECT_EQ(onnx_test::RunModel(file, {{1, -5, 3}})[0], (onnx_test::Floats{-10, 50, -30}));  // sum -1: -x
}

TEST(OnnxImport, IfWhoseRunTimeBranchesDisagreeInShapeIsAClearError) {
  using onnx_test::OnnxBuilder;
  onnx_test::OnnxBuilder b(13);
  b.Input("x", {3});
  b.Input("cond", {}, onnx::TensorProto::BOOL);
  onnx::NodeProto* n = b.Node("If", {"cond"}, {"y"}, "if_node");
  onnx::GraphProto* then_g = OnnxBuilder::AttrGraph(n, "then_branch");
  OnnxBuilder::SubgraphOutput(then_g, "x");
  onnx::GraphProto* else_g = OnnxBuilder::AttrGraph(n, "else_branch");
  *else_g->add_initializer() = OnnxBuilder::FloatTensor("k", {2}, {1, 2});
  OnnxBuilder::SubgraphOutput(else_g, "k");
  b.Output("y");
  std::vector<uint8_t> file;
  Status s = onnx_test::Convert(b, compiler::CompileOptions(), &file);
  EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
  EXPECT_NE(s.message().find("output 0 is FP32 [3] in then_branch and FP32 [2] in else_branch"),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("if_node"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace npurt
