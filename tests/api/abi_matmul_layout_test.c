/*
 * abi_matmul_layout_test.c - compile-time ABI checks for include/rknn_matmul_api.h.
 *
 * Struct sizes, field offsets, enum values and function signatures of
 * Rockchip's rknn_matmul_api.h of librknnrt 2.3.2 (spec:
 * shared/spec/rknn-api.md section 7), LP64 and 32-bit ARM EABI. Every check is
 * a _Static_assert, so a mismatch fails the build; main() checks the inline
 * type-name helper at run time.
 */

#include <stddef.h>
#include <stdint.h>

#include "rknn_matmul_api.h"

#define SIZE_IS(T, N) _Static_assert(sizeof(T) == (N), "sizeof(" #T ") != " #N)
#define OFF_IS(T, F, N) _Static_assert(offsetof(T, F) == (N), "offsetof(" #T ", " #F ") != " #N)
#define VAL_IS(X, N) _Static_assert((X) == (N), #X " != " #N)
#define SIG_IS(FN, PTR_T) _Static_assert(_Generic(&FN, PTR_T: 1, default: 0), #FN " has the wrong signature")

VAL_IS(RKNN_QUANT_TYPE_PER_LAYER_SYM, 0);
VAL_IS(RKNN_QUANT_TYPE_PER_LAYER_ASYM, 1);
VAL_IS(RKNN_QUANT_TYPE_PER_CHANNEL_SYM, 2);
VAL_IS(RKNN_QUANT_TYPE_PER_CHANNEL_ASYM, 3);
VAL_IS(RKNN_QUANT_TYPE_PER_GROUP_SYM, 4);
VAL_IS(RKNN_QUANT_TYPE_PER_GROUP_ASYM, 5);

VAL_IS(RKNN_FLOAT16_MM_FLOAT16_TO_FLOAT32, 1);
VAL_IS(RKNN_INT8_MM_INT8_TO_INT32, 2);
VAL_IS(RKNN_INT8_MM_INT8_TO_INT8, 3);
VAL_IS(RKNN_FLOAT16_MM_FLOAT16_TO_FLOAT16, 4);
VAL_IS(RKNN_FLOAT16_MM_INT8_TO_FLOAT32, 5);
VAL_IS(RKNN_FLOAT16_MM_INT8_TO_FLOAT16, 6);
VAL_IS(RKNN_FLOAT16_MM_INT4_TO_FLOAT32, 7);
VAL_IS(RKNN_FLOAT16_MM_INT4_TO_FLOAT16, 8);
VAL_IS(RKNN_INT8_MM_INT8_TO_FLOAT32, 9);
VAL_IS(RKNN_INT4_MM_INT4_TO_INT16, 10);
VAL_IS(RKNN_INT8_MM_INT4_TO_INT32, 11);
VAL_IS(RKNN_FLOAT16_MM_INT4_TO_BFLOAT16, 12);
VAL_IS(RKNN_INT8_MM_INT4_TO_FLOAT16, 15);

VAL_IS(RKNN_MM_LAYOUT_NORM, 0);
VAL_IS(RKNN_MM_LAYOUT_NATIVE, 1);
VAL_IS(RKNN_MM_LAYOUT_TP_NORM, 2);

SIZE_IS(rknn_matmul_type, 4);
SIZE_IS(rknn_matmul_quant_type, 4);
SIZE_IS(rknn_matmul_layout, 4);
SIZE_IS(rknn_matmul_ctx, sizeof(rknn_context));

/* rknn_quant_params: 288 bytes on LP64, 272 on ILP32 (pointers 4 bytes, no padding). */
OFF_IS(rknn_quant_params, name, 0);
OFF_IS(rknn_quant_params, scale, 256);
#if UINTPTR_MAX == 0xffffffffffffffffu
OFF_IS(rknn_quant_params, scale_len, 264);
OFF_IS(rknn_quant_params, zp, 272);
OFF_IS(rknn_quant_params, zp_len, 280);
SIZE_IS(rknn_quant_params, 288);
#else
OFF_IS(rknn_quant_params, scale_len, 260);
OFF_IS(rknn_quant_params, zp, 264);
OFF_IS(rknn_quant_params, zp_len, 268);
SIZE_IS(rknn_quant_params, 272);
#endif

