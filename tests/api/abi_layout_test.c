/*
 * abi_layout_test.c - compile-time ABI checks for include/rknn_api.h.
 *
 * Every struct size and field offset below is the one of Rockchip's
 * rknn_api.h V2.3.2 (spec: shared/spec/rknn-api.md section 1.4), for LP64
 * (x86_64, aarch64) and for 32-bit ARM EABI (armv7 hard-float). Constant
 * values (section 1.2/1.3) and the 23 function signatures (section 1.5) are
 * checked too. Everything is a _Static_assert, so a mismatch fails the build.
 *
 * At run time main() checks the strings returned by the three inline
 * helpers. When built freestanding (e.g. a syntax-only ARM32 cross check
 * without a target libc) the run-time part is compiled out.
 *
 * Build: cc -std=c11 -I include tests/api/abi_layout_test.c
 */

#include <stddef.h>
#include <stdint.h>

#include "rknn_api.h"

#define SIZE_IS(T, N) _Static_assert(sizeof(T) == (N), "sizeof(" #T ") != " #N)
#define ALIGN_IS(T, N) _Static_assert(_Alignof(T) == (N), "_Alignof(" #T ") != " #N)
#define OFF_IS(T, F, N) _Static_assert(offsetof(T, F) == (N), "offsetof(" #T ", " #F ") != " #N)
#define FSIZE_IS(T, F, N) _Static_assert(sizeof(((T*)0)->F) == (N), "sizeof(" #T "." #F ") != " #N)
#define VAL_IS(X, N) _Static_assert((X) == (N), #X " != " #N)
#define SIG_IS(FN, PTR_T) _Static_assert(_Generic(&FN, PTR_T: 1, default: 0), #FN " has the wrong signature")

/* ------------------------------------------------------------------------
 * Constants (§1.2)
 * ---------------------------------------------------------------------- */

/* rknn_init flags */
VAL_IS(RKNN_FLAG_PRIOR_HIGH, 0x00000000);
VAL_IS(RKNN_FLAG_PRIOR_MEDIUM, 0x00000001);
VAL_IS(RKNN_FLAG_PRIOR_LOW, 0x00000002);
VAL_IS(RKNN_FLAG_ASYNC_MASK, 0x00000004);
VAL_IS(RKNN_FLAG_COLLECT_PERF_MASK, 0x00000008);
VAL_IS(RKNN_FLAG_MEM_ALLOC_OUTSIDE, 0x00000010);
VAL_IS(RKNN_FLAG_SHARE_WEIGHT_MEM, 0x00000020);
VAL_IS(RKNN_FLAG_FENCE_IN_OUTSIDE, 0x00000040);
VAL_IS(RKNN_FLAG_FENCE_OUT_OUTSIDE, 0x00000080);
VAL_IS(RKNN_FLAG_COLLECT_MODEL_INFO_ONLY, 0x00000100);
VAL_IS(RKNN_FLAG_INTERNAL_ALLOC_OUTSIDE, 0x00000200);
VAL_IS(RKNN_FLAG_EXECUTE_FALLBACK_PRIOR_DEVICE_GPU, 0x00000400);
VAL_IS(RKNN_FLAG_ENABLE_SRAM, 0x00000800);
VAL_IS(RKNN_FLAG_SHARE_SRAM, 0x00001000);
VAL_IS(RKNN_FLAG_DISABLE_PROC_HIGH_PRIORITY, 0x00002000);
VAL_IS(RKNN_FLAG_DISABLE_FLUSH_INPUT_MEM_CACHE, 0x00004000);
VAL_IS(RKNN_FLAG_DISABLE_FLUSH_OUTPUT_MEM_CACHE, 0x00008000);
VAL_IS(RKNN_FLAG_MODEL_BUFFER_ZERO_COPY, 0x00010000);
VAL_IS(RKNN_MEM_FLAG_ALLOC_NO_CONTEXT, 0x00020000);

