// The cstSoftplus custom op's CPU callbacks (rknn_custom_op.h): y = log(1 + e^(beta x)) / beta, beta the node's
// attribute. Linked into rknn_custom_op_demo, which registers them after rknn_init, and built as the plugin
// library librkcst_softplus.so, whose get_rknn_custom_op() hands them to a host that loads plugins -- npurt
// convert --custom-op-plugin, to calibrate an int8 model with this op (rknn_server does the same on the board).
#include "cst_softplus.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace {

// Scratch the init callback allocates and destroy frees (priv_data is the application's).
struct SoftplusScratch {
  float beta = 1.0f;
};

}  // namespace

int softplus_init(rknn_custom_op_context* op_ctx, rknn_custom_op_tensor* inputs, uint32_t n_inputs,
                  rknn_custom_op_tensor* outputs, uint32_t n_outputs) {
  if (n_inputs != 1 || n_outputs != 1 || inputs[0].attr.type != RKNN_TENSOR_FLOAT32 ||
      outputs[0].attr.n_elems != inputs[0].attr.n_elems) {
    std::printf("cstSoftplus: expects one float32 input and an output of its size\n");
    return -1;
  }
  rknn_custom_op_attr beta;
  rknn_custom_op_get_op_attr(op_ctx, "beta", &beta);
  if (beta.n_elems != 1 || beta.dtype != RKNN_TENSOR_FLOAT32) {
    std::printf("cstSoftplus: the node has no float attribute 'beta'\n");
    return -1;
  }
  SoftplusScratch* scratch = new SoftplusScratch;
  scratch->beta = static_cast<float*>(beta.data)[0];
  op_ctx->priv_data = scratch;
  return 0;
}

// The kernel: float32 NCHW in, float32 NCHW out; data = virt_addr + offset.
int softplus_compute(rknn_custom_op_context* op_ctx, rknn_custom_op_tensor* inputs, uint32_t,
                     rknn_custom_op_tensor* outputs, uint32_t) {
  const SoftplusScratch* scratch = static_cast<SoftplusScratch*>(op_ctx->priv_data);
  const float* in = reinterpret_cast<const float*>(static_cast<unsigned char*>(inputs[0].mem.virt_addr) +
                                                   inputs[0].mem.offset);
  float* out = reinterpret_cast<float*>(static_cast<unsigned char*>(outputs[0].mem.virt_addr) + outputs[0].mem.offset);
  const float beta = scratch->beta;
  for (uint32_t i = 0; i < inputs[0].attr.n_elems; ++i) {
    const float v = beta * in[i];
    // log(1 + e^v) without overflow: v + log1p(e^-v) for large v.
    out[i] = (v > 20.0f ? v + std::log1p(std::exp(-v)) : std::log1p(std::exp(v))) / beta;
  }
  return 0;
}

int softplus_destroy(rknn_custom_op_context* op_ctx) {
  delete static_cast<SoftplusScratch*>(op_ctx->priv_data);
  op_ctx->priv_data = nullptr;
  return 0;
}

RKNN_CUSTOM_OP_EXPORT rknn_custom_op* get_rknn_custom_op() {
  static rknn_custom_op op;
  std::memset(&op, 0, sizeof(op));
  std::strncpy(op.op_type, "cstSoftplus", RKNN_MAX_NAME_LEN - 1);
  op.version = 1;
  op.target = RKNN_TARGET_TYPE_CPU;
  op.init = softplus_init;
  op.compute = softplus_compute;
  op.destroy = softplus_destroy;
  return &op;
}