OFF_IS(rknn_matmul_tensor_attr, name, 0);
OFF_IS(rknn_matmul_tensor_attr, n_dims, 256);
OFF_IS(rknn_matmul_tensor_attr, dims, 260);
OFF_IS(rknn_matmul_tensor_attr, size, 324);
OFF_IS(rknn_matmul_tensor_attr, type, 328);
SIZE_IS(rknn_matmul_tensor_attr, 332);

OFF_IS(rknn_matmul_io_attr, A, 0);
OFF_IS(rknn_matmul_io_attr, B, 332);
OFF_IS(rknn_matmul_io_attr, C, 664);
SIZE_IS(rknn_matmul_io_attr, 996);

SIZE_IS(rknn_matmul_shape, 12);
OFF_IS(rknn_matmul_shape, N, 8);

OFF_IS(rknn_matmul_info, M, 0);
OFF_IS(rknn_matmul_info, K, 4);
OFF_IS(rknn_matmul_info, N, 8);
OFF_IS(rknn_matmul_info, type, 12);
OFF_IS(rknn_matmul_info, B_layout, 16);
OFF_IS(rknn_matmul_info, B_quant_type, 18);
OFF_IS(rknn_matmul_info, AC_layout, 20);
OFF_IS(rknn_matmul_info, AC_quant_type, 22);
OFF_IS(rknn_matmul_info, iommu_domain_id, 24);
OFF_IS(rknn_matmul_info, group_size, 28);
OFF_IS(rknn_matmul_info, reserved, 30);
SIZE_IS(rknn_matmul_info, 64);

SIG_IS(rknn_matmul_create, int (*)(rknn_matmul_ctx*, rknn_matmul_info*, rknn_matmul_io_attr*));
SIG_IS(rknn_matmul_create_dynamic_shape,
       int (*)(rknn_matmul_ctx*, rknn_matmul_info*, int, rknn_matmul_shape*, rknn_matmul_io_attr*));
SIG_IS(rknn_matmul_set_io_mem, int (*)(rknn_matmul_ctx, rknn_tensor_mem*, rknn_matmul_tensor_attr*));
SIG_IS(rknn_matmul_set_core_mask, int (*)(rknn_matmul_ctx, rknn_core_mask));
SIG_IS(rknn_matmul_set_quant_params, int (*)(rknn_matmul_ctx, rknn_quant_params*));
SIG_IS(rknn_matmul_get_quant_params, int (*)(rknn_matmul_ctx, rknn_quant_params*, float*));
SIG_IS(rknn_matmul_set_dynamic_shape, int (*)(rknn_matmul_ctx, rknn_matmul_shape*));
SIG_IS(rknn_matmul_run, int (*)(rknn_matmul_ctx));
SIG_IS(rknn_matmul_destroy, int (*)(rknn_matmul_ctx));
SIG_IS(rknn_B_normal_layout_to_native_layout, int (*)(void*, void*, int, int, rknn_matmul_info*));

#if !defined(__STDC_HOSTED__) || __STDC_HOSTED__
#include <stdio.h>
#include <string.h>
int main(void) {
  if (strcmp(get_matmul_type_string(RKNN_INT8_MM_INT4_TO_INT32), "RKNN_INT8_MM_INT4_TO_INT32") != 0 ||
      strcmp(get_matmul_type_string(RKNN_FLOAT16_MM_FLOAT16_TO_FLOAT32), "RKNN_FLOAT16_MM_FLOAT16_TO_FLOAT32") != 0 ||
      strcmp(get_matmul_type_string((rknn_matmul_type)13), "UNKNOW") != 0) {
    printf("get_matmul_type_string returns the wrong names\n");
    return 1;
  }
  printf("abi_matmul_layout_test: all checks passed\n");
  return 0;
}
#endif