/* error codes */
VAL_IS(RKNN_SUCC, 0);
VAL_IS(RKNN_ERR_FAIL, -1);
VAL_IS(RKNN_ERR_TIMEOUT, -2);
VAL_IS(RKNN_ERR_DEVICE_UNAVAILABLE, -3);
VAL_IS(RKNN_ERR_MALLOC_FAIL, -4);
VAL_IS(RKNN_ERR_PARAM_INVALID, -5);
VAL_IS(RKNN_ERR_MODEL_INVALID, -6);
VAL_IS(RKNN_ERR_CTX_INVALID, -7);
VAL_IS(RKNN_ERR_INPUT_INVALID, -8);
VAL_IS(RKNN_ERR_OUTPUT_INVALID, -9);
VAL_IS(RKNN_ERR_DEVICE_UNMATCH, -10);
VAL_IS(RKNN_ERR_INCOMPATILE_PRE_COMPILE_MODEL, -11);
VAL_IS(RKNN_ERR_INCOMPATILE_OPTIMIZATION_LEVEL_VERSION, -12);
VAL_IS(RKNN_ERR_TARGET_PLATFORM_UNMATCH, -13);

/* tensor limits */
VAL_IS(RKNN_MAX_DIMS, 16);
VAL_IS(RKNN_MAX_NUM_CHANNEL, 15);
VAL_IS(RKNN_MAX_NAME_LEN, 256);
VAL_IS(RKNN_MAX_DYNAMIC_SHAPE_NUM, 512);

/* ------------------------------------------------------------------------
 * Enumerations (§1.3): values and 4-byte size
 * ---------------------------------------------------------------------- */

VAL_IS(RKNN_QUERY_IN_OUT_NUM, 0);
VAL_IS(RKNN_QUERY_INPUT_ATTR, 1);
VAL_IS(RKNN_QUERY_OUTPUT_ATTR, 2);
VAL_IS(RKNN_QUERY_PERF_DETAIL, 3);
VAL_IS(RKNN_QUERY_PERF_RUN, 4);
VAL_IS(RKNN_QUERY_SDK_VERSION, 5);
VAL_IS(RKNN_QUERY_MEM_SIZE, 6);
VAL_IS(RKNN_QUERY_CUSTOM_STRING, 7);
VAL_IS(RKNN_QUERY_NATIVE_INPUT_ATTR, 8);
VAL_IS(RKNN_QUERY_NATIVE_OUTPUT_ATTR, 9);
VAL_IS(RKNN_QUERY_NATIVE_NC1HWC2_INPUT_ATTR, 8);
VAL_IS(RKNN_QUERY_NATIVE_NC1HWC2_OUTPUT_ATTR, 9);
VAL_IS(RKNN_QUERY_NATIVE_NHWC_INPUT_ATTR, 10);
VAL_IS(RKNN_QUERY_NATIVE_NHWC_OUTPUT_ATTR, 11);
VAL_IS(RKNN_QUERY_DEVICE_MEM_INFO, 12);
VAL_IS(RKNN_QUERY_INPUT_DYNAMIC_RANGE, 13);
VAL_IS(RKNN_QUERY_CURRENT_INPUT_ATTR, 14);
VAL_IS(RKNN_QUERY_CURRENT_OUTPUT_ATTR, 15);
VAL_IS(RKNN_QUERY_CURRENT_NATIVE_INPUT_ATTR, 16);
VAL_IS(RKNN_QUERY_CURRENT_NATIVE_OUTPUT_ATTR, 17);
VAL_IS(RKNN_QUERY_CMD_MAX, 18);

VAL_IS(RKNN_TENSOR_FLOAT32, 0);
VAL_IS(RKNN_TENSOR_FLOAT16, 1);
VAL_IS(RKNN_TENSOR_INT8, 2);
VAL_IS(RKNN_TENSOR_UINT8, 3);
VAL_IS(RKNN_TENSOR_INT16, 4);
VAL_IS(RKNN_TENSOR_UINT16, 5);
VAL_IS(RKNN_TENSOR_INT32, 6);
VAL_IS(RKNN_TENSOR_UINT32, 7);
VAL_IS(RKNN_TENSOR_INT64, 8);
VAL_IS(RKNN_TENSOR_BOOL, 9);
VAL_IS(RKNN_TENSOR_INT4, 10);
VAL_IS(RKNN_TENSOR_BFLOAT16, 11);
VAL_IS(RKNN_TENSOR_TYPE_MAX, 12);

