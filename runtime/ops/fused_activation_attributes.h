// The fused activation attributes the compiler writes on Conv, ConvTranspose and Gemm nodes
// (`activation`, `activation_params`; contract in runtime/kernels/ref/fused_activation.h), read and
// checked alike by the three ops.
#pragma once

#include <string>
#include <vector>

#include "runtime/core/attributes.h"
#include "runtime/core/status.h"
#include "runtime/kernels/ref/fused_activation.h"

namespace npurt {

// kModelInvalid naming `op` and the activation when the attributes are malformed.
inline Status ReadFusedActivation(const char* op, const Attributes& attrs, FusedActivationParams* out) {
  std::string activation;
  std::vector<float> params;
  NPURT_RETURN_IF_ERROR(attrs.GetString("activation", "", &activation));
  NPURT_RETURN_IF_ERROR(attrs.GetFloats("activation_params", {}, &params));
  if (const char* error = ParseFusedActivation(activation, params, out)) {
    return NPURT_ERROR(kModelInvalid, "%s: %s (activation '%s')", op, error, activation.c_str());
  }
  return Status::Ok();
}

}  // namespace npurt
