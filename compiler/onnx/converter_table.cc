// The ONNX ops the importer accepts, with the converter of each, in one
// explicit table: every runtime op of runtime/ops/ops.def (the single op list;
// a verbatim copy of the node unless RuntimeOpOverrides names a converter),
// then the ONNX ops that are lowered onto runtime ops or evaluated during
// import. No static self-registration.
#include <cstring>

#include "compiler/onnx/converter.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace compiler {
namespace onnx_import {

namespace {

constexpr OnnxOpKind kRt = OnnxOpKind::kRuntime;
constexpr OnnxOpKind kLow = OnnxOpKind::kLowered;
constexpr OnnxOpKind kImp = OnnxOpKind::kImportOnly;

// Runtime ops whose conversion is more than a verbatim copy, or that deserve a note.
const std::vector<OnnxConverter>& RuntimeOpOverrides() {
  static const std::vector<OnnxConverter> table = {
      {"Add", ConvertBinary, kRt, ""},
      {"Sub", ConvertBinary, kRt, ""},
      {"Mul", ConvertBinary, kRt, ""},
      {"Div", ConvertBinary, kRt, ""},
      {"Pow", ConvertBinary, kRt, ""},
      {"PRelu", ConvertPRelu, kRt, ""},
      {"Concat", ConvertConcat, kRt, ""},
      {"Pad", ConvertPad, kRt, ""},
      {"Clip", ConvertClip, kRt, "min/max as attributes (opset < 11) or inputs (opset >= 11)"},
      {"Softmax", ConvertSoftmax, kRt, "opset <= 12 and >= 13 semantics"},
      {"LogSoftmax", ConvertSoftmax, kRt, "opset <= 12 and >= 13 semantics"},
      {"Resize", ConvertResize, kRt, "nearest and linear; opset 10 and >= 11 forms"},
      {"Cast", ConvertCast, kRt, "DOUBLE becomes FLOAT"},
      {"EyeLike", ConvertEyeLike, kRt, "DOUBLE becomes FLOAT"},
      {"MaxPool", ConvertGeneric, kRt, "Indices output in both storage orders"},
      {"BatchNormalization", ConvertGeneric, kRt, "inference mode"},
      {"RoiAlign", ConvertRoiAlign, kRt, "float32; avg and max; opset 10 and 16 coordinates"},
      {"MaxRoiPool", ConvertGeneric, kRt, "float32"},
      {"MaxUnpool", ConvertGeneric, kRt, "float32"},
      {"LayerNormalization", ConvertGeneric, kRt, "output Y only"},
      {"RNN", ConvertRecurrent, kRt, "float32; every ONNX activation"},
      {"GRU", ConvertRecurrent, kRt, "float32; every ONNX activation"},
      {"LSTM", ConvertRecurrent, kRt, "float32; every ONNX activation, peepholes"},
      {"Floor", ConvertRounding, kRt, "constants of any type folded"},
      {"Ceil", ConvertRounding, kRt, "constants of any type folded"},
      {"Round", ConvertRounding, kRt, "constants of any type folded"},
      {"Abs", ConvertRounding, kRt, "constants of any type folded"},
      {"Sign", ConvertRounding, kRt, "constants of any type folded"},
      {"Equal", ConvertCompare, kRt, "constants of any type folded"},
      {"Less", ConvertCompare, kRt, "constants of any type folded"},
      {"Greater", ConvertCompare, kRt, "constants of any type folded"},
      {"LessOrEqual", ConvertCompare, kRt, "constants of any type folded"},
      {"GreaterOrEqual", ConvertCompare, kRt, "constants of any type folded"},
      {"And", ConvertLogical, kRt, "constants folded"},
      {"Or", ConvertLogical, kRt, "constants folded"},
      {"Xor", ConvertLogical, kRt, "constants folded"},
      {"Not", ConvertNot, kRt, "constants folded"},
      {"Where", ConvertWhere, kRt, "constants of any type folded"},
      {"DequantizeLinear", ConvertDequantizeLinear, kRt, "of constants: folded, the model's parameters kept for int8"},
  };
  return table;
}

// ONNX ops that are not runtime ops.
const std::vector<OnnxConverter>& ImporterOps() {
  static const std::vector<OnnxConverter> table = {
      // Lowered onto runtime ops.
      {"Dropout", ConvertDropout, kLow, "Identity"},
      {"Scatter", ConvertScatter, kLow, "ScatterElements (its name in opsets 9-10)"},
      {"Einsum", ConvertEinsum, kLow, "Transpose, Reshape, ReduceSum, MatMul (no diagonals)"},
      {"Upsample", ConvertUpsample, kLow, "Resize (opset 10 semantics)"},
      {"QLinearConv", ConvertQLinearConv, kLow, "DequantizeLinear, Conv, QuantizeLinear (int8 with its parameters)"},
      {"QLinearMatMul", ConvertQLinearMatMul, kLow, "DequantizeLinear, MatMul, QuantizeLinear (int8 with its parameters)"},
      {"ConvInteger", ConvertIntegerOp, kLow, "DequantizeLinear, Conv, Cast to int32 (exact below 2^24)"},
      {"MatMulInteger", ConvertIntegerOp, kLow, "DequantizeLinear, MatMul, Cast to int32 (exact below 2^24)"},
      {"Sum", ConvertSum, kLow, "Add chain"},
      {"Neg", ConvertNeg, kLow, "Mul by -1 (float), Sub from 0 (int)"},
      {"Reciprocal", ConvertReciprocal, kLow, "Div 1 by x"},
      {"Expand", ConvertExpand, kLow, "folded when constant, else Mul by ones"},
      {"If", ConvertIf, kLow,
       "constant condition: the chosen branch inlined; run-time condition: both branches and Where (equal shapes)"},
      // Evaluated during import: inputs must be constants (shapes for Shape/Size).
      {"Constant", ConvertConstant, kImp, "value, value_float(s), value_int(s)"},
      {"ConstantOfShape", ConvertConstantOfShape, kImp, ""},
      {"Shape", ConvertShape, kImp, "needs only the input's shape"},
      {"Size", ConvertSize, kImp, "needs only the input's shape"},
      {"Range", ConvertRange, kImp, ""},
  };
  return table;
}

}  // namespace

const std::vector<OnnxConverter>& OnnxConverters() {
  static const std::vector<OnnxConverter> table = [] {
    std::vector<OnnxConverter> all;
    // Every runtime op (ops.def order): its override, or a verbatim copy.
    for (const OpDef* def : AllOps()) {
      if (def->custom) continue;  // made from other domains' nodes (ConvertCustomNode), never from an ONNX op
      OnnxConverter c = {def->name, ConvertGeneric, kRt, ""};
      for (const OnnxConverter& o : RuntimeOpOverrides()) {
        if (std::strcmp(o.op_type, def->name) == 0) c = o;
      }
      all.push_back(c);
    }
    // Should the runtime gain one of these ops, the runtime op wins (it also
    // folds when its inputs are constants).
    for (const OnnxConverter& c : ImporterOps()) {
      if (FindOp(c.op_type) == nullptr) all.push_back(c);
    }
    return all;
  }();
  return table;
}

const OnnxConverter* FindOnnxConverter(const std::string& op_type) {
  for (const OnnxConverter& c : OnnxConverters()) {
    if (op_type == c.op_type) return &c;
  }
  return nullptr;
}

}  // namespace onnx_import
}  // namespace compiler
}  // namespace npurt