VAL_IS(RKNN_TENSOR_QNT_NONE, 0);
VAL_IS(RKNN_TENSOR_QNT_DFP, 1);
VAL_IS(RKNN_TENSOR_QNT_AFFINE_ASYMMETRIC, 2);
VAL_IS(RKNN_TENSOR_QNT_MAX, 3);

VAL_IS(RKNN_TENSOR_NCHW, 0);
VAL_IS(RKNN_TENSOR_NHWC, 1);
VAL_IS(RKNN_TENSOR_NC1HWC2, 2);
VAL_IS(RKNN_TENSOR_UNDEFINED, 3);
VAL_IS(RKNN_TENSOR_FORMAT_MAX, 4);

VAL_IS(RKNN_NPU_CORE_AUTO, 0);
VAL_IS(RKNN_NPU_CORE_0, 1);
VAL_IS(RKNN_NPU_CORE_1, 2);
VAL_IS(RKNN_NPU_CORE_2, 4);
VAL_IS(RKNN_NPU_CORE_0_1, 3);
VAL_IS(RKNN_NPU_CORE_0_1_2, 7);
VAL_IS(RKNN_NPU_CORE_ALL, 0xffff);
VAL_IS(RKNN_NPU_CORE_UNDEFINED, 0x10000);

VAL_IS(RKNN_TENSOR_MEMORY_FLAGS_ALLOC_INSIDE, 1);
VAL_IS(RKNN_TENSOR_MEMORY_FLAGS_FROM_FD, 2);
VAL_IS(RKNN_TENSOR_MEMORY_FLAGS_FROM_PHYS, 3);
VAL_IS(RKNN_TENSOR_MEMORY_FLAGS_UNKNOWN, 4);

VAL_IS(RKNN_FLAG_MEMORY_FLAGS_DEFAULT, 0);
VAL_IS(RKNN_FLAG_MEMORY_CACHEABLE, 1);
VAL_IS(RKNN_FLAG_MEMORY_NON_CACHEABLE, 2);
VAL_IS(RKNN_FLAG_MEMORY_TRY_ALLOC_SRAM, 4);

VAL_IS(RKNN_MEMORY_SYNC_TO_DEVICE, 1);
VAL_IS(RKNN_MEMORY_SYNC_FROM_DEVICE, 2);
VAL_IS(RKNN_MEMORY_SYNC_BIDIRECTIONAL, 3);

SIZE_IS(rknn_query_cmd, 4);
SIZE_IS(rknn_tensor_type, 4);
SIZE_IS(rknn_tensor_qnt_type, 4);
SIZE_IS(rknn_tensor_format, 4);
SIZE_IS(rknn_core_mask, 4);
SIZE_IS(rknn_tensor_mem_flags, 4);
SIZE_IS(rknn_mem_alloc_flags, 4);
SIZE_IS(rknn_mem_sync_mode, 4);

/* The vendor struct/enum tags must exist as spelled (typo included). */
SIZE_IS(struct _rknn_tensor_memory, sizeof(rknn_tensor_mem));
SIZE_IS(struct _rknn_tensor_attr, sizeof(rknn_tensor_attr));
SIZE_IS(enum _rknn_query_cmd, 4);

/* ------------------------------------------------------------------------
 * Struct layouts identical on LP64 and ARM32 (§1.4). The vendor only ships
 * those two ABIs; on any other ABI (e.g. i386, where uint64_t is 4-byte
 * aligned) there is no reference layout, so only the constant and signature
 * checks apply.
 * ---------------------------------------------------------------------- */

#if defined(__arm__) || defined(__LP64__) || defined(_LP64)

SIZE_IS(rknn_input_output_num, 8);
OFF_IS(rknn_input_output_num, n_input, 0);
OFF_IS(rknn_input_output_num, n_output, 4);

