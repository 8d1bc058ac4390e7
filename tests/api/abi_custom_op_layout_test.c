/*
 * abi_custom_op_layout_test.c - compile-time ABI checks for include/rknn_custom_op.h.
 *
 * Struct sizes, field offsets, enum values and function signatures of
 * Rockchip's rknn_custom_op.h of librknnrt 2.3.2 (spec: shared/spec/rknn-api.md,
 * "rknn_custom_op.h"), on LP64 and 32-bit ARM EABI (where the internal context
 * is 32-bit). Every check is a _Static_assert, so a mismatch fails the build.
 */

#include <stddef.h>
#include <stdint.h>

#include "rknn_custom_op.h"

#define SIZE_IS(T, N) _Static_assert(sizeof(T) == (N), "sizeof(" #T ") != " #N)
#define OFF_IS(T, F, N) _Static_assert(offsetof(T, F) == (N), "offsetof(" #T ", " #F ") != " #N)
#define VAL_IS(X, N) _Static_assert((X) == (N), #X " != " #N)
#define SIG_IS(FN, PTR_T) _Static_assert(_Generic(&FN, PTR_T: 1, default: 0), #FN " has the wrong signature")

VAL_IS(RKNN_TARGET_TYPE_CPU, 1);
VAL_IS(RKNN_TARGET_TYPE_GPU, 2);
VAL_IS(RKNN_TARGET_TYPE_MAX, 3);
VAL_IS(RKNN_CUSTOM_OP_MAX_STR_LEN, 64);
VAL_IS(RKNN_CUSTOM_OP_MAX_VALUE_LEN, 32);
VAL_IS(RKNN_WARNING_SKIP_CUSTOM_OP_COMPUTE, -14);
SIZE_IS(rknn_target_type, 4);

#if UINTPTR_MAX == 0xffffffffffffffffu
SIZE_IS(rknn_custom_op_interal_context, 8);
SIZE_IS(rknn_gpu_op_context, 24);
OFF_IS(rknn_gpu_op_context, cl_command_queue, 8);
OFF_IS(rknn_gpu_op_context, cl_kernel, 16);

SIZE_IS(rknn_custom_op_context, 48);
OFF_IS(rknn_custom_op_context, target, 0);
OFF_IS(rknn_custom_op_context, internal_ctx, 8);
OFF_IS(rknn_custom_op_context, gpu_ctx, 16);
OFF_IS(rknn_custom_op_context, priv_data, 40);

SIZE_IS(rknn_custom_op_tensor, 416);
OFF_IS(rknn_custom_op_tensor, attr, 0);
OFF_IS(rknn_custom_op_tensor, mem, 376);

SIZE_IS(rknn_custom_op_attr, 272);
OFF_IS(rknn_custom_op_attr, dtype, 256);
OFF_IS(rknn_custom_op_attr, n_elems, 260);
OFF_IS(rknn_custom_op_attr, data, 264);

SIZE_IS(rknn_custom_op, 832);
OFF_IS(rknn_custom_op, version, 0);
OFF_IS(rknn_custom_op, target, 4);
OFF_IS(rknn_custom_op, op_type, 8);
OFF_IS(rknn_custom_op, cl_kernel_name, 264);
OFF_IS(rknn_custom_op, cl_kernel_source, 520);
OFF_IS(rknn_custom_op, cl_source_size, 528);
OFF_IS(rknn_custom_op, cl_build_options, 536);
OFF_IS(rknn_custom_op, init, 792);
OFF_IS(rknn_custom_op, prepare, 800);
OFF_IS(rknn_custom_op, compute, 808);
OFF_IS(rknn_custom_op, compute_native, 816);
OFF_IS(rknn_custom_op, destroy, 824);
#else
SIZE_IS(rknn_custom_op_interal_context, 4);
SIZE_IS(rknn_gpu_op_context, 12);
SIZE_IS(rknn_custom_op_context, 24);
OFF_IS(rknn_custom_op_context, internal_ctx, 4);
OFF_IS(rknn_custom_op_context, gpu_ctx, 8);
OFF_IS(rknn_custom_op_context, priv_data, 20);
SIZE_IS(rknn_custom_op_tensor, 416);
OFF_IS(rknn_custom_op_tensor, mem, 376);
SIZE_IS(rknn_custom_op_attr, 268);
OFF_IS(rknn_custom_op_attr, data, 264);
OFF_IS(rknn_custom_op, cl_kernel_source, 520);
OFF_IS(rknn_custom_op, cl_source_size, 528);
OFF_IS(rknn_custom_op, cl_build_options, 536);
OFF_IS(rknn_custom_op, init, 792);
OFF_IS(rknn_custom_op, destroy, 808);
SIZE_IS(rknn_custom_op, 816);
#endif

typedef int (*callback_fn)(rknn_custom_op_context*, rknn_custom_op_tensor*, uint32_t, rknn_custom_op_tensor*,
                           uint32_t);
_Static_assert(_Generic(((rknn_custom_op*)0)->compute, callback_fn: 1, default: 0), "compute's signature");
_Static_assert(_Generic(((rknn_custom_op*)0)->destroy, int (*)(rknn_custom_op_context*): 1, default: 0),
               "destroy's signature");
SIG_IS(rknn_register_custom_ops, int (*)(rknn_context, rknn_custom_op*, uint32_t));
SIG_IS(rknn_custom_op_get_op_attr, void (*)(rknn_custom_op_context*, const char*, rknn_custom_op_attr*));

#if !defined(__STDC_HOSTED__) || __STDC_HOSTED__
int main(void) { return 0; }
#endif
