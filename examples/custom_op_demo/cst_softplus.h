// The cstSoftplus custom op's callbacks (cst_softplus.cc).
#pragma once

#include <cstdint>

#include "rknn_custom_op.h"

int softplus_init(rknn_custom_op_context* op_ctx, rknn_custom_op_tensor* inputs, uint32_t n_inputs,
                  rknn_custom_op_tensor* outputs, uint32_t n_outputs);
int softplus_compute(rknn_custom_op_context* op_ctx, rknn_custom_op_tensor* inputs, uint32_t n_inputs,
                     rknn_custom_op_tensor* outputs, uint32_t n_outputs);
int softplus_destroy(rknn_custom_op_context* op_ctx);

// The plugin entry (one op per library, the vendor's form).
extern "C" RKNN_CUSTOM_OP_EXPORT rknn_custom_op* get_rknn_custom_op();