SIZE_IS(rknn_tensor_attr, 376);
ALIGN_IS(rknn_tensor_attr, 4);
OFF_IS(rknn_tensor_attr, index, 0);
OFF_IS(rknn_tensor_attr, n_dims, 4);
OFF_IS(rknn_tensor_attr, dims, 8);
OFF_IS(rknn_tensor_attr, name, 72);
OFF_IS(rknn_tensor_attr, n_elems, 328);
OFF_IS(rknn_tensor_attr, size, 332);
OFF_IS(rknn_tensor_attr, fmt, 336);
OFF_IS(rknn_tensor_attr, type, 340);
OFF_IS(rknn_tensor_attr, qnt_type, 344);
OFF_IS(rknn_tensor_attr, fl, 348);
OFF_IS(rknn_tensor_attr, zp, 352);
OFF_IS(rknn_tensor_attr, scale, 356);
OFF_IS(rknn_tensor_attr, w_stride, 360);
OFF_IS(rknn_tensor_attr, size_with_stride, 364);
OFF_IS(rknn_tensor_attr, pass_through, 368);
OFF_IS(rknn_tensor_attr, h_stride, 372);
FSIZE_IS(rknn_tensor_attr, dims, 64);
FSIZE_IS(rknn_tensor_attr, name, 256);
FSIZE_IS(rknn_tensor_attr, fl, 1);
FSIZE_IS(rknn_tensor_attr, pass_through, 1);

SIZE_IS(rknn_input_range, 33040);
OFF_IS(rknn_input_range, index, 0);
OFF_IS(rknn_input_range, shape_number, 4);
OFF_IS(rknn_input_range, fmt, 8);
OFF_IS(rknn_input_range, name, 12);
OFF_IS(rknn_input_range, dyn_range, 268);
OFF_IS(rknn_input_range, n_dims, 33036);
FSIZE_IS(rknn_input_range, dyn_range, 512 * 16 * 4);
FSIZE_IS(rknn_input_range, dyn_range[0], 16 * 4);

SIZE_IS(rknn_perf_detail, 16);
OFF_IS(rknn_perf_detail, perf_data, 0);
OFF_IS(rknn_perf_detail, data_len, 8);

SIZE_IS(rknn_perf_run, 8);
OFF_IS(rknn_perf_run, run_duration, 0);

SIZE_IS(rknn_sdk_version, 512);
OFF_IS(rknn_sdk_version, api_version, 0);
OFF_IS(rknn_sdk_version, drv_version, 256);

SIZE_IS(rknn_mem_size, 64);
ALIGN_IS(rknn_mem_size, 8);
OFF_IS(rknn_mem_size, total_weight_size, 0);
OFF_IS(rknn_mem_size, total_internal_size, 4);
OFF_IS(rknn_mem_size, total_dma_allocated_size, 8);
OFF_IS(rknn_mem_size, total_sram_size, 16);
OFF_IS(rknn_mem_size, free_sram_size, 20);
OFF_IS(rknn_mem_size, reserved, 24);
FSIZE_IS(rknn_mem_size, reserved, 40);

SIZE_IS(rknn_custom_string, 1024);
OFF_IS(rknn_custom_string, string, 0);

SIZE_IS(rknn_tensor_mem, 40);
OFF_IS(rknn_tensor_mem, virt_addr, 0);
OFF_IS(rknn_tensor_mem, phys_addr, 8);
OFF_IS(rknn_tensor_mem, fd, 16);
OFF_IS(rknn_tensor_mem, offset, 20);
OFF_IS(rknn_tensor_mem, size, 24);
OFF_IS(rknn_tensor_mem, flags, 28);
OFF_IS(rknn_tensor_mem, priv_data, 32);

SIZE_IS(rknn_run_extend, 24);
OFF_IS(rknn_run_extend, frame_id, 0);
OFF_IS(rknn_run_extend, non_block, 8);
OFF_IS(rknn_run_extend, timeout_ms, 12);
OFF_IS(rknn_run_extend, fence_fd, 16);

SIZE_IS(rknn_output_extend, 8);
OFF_IS(rknn_output_extend, frame_id, 0);

FSIZE_IS(rknn_init_extend, reserved, 112);

/* ------------------------------------------------------------------------
 * ABI-dependent layouts
 * ---------------------------------------------------------------------- */

#if defined(__arm__)
/* 32-bit ARM EABI: 4-byte pointers and context, 8-byte aligned uint64_t. */
SIZE_IS(void*, 4);
SIZE_IS(rknn_context, 4);

SIZE_IS(rknn_input, 24);
OFF_IS(rknn_input, index, 0);
OFF_IS(rknn_input, buf, 4);
OFF_IS(rknn_input, size, 8);
OFF_IS(rknn_input, pass_through, 12);
OFF_IS(rknn_input, type, 16);
OFF_IS(rknn_input, fmt, 20);

