// Activations that fusion passes fold into Conv and Gemm: node attributes
// `activation` (string) and `activation_params` (floats). Kernels apply them to
// each output element after the bias, so fused and unfused graphs agree exactly.
// Conv also takes an affine after the activation (compiler/passes/fuse_output_affine.cc):
// attributes `activation_scale` and `activation_shift` (1 or one value per output
// channel), y = act(x) * scale[c] + shift[c], rounded after the product and after
// the sum as the Mul and Add it replaces.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace npurt {

enum class FusedActivation { kNone, kRelu, kClip, kLeakyRelu, kHardSigmoid, kHardSwish };

struct FusedActivationParams {
  FusedActivation kind = FusedActivation::kNone;
  float a = 0.0f;  // Clip min, LeakyRelu alpha, HardSigmoid alpha
  float b = 0.0f;  // Clip max, HardSigmoid beta
  // The affine after the activation, one value per output channel (nullptr: none). The op's state owns
  // the arrays; a kernel only reads them.
  const float* scale = nullptr;
  const float* shift = nullptr;
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

// The activation, then output channel `channel`'s affine if there is one.
inline float ApplyFusedActivation(const FusedActivationParams& p, float x, int64_t channel) {
  const float y = ApplyFusedActivation(p, x);
  if (p.scale == nullptr) return y;
  const float scaled = y * p.scale[channel];
  return scaled + p.shift[channel];
}

// `count` elements of output channel `channel`.
inline void ApplyFusedActivation(const FusedActivationParams& p, float* data, size_t count, int64_t channel) {
  if (p.kind == FusedActivation::kNone && p.scale == nullptr) return;
  for (size_t i = 0; i < count; ++i) data[i] = ApplyFusedActivation(p, data[i], channel);
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

// Expands the affine attributes (`scale` and `shift` values: none, 1, or `channels` each; an omitted one is
// 1 or 0) into `storage` (scales then shifts) and points `out` at it; nothing when both are absent.
// Returns nullptr on success, else what is wrong.
inline const char* ParseActivationAffine(const std::vector<float>& scale, const std::vector<float>& shift,
                                         int64_t channels, std::vector<float>* storage,
                                         FusedActivationParams* out) {
  out->scale = out->shift = nullptr;
  storage->clear();
  if (scale.empty() && shift.empty()) return nullptr;
  const size_t n = static_cast<size_t>(channels);
  for (const std::vector<float>* v : {&scale, &shift}) {
    if (v->size() > 1 && v->size() != n) return "activation_scale / activation_shift: need 1 value or one per channel";
    for (float x : *v) {
      if (!std::isfinite(x)) return "activation_scale / activation_shift holds a non-finite value";
    }
  }
  storage->resize(2 * n);
  for (size_t c = 0; c < n; ++c) {
    (*storage)[c] = scale.empty() ? 1.0f : scale[scale.size() == 1 ? 0 : c];
    (*storage)[n + c] = shift.empty() ? 0.0f : shift[shift.size() == 1 ? 0 : c];
  }
  out->scale = storage->data();
  out->shift = storage->data() + n;
  return nullptr;
}

}  // namespace npurt
