// Quantization checks shared by the int8 paths of every op (the int8 op contract: activations are INT8 with one scale
// and one zero point; the compiler records the output's parameters and prepare
// reads them from the output tensor).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/status.h"
#include "runtime/core/types.h"
#include "runtime/ops/op.h"

namespace npurt {

// The storage types of quantized activations: int8 (the w8a8 scheme) and
// int16 (the hybrid scheme's more precise tensors); weights are always int8.
inline bool IsQuantizedActivationType(DataType type) { return type == DataType::kInt8 || type == DataType::kInt16; }

// Per-tensor parameters of one activation: real = scale * (q - zero_point).
struct ActivationQuant {
  float scale = 1.0f;
  int32_t zero_point = 0;

  bool operator==(const ActivationQuant& o) const { return scale == o.scale && zero_point == o.zero_point; }
  bool operator!=(const ActivationQuant& o) const { return !(*this == o); }
};

inline int32_t QuantZeroPoint(const QuantInfo& q) { return q.zero_point.empty() ? 0 : q.zero_point[0]; }

// The per-tensor parameters of int8 activation `t` (`role` names it in
// messages: "input 0", "output"); kModelInvalid when they are missing,
// per-axis or not a positive finite scale with a zero point in the type's range.
inline Status GetActivationQuant(const char* op, const Tensor& t, const char* role, ActivationQuant* out) {
  const QuantInfo& q = t.quant;
  NPURT_CHECK_OR_RETURN(!q.empty(), kModelInvalid, "%s: %s '%s' is %s but has no quantization parameters", op, role,
                        t.name.c_str(), DataTypeName(t.dtype));
  NPURT_CHECK_OR_RETURN(q.per_tensor() && q.zero_point.size() <= 1, kModelInvalid,
                        "%s: %s '%s' has per-axis quantization (%zu scales, axis %d); activations need one scale", op,
                        role, t.name.c_str(), q.scale.size(), q.axis);
  const float scale = q.scale[0];
  NPURT_CHECK_OR_RETURN(scale > 0.0f && scale < 3.4e38f, kModelInvalid, "%s: %s '%s' has quantization scale %g", op,
                        role, t.name.c_str(), static_cast<double>(scale));
  QuantRange range{};
  const int32_t zp = QuantZeroPoint(q);
  NPURT_CHECK_OR_RETURN(QuantizedRange(t.dtype, &range) && zp >= range.min && zp <= range.max, kModelInvalid,
                        "%s: %s '%s' has zero point %d outside %s", op, role, t.name.c_str(), zp,
                        DataTypeName(t.dtype));
  out->scale = scale;
  out->zero_point = zp;
  return Status::Ok();
}

// True when no tensor of `node` carries quantization parameters. Its INT8
// values are then plain integers with ONNX integer semantics, which the ops
// that only compare and select values (Max, Min, Clip, Relu, MaxPool,
// GlobalMaxPool) compute exactly by treating them as quantized with scale 1
// and zero point 0. Every other int8 op requires parameters.
inline bool HasNoQuantization(const OpNode& node) {
  for (const Tensor* t : node.inputs) {
    if (t != nullptr && !t->quant.empty()) return false;
  }
  for (const Tensor* t : node.outputs) {
    if (t != nullptr && !t->quant.empty()) return false;
  }
  return true;
}

// Ops that move bytes (Reshape, Transpose, Slice, Split, Gather, Pad, ...)
// cannot change the quantization: the output must carry exactly the input's
// parameters (the compiler guarantees it), or neither carries any (plain
// integer data). Parameters that are present must be per-tensor.
inline Status ExpectSameQuant(const char* op, const Tensor& in, const Tensor& out) {
  const QuantInfo& a = in.quant;
  const QuantInfo& b = out.quant;
  if (a.empty() && b.empty()) return Status::Ok();
  NPURT_CHECK_OR_RETURN(!a.empty() && !b.empty(), kModelInvalid,
                        "%s: only one of input '%s' and output '%s' has quantization parameters", op, in.name.c_str(),
                        out.name.c_str());
  ActivationQuant qa, qb;
  NPURT_RETURN_IF_ERROR(GetActivationQuant(op, in, "input", &qa));
  NPURT_RETURN_IF_ERROR(GetActivationQuant(op, out, "output", &qb));
  NPURT_CHECK_OR_RETURN(qa == qb, kModelInvalid,
                        "%s: output '%s' quantization (scale %g, zero point %d) differs from input '%s' (scale %g, "
                        "zero point %d); this op only moves values",
                        op, out.name.c_str(), static_cast<double>(qb.scale), qb.zero_point, in.name.c_str(),
                        static_cast<double>(qa.scale), qa.zero_point);
  return Status::Ok();
}

// The storage type of a quantized op's output. The hybrid scheme stores some
// activations in int16: an op whose output type differs from its first
// input's carries the attribute output_type = "INT8" or "INT16" (set by the
// compiler); without it the output takes the input's type. Only the ops that
// compute through the real value (Conv, ConvTranspose, Gemm, MatMul, element-wise and
// lookup ops) accept it.
inline Status QuantizedOutputType(const char* op, const Attributes& attrs, DataType input_type, DataType* out) {
  std::string name;
  NPURT_RETURN_IF_ERROR(attrs.GetString("output_type", "", &name));
  if (name.empty()) {
    *out = input_type;
  } else if (name == "INT8") {
    *out = DataType::kInt8;
  } else if (name == "INT16") {
    *out = DataType::kInt16;
  } else {
    return NPURT_ERROR(kModelInvalid, "%s: output_type '%s', expected INT8 or INT16", op, name.c_str());
  }
  return Status::Ok();
}

// The operand types of Conv and ConvTranspose: float32 x, W and B, or a
// quantized x (int8 or int16) with an int8 W and an int32 B; *quantized says
// which. `w` and `b` may be nullptr (missing inputs; only `b` is optional).
inline Status CheckConvOperandTypes(const char* op, const Tensor* x, const Tensor* w, const Tensor* b,
                                    bool* quantized) {
  *quantized = x != nullptr && IsQuantizedActivationType(x->dtype);
  if (!*quantized) {
    NPURT_RETURN_IF_ERROR(ExpectInputType(op, x, DataType::kFloat32, 0));
    NPURT_RETURN_IF_ERROR(ExpectInputType(op, w, DataType::kFloat32, 1));
    if (b != nullptr) NPURT_RETURN_IF_ERROR(ExpectInputType(op, b, DataType::kFloat32, 2));
    return Status::Ok();
  }
  NPURT_CHECK_OR_RETURN(w != nullptr, kModelInvalid, "%s: input 1 is missing", op);
  NPURT_CHECK_OR_RETURN(w->dtype == DataType::kInt8, kModelInvalid,
                        "%s: input '%s' is %s but weight '%s' is %s (a quantized %s needs int8 weights)", op,
                        x->name.c_str(), DataTypeName(x->dtype), w->name.c_str(), DataTypeName(w->dtype), op);
  NPURT_CHECK_OR_RETURN(b == nullptr || b->dtype == DataType::kInt32, kModelInvalid,
                        "%s: bias '%s' of a quantized %s is %s, expected INT32", op, b->name.c_str(), op,
                        DataTypeName(b->dtype));
  return Status::Ok();
}

// An activation's parameters plus its type's range, as the accumulating int8
// kernels (Conv, ConvTranspose, Gemm, MatMul) need them.
struct TensorQuant {
  float scale = 1.0f;
  int32_t zero_point = 0;
  QuantRange range{};
};

inline Status ReadActivationQuant(const char* op, const Tensor& t, const char* role, TensorQuant* q) {
  ActivationQuant a;
  NPURT_RETURN_IF_ERROR(GetActivationQuant(op, t, role, &a));  // also checks that the type is quantized
  QuantizedRange(t.dtype, &q->range);
  q->scale = a.scale;
  q->zero_point = a.zero_point;
  return Status::Ok();
}

// The scales of the n outputs of a constant symmetric int8 weight quantized
// per tensor or along `axis` with n scales (Conv: axis 0, output channels;
// Gemm/MatMul: the output-column axis). `unit` names one output in messages.
// ConvTranspose has its own reader: its per-group scales repeat along axis 1.
inline Status ReadWeightScales(const char* op, const Tensor& w, int axis, int64_t n, const char* unit,
                               std::vector<float>* scales) {
  const QuantInfo& info = w.quant;
  NPURT_CHECK_OR_RETURN(w.constant, kModelInvalid, "%s: int8 weight '%s' must be a constant", op, w.name.c_str());
  NPURT_CHECK_OR_RETURN(!info.empty(), kModelInvalid, "%s: weight '%s' is INT8 but has no quantization parameters", op,
                        w.name.c_str());
  const bool per_axis = info.axis == axis && static_cast<int64_t>(info.scale.size()) == n;
  NPURT_CHECK_OR_RETURN(info.per_tensor() || per_axis, kModelInvalid,
                        "%s: weight '%s' %s must be quantized per tensor or per %s (axis %d), has %zu scales along "
                        "axis %d",
                        op, w.name.c_str(), ShapeToString(w.shape).c_str(), unit, axis, info.scale.size(), info.axis);
  for (int32_t zp : info.zero_point) {
    NPURT_CHECK_OR_RETURN(zp == 0, kModelInvalid,
                          "%s: weight '%s' has zero point %d; int8 weights must be symmetric (zero point 0)", op,
                          w.name.c_str(), zp);
  }
  scales->resize(static_cast<size_t>(n));
  for (size_t j = 0; j < scales->size(); ++j) {
    const float s = info.scale[per_axis ? j : 0];
    NPURT_CHECK_OR_RETURN(std::isfinite(s) && s > 0.0f, kModelInvalid, "%s: weight '%s' has scale %g", op,
                          w.name.c_str(), static_cast<double>(s));
    (*scales)[j] = s;
  }
  return Status::Ok();
}

// A constant int32 bias of Conv / ConvTranspose; its QuantInfo, when present,
// must agree with input scale x weight scale (relative 1e-5) and have zero point 0.
inline Status CheckBiasQuant(const char* op, const Tensor& b, const std::vector<float>& acc_scale) {
  NPURT_CHECK_OR_RETURN(b.constant, kModelInvalid, "%s: int32 bias '%s' must be a constant", op, b.name.c_str());
  const QuantInfo& info = b.quant;
  if (info.empty()) return Status::Ok();
  NPURT_CHECK_OR_RETURN(info.scale.size() == 1 || info.scale.size() == acc_scale.size(), kModelInvalid,
                        "%s: bias '%s' has %zu scales for %zu output channels", op, b.name.c_str(), info.scale.size(),
                        acc_scale.size());
  for (size_t m = 0; m < acc_scale.size(); ++m) {
    const float got = info.scale[info.scale.size() == 1 ? 0 : m];
    const float want = acc_scale[m];
    NPURT_CHECK_OR_RETURN(std::fabs(got - want) <= 1e-5f * std::fabs(want), kModelInvalid,
                          "%s: bias '%s' has scale %g for output channel %zu, expected input scale x weight scale "
                          "= %g",
                          op, b.name.c_str(), static_cast<double>(got), m, static_cast<double>(want));
  }
  for (int32_t zp : info.zero_point) {
    NPURT_CHECK_OR_RETURN(zp == 0, kModelInvalid, "%s: bias '%s' has zero point %d, expected 0", op, b.name.c_str(),
                          zp);
  }
  return Status::Ok();
}

}  // namespace npurt
