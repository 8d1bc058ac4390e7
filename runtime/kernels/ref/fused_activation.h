// Activations that fusion passes fold into Conv and Gemm: node attributes
// `activation` (string) and `activation_params` (floats). Kernels apply them to
// each output element after the bias, so fused and unfused graphs agree exactly.
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace npurt {

enum class FusedActivation { kNone, kRelu, kClip, kLeakyRelu, kHardSigmoid, kHardSwish };

struct FusedActivationParams {
  FusedActivation kind = FusedActivation::kNone;
  float a = 0.0f;  // Clip min, LeakyRelu alpha, HardSigmoid alpha
  float b = 0.0f;  // Clip max, HardSigmoid beta
};

// Same formulas (and NaN behaviour: NaN stays NaN) as the standalone ONNX ops.
inline float ApplyFusedActivation(const FusedActivationParams& p, float x) {
  switch (p.kind) {
    case FusedActivation::kNone: return x;
    case FusedActivation::kRelu: return x < 0.0f ? 0.0f : x;
    case FusedActivation::kClip: {
      const float v = x < p.a ? p.a : x;  // max then min: min > max yields max, like ONNX
      return v > p.b ? p.b : v;
    }
    case FusedActivation::kLeakyRelu: return x < 0.0f ? p.a * x : x;
    case FusedActivation::kHardSigmoid: {
      const float v = p.a * x + p.b;
      return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
    }
    case FusedActivation::kHardSwish: {
      const float v = x / 6.0f + 0.5f;
      return x * (v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v));
    }
  }
  return x;
}

inline void ApplyFusedActivation(const FusedActivationParams& p, float* data, size_t count) {
  if (p.kind == FusedActivation::kNone) return;
  for (size_t i = 0; i < count; ++i) data[i] = ApplyFusedActivation(p, data[i]);
}

// Builds the params from the attribute values. Returns nullptr on success, else
// what is wrong (the op turns it into a Status). Missing params take the ONNX
// defaults of the standalone op: Clip (-inf, +inf), LeakyRelu 0.01, HardSigmoid 0.2, 0.5.
inline const char* ParseFusedActivation(const std::string& name, const std::vector<float>& params,
                                        FusedActivationParams* out) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  struct Entry {
    const char* name;
    FusedActivation kind;
    size_t max_params;
    float default_a;
    float default_b;
  };
  static const Entry kEntries[] = {
      {"", FusedActivation::kNone, 0, 0.0f, 0.0f},
      {"Relu", FusedActivation::kRelu, 0, 0.0f, 0.0f},
      {"Clip", FusedActivation::kClip, 2, -kInf, kInf},
      {"LeakyRelu", FusedActivation::kLeakyRelu, 1, 0.01f, 0.0f},
      {"HardSigmoid", FusedActivation::kHardSigmoid, 2, 0.2f, 0.5f},
      {"HardSwish", FusedActivation::kHardSwish, 0, 0.0f, 0.0f},
  };
  for (const Entry& e : kEntries) {
    if (name != e.name) continue;
    if (params.size() > e.max_params) return "too many activation_params";
    for (float v : params) {
      if (std::isnan(v)) return "activation_params holds NaN";
    }
    out->kind = e.kind;
    out->a = params.size() > 0 ? params[0] : e.default_a;
    out->b = params.size() > 1 ? params[1] : e.default_b;
    return nullptr;
  }
  return "unknown fused activation";
}

}  // namespace npurt
