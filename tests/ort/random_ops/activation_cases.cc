// Activation cases (every activation-like op in docs/supported_ops.md, with
// input ranges that reach every branch) and fused chains that exercise
// npurt's graph passes: BatchNorm and affine folding, hard-swish recognition,
// activation fusion into Conv / Gemm / Add. Not generated because npurt does
// not support them: Elu, Selu, Softplus, Softsign, Mish, Gelu (opset 20),
// LogSoftmax.
#include <cctype>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "tests/ort/random_ops/random_case.h"

namespace random_ops {
namespace {

Ints RandomShape(Rng* rng) {
  switch (rng->Int(0, 3)) {
    case 0: return {rng->Int(1, 4), rng->Int(1, 33)};
    case 1: return {rng->Int(1, 2), rng->Int(1, 6), rng->Int(1, 17)};
    default: return {rng->Int(1, 2), rng->Int(1, 6), rng->Int(1, 7), rng->Int(1, 9)};
  }
}

// One elementwise op on a random input uniform in [lo, hi].
void AddUnary(Rng* rng, Suite* suite, const std::string& op, int opset, float lo, float hi, const Attrs& attrs = {},
              const std::string& tag = "") {
  const Ints shape = RandomShape(rng);
  Case c(Lower(op) + std::to_string(opset) + tag + "_" + ShapeTag(shape), opset, rng);
  c.Output(c.Node(op, {c.Input(shape, lo, hi)}, attrs));
  suite->Add(op, c);
}

void AddPRelu(Rng* rng, Suite* suite) {
  // Slope broadcast unidirectionally to X: per channel, one value, full, trailing dim.
  const Ints x = {2, 5, 4, 6};
  const std::vector<std::pair<std::string, Ints>> slopes = {
      {"perchannel", {5, 1, 1}}, {"scalar", {1}}, {"full", {5, 4, 6}}, {"lastdim", {6}}};
  for (const auto& s : slopes) {
    Case c("prelu16_slope_" + s.first + "_" + ShapeTag(x), 16, rng);
    const std::string in = c.Input(x, -4.0f, 4.0f);
    c.Output(c.Node("PRelu", {in, c.Weight(s.second, 2.0f)}));
    suite->Add("PRelu", c);
  }
}

void AddClip(Rng* rng, Suite* suite) {
  // Opset 6: attributes; opset 11+: optional scalar inputs. Inputs in [-8, 8], bounds inside.
  const Ints shape = {2, 3, 5, 7};
  const float lo = std::round(rng->Uniform(-4.0f, 0.0f) * 100) / 100;
  const float hi = std::round(rng->Uniform(0.5f, 4.0f) * 100) / 100;
  struct Form {
    int opset;
    bool min, max;
  };
  for (const Form f :
       {Form{6, true, true}, Form{6, true, false}, Form{6, false, true}, Form{6, false, false}, Form{11, true, true},
        Form{12, true, false}, Form{13, false, true}, Form{13, false, false}, Form{13, true, true}}) {
    const std::string bounds = std::string(f.min ? "_min" + Num(lo) : "") + (f.max ? "_max" + Num(hi) : "");
    Case c("clip" + std::to_string(f.opset) + (f.opset < 11 ? "_attrs" : "_inputs") +
               (bounds.empty() ? "_none" : bounds) + "_" + ShapeTag(shape),
           f.opset, rng);
    const std::string x = c.Input(shape, -8.0f, 8.0f);
    if (f.opset < 11) {
      Attrs attrs;
      if (f.min) attrs.push_back(AttrFloat("min", lo));
      if (f.max) attrs.push_back(AttrFloat("max", hi));
      c.Output(c.Node("Clip", {x}, attrs));
    } else {
      std::vector<std::string> inputs = {x, f.min ? c.Constant({}, {lo}) : ""};
      if (f.max) inputs.push_back(c.Constant({}, {hi}));
      c.Output(c.Node("Clip", inputs));
    }
    suite->Add("Clip", c);
  }
  // A bound computed at run time (a graph input) stays an input of the runtime op.
  Case c("clip13_min_graph_input_max3_" + ShapeTag(shape), 13, rng);
  const std::string x = c.Input(shape, -8.0f, 8.0f);
  const std::string min = c.Input({}, -2.0f, 0.0f);
  c.Output(c.Node("Clip", {x, min, c.Constant({}, {3.0f})}));
  suite->Add("Clip", c);
}

void AddSoftmax(Rng* rng, Suite* suite, const std::string& op = "Softmax") {
  // Opset 11 coerces to 2-D at `axis`; opset 13 normalizes over one axis.
  for (int opset : {11, 13}) {
    for (int axis : {0, 2, -1, 99, opset == 11 ? -3 : 1}) {  // 99: the default
      const Ints shape = {2, rng->Int(1, 5), rng->Int(2, 6), rng->Int(2, 7)};
      Case c(Lower(op) + std::to_string(opset) + (axis == 99 ? "_axisdefault" : "_axis" + Num(axis)) + "_" +
                 ShapeTag(shape),
             opset, rng);
      Attrs attrs;
      if (axis != 99) attrs.push_back(AttrInt("axis", axis));
      c.Output(c.Node(op, {c.Input(shape, -5.0f, 5.0f)}, attrs));
      suite->Add(op, c);
    }
  }
  if (op != "Softmax") return;
  const Ints shape = {3, 11};  // 2-D, the classifier head
  Case c("softmax13_axis1_" + ShapeTag(shape), 13, rng);
  c.Output(c.Node("Softmax", {c.Input(shape, -8.0f, 8.0f)}, {AttrInt("axis", 1)}));
  suite->Add("Softmax", c);
}

// ------------------------------------------------------------ fused chains

// Conv with `m` output maps, odd square kernel `k`, SAME-size explicit pads, bias.
std::string ConvLayer(Case& c, const std::string& x, int64_t channels, int64_t m, int64_t k, bool bias = true) {
  std::vector<std::string> inputs = {
      x, c.Weight({m, channels, k, k}, 1.0f / std::sqrt(static_cast<float>(channels * k * k)))};
  if (bias) inputs.push_back(c.Weight({m}, 0.5f));
  const int64_t p = k / 2;
  return c.Node("Conv", inputs, {AttrInts("kernel_shape", {k, k}), AttrInts("pads", {p, p, p, p})});
}

std::string Scalar(Case& c, float v) { return c.Constant({}, {v}); }

std::string BatchNorm(Rng* rng, Case& c, const std::string& x, int64_t channels) {
  Floats var = rng->Fill(channels, 0.2f, 2.0f);
  return c.Node("BatchNormalization",
                {x, c.Constant({channels}, rng->Fill(channels, 0.5f, 1.5f)), c.Weight({channels}, 0.5f),
                 c.Weight({channels}, 0.5f), c.Constant({channels}, var)},
                {AttrFloat("epsilon", 1e-3f)});
}

void AddGemm(Rng* rng, Suite* suite, bool trans_a, bool trans_b, const std::string& bias, float alpha, float beta,
             bool relu) {
  const int64_t m = rng->Int(1, 6), k = rng->Int(1, 40), n = rng->Int(1, 19);
  std::string name = std::string("gemm") + (trans_a ? "_ta" : "") + (trans_b ? "_tb" : "") + "_bias" + bias +
                     (alpha != 1.0f ? "_alpha" + Num(alpha) : "") + (beta != 1.0f ? "_beta" + Num(beta) : "") +
                     (relu ? "_relu" : "") + "_m" + std::to_string(m) + "k" + std::to_string(k) + "n" +
                     std::to_string(n);
  Case c(name, 13, rng);
  const std::string a = c.Input(trans_a ? Ints{k, m} : Ints{m, k});
  std::vector<std::string> inputs = {
      a, c.Weight(trans_b ? Ints{n, k} : Ints{k, n}, 1.0f / std::sqrt(static_cast<float>(k)))};
  if (bias == "n") inputs.push_back(c.Weight({n}, 0.5f));
  if (bias == "1xn") inputs.push_back(c.Weight({1, n}, 0.5f));
  if (bias == "mxn") inputs.push_back(c.Weight({m, n}, 0.5f));
  if (bias == "scalar") inputs.push_back(c.Weight({1}, 0.5f));
  Attrs attrs = {AttrInt("transA", trans_a), AttrInt("transB", trans_b)};
  if (alpha != 1.0f) attrs.push_back(AttrFloat("alpha", alpha));
  if (beta != 1.0f) attrs.push_back(AttrFloat("beta", beta));
  std::string y = c.Node("Gemm", inputs, attrs);
  if (relu) y = c.Node("Relu", {y});
  c.Output(y);
  suite->Add("Gemm", c);
}

void AddChains(Rng* rng, Suite* suite) {
  auto shape = [rng](int64_t channels) { return Ints{rng->Int(1, 2), channels, rng->Int(3, 11), rng->Int(3, 11)}; };
  auto add = [suite](const Case& c) { suite->Add("chain", c); };
  for (bool conv_bias : {true, false}) {  // BatchNorm folding, then Relu fusion
    const Ints s = shape(rng->Int(1, 7));
    const int64_t m = rng->Int(1, 9);
    Case c(std::string("chain_conv_bn_relu") + (conv_bias ? "" : "_nobias") + "_" + ShapeTag(s), 13, rng);
    c.Output(c.Node("Relu", {BatchNorm(rng, c, ConvLayer(c, c.Input(s), s[1], m, 3, conv_bias), m)}));
    add(c);
  }
  for (int opset : {6, 13}) {  // Relu6 as Clip, attributes and inputs
    const Ints s = shape(rng->Int(1, 7));
    Case c("chain_conv_clip0_6_opset" + std::to_string(opset) + "_" + ShapeTag(s), opset, rng);
    const std::string y = ConvLayer(c, c.Input(s, -3.0f, 3.0f), s[1], 5, 3);
    c.Output(opset < 11 ? c.Node("Clip", {y}, {AttrFloat("min", 0.0f), AttrFloat("max", 6.0f)})
                        : c.Node("Clip", {y, Scalar(c, 0.0f), Scalar(c, 6.0f)}));
    add(c);
  }
  // Hard-swish written out: x * Clip(x + 3, 0, 6) / 6 and its variants (recognize_hardswish).
  for (int form = 0; form < 4; ++form) {
    static const char* const kForms[] = {"mul_div6", "mul_mul_sixth", "div6_then_mul", "hardsigmoid_mul"};
    const Ints s = shape(rng->Int(1, 6));
    Case c(std::string("chain_conv_hardswish_") + kForms[form] + "_" + ShapeTag(s), 13, rng);
    const std::string x = ConvLayer(c, c.Input(s, -4.0f, 4.0f), s[1], 4, 3);
    std::string y;
    if (form == 3) {
      y = c.Node("Mul", {x, c.Node("HardSigmoid", {x}, {AttrFloat("alpha", 1.0f / 6.0f), AttrFloat("beta", 0.5f)})});
    } else {
      const std::string clip = c.Node("Clip", {c.Node("Add", {Scalar(c, 3.0f), x}), Scalar(c, 0.0f), Scalar(c, 6.0f)});
      if (form == 0) y = c.Node("Div", {c.Node("Mul", {x, clip}), Scalar(c, 6.0f)});
      if (form == 1) y = c.Node("Mul", {c.Node("Mul", {clip, x}), Scalar(c, 1.0f / 6.0f)});
      if (form == 2) y = c.Node("Mul", {x, c.Node("Div", {clip, Scalar(c, 6.0f)})});
    }
    c.Output(y);
    add(c);
  }
  {  // the same pattern straight on a graph input, wide range
    const Ints s = {2, 3, 5, 7};
    Case c("chain_input_hardswish_mul_div6_" + ShapeTag(s), 13, rng);
    const std::string x = c.Input(s, -8.0f, 8.0f);
    const std::string clip = c.Node("Clip", {c.Node("Add", {x, Scalar(c, 3.0f)}), Scalar(c, 0.0f), Scalar(c, 6.0f)});
    c.Output(c.Node("Div", {c.Node("Mul", {x, clip}), Scalar(c, 6.0f)}));
    add(c);
  }
  {  // residual block: Conv -> Relu -> Conv, + x, Relu (Add+Relu fusion)
    const Ints s = shape(rng->Int(2, 8));
    Case c("chain_conv_relu_conv_add_residual_relu_" + ShapeTag(s), 13, rng);
    const std::string x = c.Input(s);
    const std::string y = ConvLayer(c, c.Node("Relu", {ConvLayer(c, x, s[1], s[1], 3)}), s[1], s[1], 3);
    c.Output(c.Node("Relu", {c.Node("Add", {y, x})}));
    add(c);
  }
  {  // two Conv branches added, then Relu
    const Ints s = shape(rng->Int(1, 6));
    Case c("chain_conv_plus_conv_relu_" + ShapeTag(s), 13, rng);
    const std::string x = c.Input(s);
    c.Output(c.Node("Relu", {c.Node("Add", {ConvLayer(c, x, s[1], 6, 1), ConvLayer(c, x, s[1], 6, 3, false)})}));
    add(c);
  }
  {  // per-channel affine after Conv (fold_conv_affine), then HardSwish (opset 14 op, fused)
    const Ints s = shape(rng->Int(1, 6));
    Case c("chain_conv_mul_add_hardswish_" + ShapeTag(s), 14, rng);
    const std::string y = ConvLayer(c, c.Input(s), s[1], 5, 3);
    const std::string scaled = c.Node("Mul", {y, c.Constant({5, 1, 1}, rng->Fill(5, 0.5f, 3.0f))});
    c.Output(c.Node("HardSwish", {c.Node("Add", {scaled, c.Weight({1}, 1.0f)})}));
    add(c);
  }
  // Conv followed by fusable activations (LeakyRelu, HardSigmoid) and unfused ones (Sigmoid, Tanh).
  for (const char* act : {"LeakyRelu", "HardSigmoid", "Sigmoid", "Tanh"}) {
    const Ints s = shape(rng->Int(1, 6));
    Case c("chain_conv_" + Lower(act) + "_" + ShapeTag(s), 13, rng);
    const std::string y = ConvLayer(c, c.Input(s, -3.0f, 3.0f), s[1], 4, 3);
    Attrs attrs;
    if (act == std::string("LeakyRelu")) attrs.push_back(AttrFloat("alpha", 0.15f));
    if (act == std::string("HardSigmoid")) attrs = {AttrFloat("alpha", 0.3f), AttrFloat("beta", 0.4f)};
    c.Output(c.Node(act, {y}, attrs));
    add(c);
  }
  {  // ConvTranspose -> BatchNorm -> Relu (the BatchNorm stays a runtime op)
    const Ints s = {1, 3, 4, 5};
    Case c("chain_convtranspose_bn_relu_" + ShapeTag(s), 13, rng);
    const std::string y =
        c.Node("ConvTranspose", {c.Input(s), c.Weight({3, 4, 2, 2}, 0.5f)}, {AttrInts("strides", {2, 2})});
    c.Output(c.Node("Relu", {BatchNorm(rng, c, y, 4)}));
    add(c);
  }
  {  // standalone BatchNorm on a graph input
    const Ints s = {2, 5, 3, 4};
    Case c("chain_input_bn_" + ShapeTag(s), 13, rng);
    c.Output(BatchNorm(rng, c, c.Input(s, -2.0f, 2.0f), 5));
    add(c);
  }
  {  // stem: Conv stride 2 -> Relu -> MaxPool
    const Ints s = {1, 3, 15, 13};
    Case c("chain_conv_s2_relu_maxpool_" + ShapeTag(s), 13, rng);
    const std::string y = c.Node("Conv", {c.Input(s), c.Weight({8, 3, 3, 3}, 0.2f), c.Weight({8}, 0.5f)},
                                 {AttrInts("strides", {2, 2}), AttrInts("pads", {1, 1, 1, 1})});
    c.Output(c.Node("MaxPool", {c.Node("Relu", {y})},
                    {AttrInts("kernel_shape", {3, 3}), AttrInts("strides", {2, 2}), AttrInts("pads", {1, 1, 1, 1})}));
    add(c);
  }
  {  // GELU, erf form: x * 0.5 * (1 + erf(x / sqrt(2)))
    const Ints s = {2, 7, 13};
    Case c("chain_gelu_erf_" + ShapeTag(s), 13, rng);
    const std::string x = c.Input(s, -5.0f, 5.0f);
    const std::string e = c.Node("Erf", {c.Node("Div", {x, Scalar(c, std::sqrt(2.0f))})});
    c.Output(c.Node("Mul", {c.Node("Mul", {x, Scalar(c, 0.5f)}), c.Node("Add", {e, Scalar(c, 1.0f)})}));
    add(c);
  }
  {  // GELU, tanh form: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    const Ints s = {2, 7, 13};
    Case c("chain_gelu_tanh_" + ShapeTag(s), 13, rng);
    const std::string x = c.Input(s, -5.0f, 5.0f);
    const std::string cube = c.Node("Mul", {c.Node("Pow", {x, Scalar(c, 3.0f)}), Scalar(c, 0.044715f)});
    const std::string t = c.Node("Tanh", {c.Node("Mul", {c.Node("Add", {x, cube}), Scalar(c, 0.7978845608f)})});
    c.Output(c.Node("Mul", {c.Node("Mul", {x, Scalar(c, 0.5f)}), c.Node("Add", {t, Scalar(c, 1.0f)})}));
    add(c);
  }
}

}  // namespace

void AddActivationCases(Rng* rng, Suite* suite) {
  for (int i = 0; i < 2; ++i) AddUnary(rng, suite, "Relu", i ? 6 : 14, -4.0f, 4.0f);
  AddUnary(rng, suite, "LeakyRelu", 6, -4.0f, 4.0f, {}, "_alphadefault");
  for (float alpha : {0.1f, 0.37f, 1.5f}) {
    AddUnary(rng, suite, "LeakyRelu", 16, -4.0f, 4.0f, {AttrFloat("alpha", alpha)}, "_alpha" + Num(alpha));
  }
  AddPRelu(rng, suite);
  AddClip(rng, suite);
  for (int i = 0; i < 2; ++i) AddUnary(rng, suite, "Sigmoid", 13, -8.0f, 8.0f);
  AddUnary(rng, suite, "HardSigmoid", 6, -8.0f, 8.0f, {}, "_default");
  AddUnary(rng, suite, "HardSigmoid", 6, -8.0f, 8.0f, {AttrFloat("alpha", 0.25f), AttrFloat("beta", 0.6f)},
           "_alpha0p25_beta0p6");
  AddUnary(rng, suite, "HardSigmoid", 6, -8.0f, 8.0f, {AttrFloat("alpha", 1.0f / 6.0f)}, "_alpha_sixth");
  for (int i = 0; i < 2; ++i) AddUnary(rng, suite, "HardSwish", 14, -8.0f, 8.0f);
  for (int i = 0; i < 2; ++i) AddUnary(rng, suite, "Tanh", 13, -6.0f, 6.0f);
  for (int i = 0; i < 2; ++i) AddUnary(rng, suite, "Exp", 13, -8.0f, 8.0f);
  AddUnary(rng, suite, "Log", 13, 0.001f, 20.0f);
  AddUnary(rng, suite, "Log", 13, 1e-6f, 1.0f, {}, "_small");
  AddUnary(rng, suite, "Sqrt", 13, 0.0f, 16.0f);
  AddUnary(rng, suite, "Sqrt", 13, 0.0f, 1e-3f, {}, "_small");
  for (int i = 0; i < 2; ++i) AddUnary(rng, suite, "Erf", 13, -4.0f, 4.0f);
  AddSoftmax(rng, suite);
  // Math, trigonometry and rounding (after the others: their cases keep their random draws).
  AddUnary(rng, suite, "Sin", 7, -6.0f, 6.0f);
  AddUnary(rng, suite, "Cos", 7, -6.0f, 6.0f);
  AddUnary(rng, suite, "Tan", 7, -1.2f, 1.2f);
  AddUnary(rng, suite, "Asin", 7, -0.99f, 0.99f);
  AddUnary(rng, suite, "Acos", 7, -0.99f, 0.99f);
  AddUnary(rng, suite, "Atan", 7, -8.0f, 8.0f);
  AddUnary(rng, suite, "Sinh", 9, -4.0f, 4.0f);
  AddUnary(rng, suite, "Cosh", 9, -4.0f, 4.0f);
  AddUnary(rng, suite, "Asinh", 9, -8.0f, 8.0f);
  AddUnary(rng, suite, "Acosh", 9, 1.0f, 8.0f);
  AddUnary(rng, suite, "Atanh", 9, -0.99f, 0.99f);
  AddUnary(rng, suite, "Elu", 6, -6.0f, 6.0f, {}, "_default");
  AddUnary(rng, suite, "Elu", 6, -6.0f, 6.0f, {AttrFloat("alpha", 0.5f)}, "_alpha0p5");
  AddUnary(rng, suite, "Selu", 6, -6.0f, 6.0f, {}, "_default");
  AddUnary(rng, suite, "Selu", 6, -6.0f, 6.0f, {AttrFloat("alpha", 2.0f), AttrFloat("gamma", 0.5f)}, "_custom");
  AddUnary(rng, suite, "Celu", 12, -6.0f, 6.0f, {AttrFloat("alpha", 1.5f)}, "_alpha1p5");
  AddUnary(rng, suite, "ThresholdedRelu", 10, -3.0f, 3.0f, {AttrFloat("alpha", 0.3f)}, "_alpha0p3");
  AddUnary(rng, suite, "Softplus", 1, -30.0f, 30.0f);
  AddUnary(rng, suite, "Softsign", 1, -8.0f, 8.0f);
  AddUnary(rng, suite, "Mish", 18, -10.0f, 10.0f);
  AddUnary(rng, suite, "Abs", 13, -8.0f, 8.0f);
  AddUnary(rng, suite, "Floor", 13, -8.0f, 8.0f);
  AddUnary(rng, suite, "Ceil", 13, -8.0f, 8.0f);
  AddUnary(rng, suite, "Round", 11, -8.0f, 8.0f);
  AddUnary(rng, suite, "Sign", 13, -8.0f, 8.0f);
  AddSoftmax(rng, suite, "LogSoftmax");
}

void AddFusedChainCases(Rng* rng, Suite* suite) {
  AddChains(rng, suite);
  AddGemm(rng, suite, false, true, "n", 1.0f, 1.0f, true);
  AddGemm(rng, suite, true, false, "1xn", 0.5f, 2.0f, true);
  AddGemm(rng, suite, false, false, "mxn", 1.0f, 0.3f, true);
  AddGemm(rng, suite, true, true, "scalar", 1.7f, 1.0f, false);
  AddGemm(rng, suite, false, true, "none", 1.0f, 1.0f, true);
}

}  // namespace random_ops