SIZE_IS(rknn_output, 16);
OFF_IS(rknn_output, want_float, 0);
OFF_IS(rknn_output, is_prealloc, 1);
OFF_IS(rknn_output, index, 4);
OFF_IS(rknn_output, buf, 8);
OFF_IS(rknn_output, size, 12);

SIZE_IS(rknn_init_extend, 132);
OFF_IS(rknn_init_extend, ctx, 0);
OFF_IS(rknn_init_extend, real_model_offset, 4);
OFF_IS(rknn_init_extend, real_model_size, 8);
OFF_IS(rknn_init_extend, model_buffer_fd, 12);
OFF_IS(rknn_init_extend, model_buffer_flags, 16);
OFF_IS(rknn_init_extend, reserved, 20);

#else
/* LP64 (x86_64, aarch64): 8-byte pointers and context. */
SIZE_IS(void*, 8);
SIZE_IS(rknn_context, 8);

SIZE_IS(rknn_input, 32);
OFF_IS(rknn_input, index, 0);
OFF_IS(rknn_input, buf, 8);
OFF_IS(rknn_input, size, 16);
OFF_IS(rknn_input, pass_through, 20);
OFF_IS(rknn_input, type, 24);
OFF_IS(rknn_input, fmt, 28);

SIZE_IS(rknn_output, 24);
OFF_IS(rknn_output, want_float, 0);
OFF_IS(rknn_output, is_prealloc, 1);
OFF_IS(rknn_output, index, 4);
OFF_IS(rknn_output, buf, 8);
OFF_IS(rknn_output, size, 16);

SIZE_IS(rknn_init_extend, 136);
OFF_IS(rknn_init_extend, ctx, 0);
OFF_IS(rknn_init_extend, real_model_offset, 8);
OFF_IS(rknn_init_extend, real_model_size, 12);
OFF_IS(rknn_init_extend, model_buffer_fd, 16);
OFF_IS(rknn_init_extend, model_buffer_flags, 20);
OFF_IS(rknn_init_extend, reserved, 24);

#endif /* __arm__ / LP64 */

#else
/* Unknown ABI: no vendor reference layout. */
SIZE_IS(rknn_context, 8);
#endif /* known ABI */

/* ------------------------------------------------------------------------
 * Function signatures (§1.5). _Generic does not evaluate its operand, so
 * no symbol is referenced and the test links without the runtime.
 * ---------------------------------------------------------------------- */

SIG_IS(rknn_init, int (*)(rknn_context*, void*, uint32_t, uint32_t, rknn_init_extend*));
SIG_IS(rknn_dup_context, int (*)(rknn_context*, rknn_context*));
SIG_IS(rknn_destroy, int (*)(rknn_context));
SIG_IS(rknn_query, int (*)(rknn_context, rknn_query_cmd, void*, uint32_t));
SIG_IS(rknn_inputs_set, int (*)(rknn_context, uint32_t, rknn_input*));
SIG_IS(rknn_set_batch_core_num, int (*)(rknn_context, int));
SIG_IS(rknn_set_core_mask, int (*)(rknn_context, rknn_core_mask));
SIG_IS(rknn_run, int (*)(rknn_context, rknn_run_extend*));
SIG_IS(rknn_wait, int (*)(rknn_context, rknn_run_extend*));
SIG_IS(rknn_outputs_get, int (*)(rknn_context, uint32_t, rknn_output*, rknn_output_extend*));
SIG_IS(rknn_outputs_release, int (*)(rknn_context, uint32_t, rknn_output*));
SIG_IS(rknn_create_mem_from_phys, rknn_tensor_mem* (*)(rknn_context, uint64_t, void*, uint32_t));
SIG_IS(rknn_create_mem_from_fd, rknn_tensor_mem* (*)(rknn_context, int32_t, void*, uint32_t, int32_t));
SIG_IS(rknn_create_mem_from_mb_blk, rknn_tensor_mem* (*)(rknn_context, void*, int32_t));
SIG_IS(rknn_create_mem, rknn_tensor_mem* (*)(rknn_context, uint32_t));
SIG_IS(rknn_create_mem2, rknn_tensor_mem* (*)(rknn_context, uint64_t, uint64_t));
SIG_IS(rknn_destroy_mem, int (*)(rknn_context, rknn_tensor_mem*));
SIG_IS(rknn_set_weight_mem, int (*)(rknn_context, rknn_tensor_mem*));
SIG_IS(rknn_set_internal_mem, int (*)(rknn_context, rknn_tensor_mem*));
SIG_IS(rknn_set_io_mem, int (*)(rknn_context, rknn_tensor_mem*, rknn_tensor_attr*));
SIG_IS(rknn_set_input_shape, int (*)(rknn_context, rknn_tensor_attr*));
SIG_IS(rknn_set_input_shapes, int (*)(rknn_context, uint32_t, rknn_tensor_attr*));
SIG_IS(rknn_mem_sync, int (*)(rknn_context, rknn_tensor_mem*, rknn_mem_sync_mode));

