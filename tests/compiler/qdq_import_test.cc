// Pre-quantized ONNX models (QDQ pairs, PyTorch's export with Casts, the QOperator forms) convert to npurt
// int8 with the model's own scales, zero points and weight codes, without calibration; their outputs are
// checked against the ONNX definition computed here in double precision.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "tests/compiler/onnx_builder.h"

namespace npurt {
namespace compiler {
namespace {

using onnx_test::Floats;
using onnx_test::Ints;
using onnx_test::OnnxBuilder;

onnx::TensorProto Tensor(const std::string& name, int type, const Ints& dims, const std::string& bytes) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(type);
  for (int64_t d : dims) t.add_dims(d);
  t.set_raw_data(bytes);
  return t;
}
template <typename T>
std::string Bytes(const std::vector<T>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

// One quantization step of every value: round half to even, as ONNX does.
double RoundEven(double v) { return std::nearbyint(v); }
int Quantize(double real, double scale, int zp, int lo, int hi) {
  return static_cast<int>(std::fmin(std::fmax(RoundEven(real / scale) + zp, lo), hi));
}

struct ConvCase {
  int c = 2, m = 3, h = 4, w = 4;
  float sx = 0.05f;                      // input: uint8, zero point 128
  std::vector<float> sw = {0.01f, 0.02f, 0.005f};
  std::vector<int8_t> codes;             // [m, c, 3, 3], the full int8 range
  std::vector<int32_t> bias = {100, -50, 7};
  float sy = 0.04f;                      // output: int8, zero point -3
  int zy = -3;
};

ConvCase MakeConvCase() {
  ConvCase k;
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> code(-128, 127);
  k.codes.resize(static_cast<size_t>(k.m * k.c * 9));
  for (int8_t& v : k.codes) v = static_cast<int8_t>(code(rng));
  return k;
}

// The real value of every output of the case's 3x3 convolution (pads 1) over dequantized inputs `xr`
// ([c, h, w]) with the dequantized weights and bias: [m, h, w], before any activation or rounding.
std::vector<double> ConvSums(const ConvCase& k, const std::vector<double>& xr) {
  std::vector<double> out(static_cast<size_t>(k.m * k.h * k.w));
  for (int o = 0; o < k.m; ++o) {
    const double sw = k.sw[static_cast<size_t>(o)];
    for (int r = 0; r < k.h; ++r) {
      for (int col = 0; col < k.w; ++col) {
        double acc = k.bias[static_cast<size_t>(o)] * static_cast<double>(k.sx) * sw;
        for (int c = 0; c < k.c; ++c) {
          for (int i = 0; i < 3; ++i) {
            for (int j = 0; j < 3; ++j) {
              const int rr = r + i - 1, cc = col + j - 1;
              if (rr < 0 || rr >= k.h || cc < 0 || cc >= k.w) continue;
              acc += xr[static_cast<size_t>((c * k.h + rr) * k.w + cc)] *
                     k.codes[static_cast<size_t>(((o * k.c + c) * 3 + i) * 3 + j)] * sw;
            }
          }
        }
        out[static_cast<size_t>((o * k.h + r) * k.w + col)] = acc;
      }
    }
  }
  return out;
}

// The ONNX meaning of the QDQ conv model: Q/DQ of x, the convolution, Relu, Q/DQ of y. Also returns, per
// output, how far the real value before the last rounding is from a rounding tie (in steps), where float32
// arithmetic may round either way, and (`real`) that value.
Floats ReferenceConv(const ConvCase& k, const Floats& x, std::vector<double>* tie_distance, Floats* real = nullptr) {
  std::vector<double> xr(x.size());
  for (size_t i = 0; i < x.size(); ++i) xr[i] = (Quantize(x[i], k.sx, 128, 0, 255) - 128) * static_cast<double>(k.sx);
  const std::vector<double> sums = ConvSums(k, xr);
  Floats y(sums.size());
  tie_distance->resize(y.size());
  for (size_t at = 0; at < sums.size(); ++at) {
    const double acc = std::fmax(sums[at], 0.0);
    const double steps = acc / k.sy;
    (*tie_distance)[at] = std::fabs(steps - std::floor(steps) - 0.5);
    if (real != nullptr) real->push_back(static_cast<float>(acc));
    y[at] = static_cast<float>((Quantize(acc, k.sy, k.zy, -128, 127) - k.zy) * static_cast<double>(k.sy));
  }
  return y;
}

// x -> Q -> [Cast] -> DQ -> Conv(DQ(w), DQ(b)) -> Relu -> Q -> [Cast] -> DQ -> y, in ONNX Runtime's form (scales
// as initializers) or PyTorch's (scales from Constant nodes, a same-type Cast between Q and DQ).
OnnxBuilder QdqConvModel(const ConvCase& k, bool pytorch_style) {
  OnnxBuilder b(13);
  b.Input("x", {1, k.c, k.h, k.w});
  auto scalar = [&](const std::string& name, int type, const std::string& bytes) {
    const onnx::TensorProto t = Tensor(name, type, {}, bytes);
    if (pytorch_style) {
      b.ConstantNode(name, t);
    } else {
      b.Initializer(t);
    }
  };
  scalar("sx", onnx::TensorProto::FLOAT, Bytes(Floats{k.sx}));
  scalar("zx", onnx::TensorProto::UINT8, Bytes(std::vector<uint8_t>{128}));
  scalar("sy", onnx::TensorProto::FLOAT, Bytes(Floats{k.sy}));
  scalar("zy", onnx::TensorProto::INT8, Bytes(std::vector<int8_t>{static_cast<int8_t>(k.zy)}));
  b.Initializer(Tensor("w_codes", onnx::TensorProto::INT8, {k.m, k.c, 3, 3}, Bytes(k.codes)));
  b.Initializer(Tensor("w_scale", onnx::TensorProto::FLOAT, {k.m}, Bytes(k.sw)));
  b.Initializer(Tensor("w_zp", onnx::TensorProto::INT8, {k.m}, Bytes(std::vector<int8_t>(k.sw.size(), 0))));
  Floats bias_scale;
  for (float s : k.sw) bias_scale.push_back(k.sx * s);
  b.Initializer(Tensor("b_codes", onnx::TensorProto::INT32, {k.m}, Bytes(k.bias)));
  b.Initializer(Tensor("b_scale", onnx::TensorProto::FLOAT, {k.m}, Bytes(bias_scale)));
  auto pair = [&](const std::string& in, const std::string& s, const std::string& z, int type, const std::string& out) {
    b.Node("QuantizeLinear", {in, s, z}, {in + "_q"});
    std::string codes = in + "_q";
    if (pytorch_style) {
      OnnxBuilder::AttrInt(b.Node("Cast", {codes}, {in + "_cast"}), "to", type);
      codes = in + "_cast";
    }
    b.Node("DequantizeLinear", {codes, s, z}, {out});
  };
  pair("x", "sx", "zx", onnx::TensorProto::UINT8, "x_dq");
  OnnxBuilder::AttrInt(b.Node("DequantizeLinear", {"w_codes", "w_scale", "w_zp"}, {"w"}), "axis", 0);
  OnnxBuilder::AttrInt(b.Node("DequantizeLinear", {"b_codes", "b_scale"}, {"b"}), "axis", 0);
  OnnxBuilder::AttrInts(b.Node("Conv", {"x_dq", "w", "b"}, {"conv"}, "conv"), "pads", {1, 1, 1, 1});
  b.Node("Relu", {"conv"}, {"relu"}, "relu");
  pair("relu", "sy", "zy", onnx::TensorProto::INT8, "y");
  b.Output("y");
  return b;
}

Status ConvertQdq(const OnnxBuilder& b, const CompileOptions& options, Graph* graph, std::vector<uint8_t>* file,
                  BuildReport* report) {
  const std::string path = onnx_test::TempPath("qdq.onnx");
  if (!b.Write(path)) return NPURT_ERROR(kFail, "cannot write %s", path.c_str());
  Status s = ImportAndOptimize(path, options, graph);
  std::remove(path.c_str());
  if (s.ok()) s = Build(options, graph, file, report);
  return s;
}

const IrNode* FindNode(const Graph& g, const std::string& op) {
  for (const IrNode& n : g.nodes()) {
    if (n.op_type == op) return &n;
  }
  return nullptr;
}

Floats RandomInput(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> d(0.0f, 2.0f);
  Floats x(n);
  for (float& v : x) v = d(rng);
  return x;
}

// Every output equals the ONNX definition's, but where the real value sits within 1e-3 steps of a rounding
// tie (float32 and double may round it either way): there within one step.
void ExpectSameCodes(const Floats& got, const Floats& want, const std::vector<double>& tie_distance, float step) {
  ASSERT_EQ(got.size(), want.size());
  int near_ties = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (tie_distance[i] < 1e-3) {
      ++near_ties;
      EXPECT_LE(std::fabs(got[i] - want[i]), step * 1.001f) << "at " << i;
    } else {
      EXPECT_NEAR(got[i], want[i], step * 1e-3f) << "at " << i;
    }
  }
  EXPECT_LT(near_ties, 3);  // the check above must mean something
}

TEST(QdqImport, ConvKeepsTheModelsCodesScalesAndZeroPoints) {
  const ConvCase k = MakeConvCase();
  for (bool pytorch_style : {false, true}) {
    SCOPED_TRACE(pytorch_style ? "PyTorch export" : "ONNX Runtime QDQ");
    Graph g;
    std::vector<uint8_t> file;
    BuildReport report;
    // No --quantize and no dataset: a QDQ model is int8 by its own parameters.
    const Status s = ConvertQdq(QdqConvModel(k, pytorch_style), CompileOptions(), &g, &file, &report);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_TRUE(report.quantized);
    EXPECT_TRUE(report.model_params);
    EXPECT_EQ(report.calibration_samples, 0u);
    EXPECT_EQ(report.quant.float_nodes, 0);
    EXPECT_EQ(report.quant.boundary_nodes, 0);  // the graph input is quantized on the way in
    EXPECT_EQ(FindNode(g, "QuantizeLinear"), nullptr);
    EXPECT_EQ(FindNode(g, "DequantizeLinear"), nullptr);

    const IrNode* conv = FindNode(g, "Conv");
    ASSERT_NE(conv, nullptr);
    const IrTensor& x = g.tensors()[conv->inputs[0]];
    EXPECT_EQ(x.dtype, DataType::kInt8);
    EXPECT_EQ(x.quant.scale, Floats{k.sx});
    EXPECT_EQ(x.quant.zero_point, std::vector<int32_t>{0});  // uint8 128 = int8 0
    const IrTensor& w = g.tensors()[conv->inputs[1]];
    ASSERT_EQ(w.dtype, DataType::kInt8);
    EXPECT_EQ(w.quant.scale, k.sw);
    EXPECT_EQ(w.quant.axis, 0);
    ASSERT_EQ(w.data.size(), k.codes.size());
    EXPECT_EQ(std::vector<int8_t>(w.data.begin(), w.data.end()), k.codes);  // -128 included
    const IrTensor& bias = g.tensors()[conv->inputs[2]];
    ASSERT_EQ(bias.dtype, DataType::kInt32);
    EXPECT_EQ(std::vector<int32_t>(reinterpret_cast<const int32_t*>(bias.data.data()),
                                   reinterpret_cast<const int32_t*>(bias.data.data()) + k.m),
              k.bias);
    const IrTensor& y = g.tensors()[g.outputs()[0]];
    EXPECT_EQ(y.name, "y");
    EXPECT_EQ(y.dtype, DataType::kInt8);
    EXPECT_EQ(y.quant.scale, Floats{k.sy});
    EXPECT_EQ(y.quant.zero_point, std::vector<int32_t>{k.zy});

    const Floats in = RandomInput(static_cast<size_t>(k.c * k.h * k.w), 5);
    std::vector<double> ties;
    const Floats want = ReferenceConv(k, in, &ties);
    const std::vector<Floats> got = onnx_test::RunModel(file, {in});
    ASSERT_EQ(got.size(), 1u);
    ExpectSameCodes(got[0], want, ties, k.sy);
  }
}

// A pair between a Conv and its Relu: the model rounds the Conv's output to its own parameters before the
// Relu (and the Relu's output to others), so the Relu must not fuse into the Conv, which would skip that
// rounding. Without the pair the Relu fuses as usual.
TEST(QdqImport, NoFusionDropsARoundingTheModelDefines) {
  for (bool pair_between : {true, false}) {
    SCOPED_TRACE(pair_between ? "pair between Conv and Relu" : "no pair between");
    OnnxBuilder b(13);
    b.Input("x", {1, 2, 4, 4});
    b.Initializer(Tensor("s", onnx::TensorProto::FLOAT, {}, Bytes(Floats{0.05f})));
    b.Initializer(Tensor("s2", onnx::TensorProto::FLOAT, {}, Bytes(Floats{0.03f})));
    b.Initializer(Tensor("z", onnx::TensorProto::UINT8, {}, Bytes(std::vector<uint8_t>{128})));
    b.Initializer(Tensor("w_codes", onnx::TensorProto::INT8, {2, 2, 1, 1}, Bytes(std::vector<int8_t>{10, -20, 30, 40})));
    b.Initializer(Tensor("w_scale", onnx::TensorProto::FLOAT, {}, Bytes(Floats{0.01f})));
    b.Node("QuantizeLinear", {"x", "s", "z"}, {"xq"});
    b.Node("DequantizeLinear", {"xq", "s", "z"}, {"xd"});
    b.Node("DequantizeLinear", {"w_codes", "w_scale"}, {"w"});
    b.Node("Conv", {"xd", "w"}, {"c"}, "conv");
    std::string relu_in = "c";
    if (pair_between) {
      b.Node("QuantizeLinear", {"c", "s2", "z"}, {"cq"});
      b.Node("DequantizeLinear", {"cq", "s2", "z"}, {"cd"});
      relu_in = "cd";
    }
    b.Node("Relu", {relu_in}, {"r"}, "relu");
    b.Node("QuantizeLinear", {"r", "s", "z"}, {"rq"});
    b.Node("DequantizeLinear", {"rq", "s", "z"}, {"y"});
    b.Output("y");
    Graph g;
    std::vector<uint8_t> file;
    BuildReport report;
    const Status s = ConvertQdq(b, CompileOptions(), &g, &file, &report);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(FindNode(g, "Relu") != nullptr, pair_between);
    ASSERT_NE(FindNode(g, "Conv"), nullptr);
    EXPECT_EQ(FindNode(g, "Conv")->attrs.Has("activation"), !pair_between);
    EXPECT_EQ(report.quant.float_nodes, 0);
  }
}

TEST(QdqImport, HybridOptionsThatWouldMoveTheParametersAreRefused) {
  Graph g;
  std::vector<uint8_t> file;
  BuildReport report;
  CompileOptions o;
  o.int16_layers = {"conv"};
  const Status s = ConvertQdq(QdqConvModel(MakeConvCase(), false), o, &g, &file, &report);
  EXPECT_EQ(s.code(), StatusCode::kParamInvalid);
  EXPECT_NE(s.message().find("keeps its own int8 parameters"), std::string::npos) << s.message();
}

TEST(QdqImport, FloatLayersStayFloatBetweenTheModelsBoundaries) {
  const ConvCase k = MakeConvCase();
  Graph g;
  std::vector<uint8_t> file;
  BuildReport report;
  CompileOptions o;
  o.float_layers = {"conv"};
  const Status s = ConvertQdq(QdqConvModel(k, false), o, &g, &file, &report);
  ASSERT_TRUE(s.ok()) << s.message();
  const IrNode* conv = FindNode(g, "Conv");
  ASSERT_NE(conv, nullptr);
  EXPECT_EQ(g.tensors()[conv->inputs[1]].dtype, DataType::kFloat32);
  // The float conv reads the input's int8 codes, dequantized (the model's rounding of x), with the
  // dequantized weights; its output y, a graph output no int8 op reads, stays float.
  EXPECT_EQ(g.tensors()[g.outputs()[0]].dtype, DataType::kFloat32);
  const Floats in = RandomInput(static_cast<size_t>(k.c * k.h * k.w), 6);
  std::vector<double> ties;
  Floats real;
  ReferenceConv(k, in, &ties, &real);
  const std::vector<Floats> got = onnx_test::RunModel(file, {in});
  ASSERT_EQ(got.size(), 1u);
  onnx_test::ExpectNear(got[0], real, 1e-5f);
}

// QLinearConv -> Reshape -> QLinearMatMul on uint8 codes in and out (a QOperator model).
TEST(QdqImport, QOperatorConvAndMatMulRunInInt8) {
  const ConvCase k = MakeConvCase();
  const int features = k.m * k.h * k.w, classes = 5;
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> code(-127, 127);
  std::vector<int8_t> b_codes(static_cast<size_t>(features * classes));
  for (int8_t& v : b_codes) v = static_cast<int8_t>(code(rng));
  const Floats b_scale = {0.002f, 0.004f, 0.003f, 0.001f, 0.005f};
  const float sz = 0.1f;
  const uint8_t zz = 100, zy = 131;  // the conv's output: uint8 at k.sy, zero point 131

  OnnxBuilder b(13);
  b.Input("x", {1, k.c, k.h, k.w}, onnx::TensorProto::UINT8);
  b.Initializer(Tensor("sx", onnx::TensorProto::FLOAT, {}, Bytes(Floats{k.sx})));
  b.Initializer(Tensor("zx", onnx::TensorProto::UINT8, {}, Bytes(std::vector<uint8_t>{128})));
  b.Initializer(Tensor("w", onnx::TensorProto::INT8, {k.m, k.c, 3, 3}, Bytes(k.codes)));
  b.Initializer(Tensor("sw", onnx::TensorProto::FLOAT, {k.m}, Bytes(k.sw)));
  b.Initializer(Tensor("zw", onnx::TensorProto::INT8, {k.m}, Bytes(std::vector<int8_t>(k.sw.size(), 0))));
  b.Initializer(Tensor("sy", onnx::TensorProto::FLOAT, {}, Bytes(Floats{k.sy})));
  b.Initializer(Tensor("zy", onnx::TensorProto::UINT8, {}, Bytes(std::vector<uint8_t>{zy})));
  b.Initializer(Tensor("bias", onnx::TensorProto::INT32, {k.m}, Bytes(k.bias)));
  b.Initializer(Tensor("shape", onnx::TensorProto::INT64, {2}, Bytes(std::vector<int64_t>{1, features})));
  b.Initializer(Tensor("mb", onnx::TensorProto::INT8, {features, classes}, Bytes(b_codes)));
  b.Initializer(Tensor("sb", onnx::TensorProto::FLOAT, {classes}, Bytes(b_scale)));
  b.Initializer(Tensor("zb", onnx::TensorProto::INT8, {classes}, Bytes(std::vector<int8_t>(classes, 0))));
  b.Initializer(Tensor("sz", onnx::TensorProto::FLOAT, {}, Bytes(Floats{sz})));
  b.Initializer(Tensor("zz", onnx::TensorProto::UINT8, {}, Bytes(std::vector<uint8_t>{zz})));
  OnnxBuilder::AttrInts(b.Node("QLinearConv", {"x", "sx", "zx", "w", "sw", "zw", "sy", "zy", "bias"}, {"y"}, "conv"),
                        "pads", {1, 1, 1, 1});
  b.Node("Reshape", {"y", "shape"}, {"flat"});
  b.Node("QLinearMatMul", {"flat", "sy", "zy", "mb", "sb", "zb", "sz", "zz"}, {"z"}, "fc");
  b.Output("z", onnx::TensorProto::UINT8);

  Graph g;
  std::vector<uint8_t> file;
  BuildReport report;
  const Status s = ConvertQdq(b, CompileOptions(), &g, &file, &report);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(report.quant.float_nodes, 0);
  for (const std::string& r : report.quant.float_reasons) ADD_FAILURE() << r;
  EXPECT_EQ(report.quant.float_macs, 0);
  EXPECT_GT(report.quant.int8_macs, 0);

  // The reference: codes in, the conv without Relu (uint8 out), then the matmul.
  std::mt19937 in_rng(9);
  std::uniform_int_distribution<int> u8(0, 255);
  Floats x(static_cast<size_t>(k.c * k.h * k.w));
  for (float& v : x) v = static_cast<float>(u8(in_rng));
  std::vector<double> xr(x.size());
  for (size_t i = 0; i < x.size(); ++i) xr[i] = (x[i] - 128) * static_cast<double>(k.sx);
  const std::vector<double> conv_real = ConvSums(k, xr);
  std::vector<int> y_codes(conv_real.size());
  for (size_t i = 0; i < conv_real.size(); ++i) y_codes[i] = Quantize(conv_real[i], k.sy, zy, 0, 255);
  Floats want(classes);
  std::vector<double> ties(classes);
  for (int n = 0; n < classes; ++n) {
    double acc = 0.0;
    for (int f = 0; f < features; ++f) {
      acc += (y_codes[static_cast<size_t>(f)] - zy) * static_cast<double>(k.sy) *
             b_codes[static_cast<size_t>(f * classes + n)] * b_scale[static_cast<size_t>(n)];
    }
    const double steps = acc / sz;
    ties[static_cast<size_t>(n)] = std::fabs(steps - std::floor(steps) - 0.5);
    want[static_cast<size_t>(n)] = static_cast<float>(Quantize(acc, sz, zz, 0, 255));
  }
  const std::vector<Floats> got = onnx_test::RunModel(file, {x});
  ASSERT_EQ(got.size(), 1u);
  // Codes (a uint8 output reads back as its integer values); one conv code at a tie may move a class by a
  // fraction of a step, so the classes are compared within one step and mostly exactly.
  ASSERT_EQ(got[0].size(), want.size());
  int exact = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_LE(std::fabs(got[0][i] - want[i]), 1.0f) << "at " << i;
    exact += got[0][i] == want[i];
  }
  EXPECT_GE(exact, classes - 1);
}

// Malformed quantized operators: kModelInvalid naming the op and what is missing.
TEST(QdqImport, MalformedQuantizedOperatorsAreModelInvalid) {
  struct Case {
    const char* op;
    std::vector<std::string> inputs;
    const char* message;
  } cases[] = {
      {"QLinearConv", {"x", "s", "z", "w", "s", "z", "s"}, "needs 8 inputs"},
      {"QLinearMatMul", {"x", "s", "z", "w", "s", "z", "s"}, "needs 8 inputs"},
      {"ConvInteger", {"x"}, "takes 2 to 4 inputs"},
      {"MatMulInteger", {"x"}, "takes 2 to 4 inputs"},
      {"DequantizeLinear", {"x"}, "needs x and x_scale"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.op);
    OnnxBuilder b(13);
    b.Input("x", {1, 2, 4, 4}, onnx::TensorProto::UINT8);
    b.Initializer(Tensor("s", onnx::TensorProto::FLOAT, {}, Bytes(Floats{0.1f})));
    b.Initializer(Tensor("z", onnx::TensorProto::UINT8, {}, Bytes(std::vector<uint8_t>{128})));
    b.Initializer(Tensor("w", onnx::TensorProto::INT8, {2, 2, 1, 1}, Bytes(std::vector<int8_t>{1, 2, 3, 4})));
    b.Node(c.op, c.inputs, {"y"}, "bad");
    b.Output("y");
    Graph g;
    std::vector<uint8_t> file;
    BuildReport report;
    const Status s = ConvertQdq(b, CompileOptions(), &g, &file, &report);
    EXPECT_EQ(s.code(), StatusCode::kModelInvalid) << s.message();
    EXPECT_NE(s.message().find(c.message), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("bad"), std::string::npos) << s.message();
  }
}

}  // namespace
}  // namespace compiler
}  // namespace npurt