/* ------------------------------------------------------------------------
 * Run-time checks of the inline string helpers
 * ---------------------------------------------------------------------- */

#if __STDC_HOSTED__
#include <stdio.h>
#include <string.h>

static int g_failures = 0;

static void expect_str(const char* what, const char* got, const char* want)
{
    if (got == NULL || strcmp(got, want) != 0) {
        fprintf(stderr, "FAIL: %s returned \"%s\", expected \"%s\"\n", what, got ? got : "(null)", want);
        ++g_failures;
    }
}

#define EXPECT(call, want) expect_str(#call, call, want)

int main(void)
{
    EXPECT(get_type_string(RKNN_TENSOR_FLOAT32), "FP32");
    EXPECT(get_type_string(RKNN_TENSOR_FLOAT16), "FP16");
    EXPECT(get_type_string(RKNN_TENSOR_INT8), "INT8");
    EXPECT(get_type_string(RKNN_TENSOR_UINT8), "UINT8");
    EXPECT(get_type_string(RKNN_TENSOR_INT16), "INT16");
    EXPECT(get_type_string(RKNN_TENSOR_UINT16), "UINT16");
    EXPECT(get_type_string(RKNN_TENSOR_INT32), "INT32");
    EXPECT(get_type_string(RKNN_TENSOR_UINT32), "UINT32");
    EXPECT(get_type_string(RKNN_TENSOR_INT64), "INT64");
    EXPECT(get_type_string(RKNN_TENSOR_BOOL), "BOOL");
    EXPECT(get_type_string(RKNN_TENSOR_INT4), "INT4");
    EXPECT(get_type_string(RKNN_TENSOR_BFLOAT16), "BF16");
    EXPECT(get_type_string(RKNN_TENSOR_TYPE_MAX), "UNKNOW");
    EXPECT(get_type_string((rknn_tensor_type)99), "UNKNOW");

    EXPECT(get_qnt_type_string(RKNN_TENSOR_QNT_NONE), "NONE");
    EXPECT(get_qnt_type_string(RKNN_TENSOR_QNT_DFP), "DFP");
    EXPECT(get_qnt_type_string(RKNN_TENSOR_QNT_AFFINE_ASYMMETRIC), "AFFINE");
    EXPECT(get_qnt_type_string(RKNN_TENSOR_QNT_MAX), "UNKNOW");
    EXPECT(get_qnt_type_string((rknn_tensor_qnt_type)-1), "UNKNOW");

    EXPECT(get_format_string(RKNN_TENSOR_NCHW), "NCHW");
    EXPECT(get_format_string(RKNN_TENSOR_NHWC), "NHWC");
    EXPECT(get_format_string(RKNN_TENSOR_NC1HWC2), "NC1HWC2");
    EXPECT(get_format_string(RKNN_TENSOR_UNDEFINED), "UNDEFINED");
    EXPECT(get_format_string(RKNN_TENSOR_FORMAT_MAX), "UNKNOW");
    EXPECT(get_format_string((rknn_tensor_format)42), "UNKNOW");

    if (g_failures != 0) {
        fprintf(stderr, "abi_layout_test: %d helper string mismatch(es)\n", g_failures);
        return 1;
    }
    printf("abi_layout_test: OK (layouts checked at compile time, helpers at run time)\n");
    return 0;
}
#else
int main(void)
{
    return 0;
}
#endif
