/*
 * rknn_matmul_api.h - npurt's matrix multiplication API: C = A x B outside any model.
 *
 * Written from scratch for npurt; source- and ABI-compatible with Rockchip's
 * rknn_matmul_api.h of librknnrt V2.3.2 (identifiers, enum values and struct
 * layouts match that version), so programs written for the board's Matmul API
 * (rknn_matmul_api_demo) build unchanged and run on npurt's librknnrt.so.
 *
 * A is M x K, B is K x N, C is M x N. The flow: fill rknn_matmul_info, call
 * rknn_matmul_create (or rknn_matmul_create_dynamic_shape), allocate A, B and
 * C with rknn_create_mem(ctx, io_attr.X.size), write A and B, bind each with
 * rknn_matmul_set_io_mem -- which reads B there, so bind B again after
 * changing it -- then rknn_matmul_run and read C. Integer results are exact;
 * docs/c_api.md gives the layouts, types and quantization rules.
 */

#ifndef _RKNN_MATMUL_API_H
#define _RKNN_MATMUL_API_H

#ifdef __cplusplus
extern "C" {
#endif

#include "rknn_api.h"

typedef rknn_context rknn_matmul_ctx;

/* How B (and A, C) are quantized: scale / zero point arrays of length 1
 * (per layer), N (per channel) or K / group_size * N (per group, group-major). */
typedef enum _rknn_matmul_quant_type {
    RKNN_QUANT_TYPE_PER_LAYER_SYM   = 0,
    RKNN_QUANT_TYPE_PER_LAYER_ASYM  = 1,
    RKNN_QUANT_TYPE_PER_CHANNEL_SYM = 2,
    RKNN_QUANT_TYPE_PER_CHANNEL_ASYM = 3,
    RKNN_QUANT_TYPE_PER_GROUP_SYM   = 4,
    RKNN_QUANT_TYPE_PER_GROUP_ASYM  = 5
} rknn_matmul_quant_type;

typedef struct _rknn_quant_params {
    char name[RKNN_MAX_NAME_LEN]; /* the matrix: io_attr.A.name, .B.name or .C.name */
    float* scale;
    int32_t scale_len;
    int32_t* zp;
    int32_t zp_len;
} rknn_quant_params;

/* The types of A, B and C: <A>_MM_<B>_TO_<C>. */
typedef enum _rknn_matmul_type {
    RKNN_FLOAT16_MM_FLOAT16_TO_FLOAT32 = 1,
    RKNN_INT8_MM_INT8_TO_INT32         = 2,
    RKNN_INT8_MM_INT8_TO_INT8          = 3,
    RKNN_FLOAT16_MM_FLOAT16_TO_FLOAT16 = 4,
    RKNN_FLOAT16_MM_INT8_TO_FLOAT32    = 5,
    RKNN_FLOAT16_MM_INT8_TO_FLOAT16    = 6,
    RKNN_FLOAT16_MM_INT4_TO_FLOAT32    = 7,
    RKNN_FLOAT16_MM_INT4_TO_FLOAT16    = 8,
    RKNN_INT8_MM_INT8_TO_FLOAT32       = 9,
    RKNN_INT4_MM_INT4_TO_INT16         = 10,
    RKNN_INT8_MM_INT4_TO_INT32         = 11,
    RKNN_FLOAT16_MM_INT4_TO_BFLOAT16   = 12,
    RKNN_INT8_MM_INT4_TO_FLOAT16       = 15
} rknn_matmul_type;

static inline const char* get_matmul_type_string(rknn_matmul_type type)
{
    switch (type) {
    case RKNN_FLOAT16_MM_FLOAT16_TO_FLOAT32: return "RKNN_FLOAT16_MM_FLOAT16_TO_FLOAT32";
    case RKNN_INT8_MM_INT8_TO_INT32:         return "RKNN_INT8_MM_INT8_TO_INT32";
    case RKNN_INT8_MM_INT8_TO_INT8:          return "RKNN_INT8_MM_INT8_TO_INT8";
    case RKNN_FLOAT16_MM_FLOAT16_TO_FLOAT16: return "RKNN_FLOAT16_MM_FLOAT16_TO_FLOAT16";
    case RKNN_FLOAT16_MM_INT8_TO_FLOAT32:    return "RKNN_FLOAT16_MM_INT8_TO_FLOAT32";
    case RKNN_FLOAT16_MM_INT8_TO_FLOAT16:    return "RKNN_FLOAT16_MM_INT8_TO_FLOAT16";
    case RKNN_FLOAT16_MM_INT4_TO_FLOAT32:    return "RKNN_FLOAT16_MM_INT4_TO_FLOAT32";
    case RKNN_FLOAT16_MM_INT4_TO_FLOAT16:    return "RKNN_FLOAT16_MM_INT4_TO_FLOAT16";
    case RKNN_INT8_MM_INT8_TO_FLOAT32:       return "RKNN_INT8_MM_INT8_TO_FLOAT32";
    case RKNN_INT4_MM_INT4_TO_INT16:         return "RKNN_INT4_MM_INT4_TO_INT16";
    case RKNN_INT8_MM_INT4_TO_INT32:         return "RKNN_INT8_MM_INT4_TO_INT32";
    case RKNN_FLOAT16_MM_INT4_TO_BFLOAT16:   return "RKNN_FLOAT16_MM_INT4_TO_BFLOAT16";
    case RKNN_INT8_MM_INT4_TO_FLOAT16:       return "RKNN_INT8_MM_INT4_TO_FLOAT16";
    default:                                 return "UNKNOW";
    }
}

/* One matrix as the runtime expects it: dims in the chosen layout, size in bytes. */
typedef struct _rknn_matmul_tensor_attr {
    char name[RKNN_MAX_NAME_LEN];
    uint32_t n_dims;
    uint32_t dims[RKNN_MAX_DIMS];
    uint32_t size;
    rknn_tensor_type type;
} rknn_matmul_tensor_attr;

typedef struct _rknn_matmul_io_attr {
    rknn_matmul_tensor_attr A;
    rknn_matmul_tensor_attr B;
    rknn_matmul_tensor_attr C;
} rknn_matmul_io_attr;

typedef struct _rknn_matmul_shape {
    int32_t M;
    int32_t K;
    int32_t N;
} rknn_matmul_shape;

/* NORM: A (M, K), B (K, N), C (M, N) row-major. NATIVE: the NPU's blocked
 * layouts (A (K/a, M, a), B (N/n, K/32, n, 32), C (N/c, M, c)). TP_NORM
 * (B only): B stored transposed, (N, K). */
typedef enum _rknn_matmul_layout {
    RKNN_MM_LAYOUT_NORM    = 0,
    RKNN_MM_LAYOUT_NATIVE  = 1,
    RKNN_MM_LAYOUT_TP_NORM = 2
} rknn_matmul_layout;

typedef struct rknn_matmul_info_t {
    int32_t M;
    int32_t K;
    int32_t N;
    rknn_matmul_type type;
    int16_t B_layout;        /* rknn_matmul_layout */
    int16_t B_quant_type;    /* rknn_matmul_quant_type */
    int16_t AC_layout;       /* rknn_matmul_layout: NORM or NATIVE */
    int16_t AC_quant_type;   /* per layer only */
    int32_t iommu_domain_id; /* accepted, no meaning off-board */
    int16_t group_size;      /* K elements per group (per-group quantization) */
    int8_t reserved[34];
} rknn_matmul_info;

/* Creates a context for one shape; io_attr receives the A, B and C attrs. */
RKNN_API_EXPORT int rknn_matmul_create(rknn_matmul_ctx* ctx, rknn_matmul_info* info, rknn_matmul_io_attr* io_attr);

/* Creates a context for shape_num shapes (info's M, K, N are not read);
 * io_attrs[i] receives the attrs of dynamic_shapes[i]. */
RKNN_API_EXPORT int rknn_matmul_create_dynamic_shape(rknn_matmul_ctx* ctx, rknn_matmul_info* info, int shape_num,
                                                     rknn_matmul_shape dynamic_shapes[],
                                                     rknn_matmul_io_attr io_attrs[]);

/* Binds memory to the matrix attr names (A, B or C of the current shape). B
 * is read here (bind it again after changing it); A is read by each run. */
RKNN_API_EXPORT int rknn_matmul_set_io_mem(rknn_matmul_ctx ctx, rknn_tensor_mem* mem, rknn_matmul_tensor_attr* attr);

RKNN_API_EXPORT int rknn_matmul_set_core_mask(rknn_matmul_ctx context, rknn_core_mask core_mask);

/* Sets the scale / zero point of the matrix params->name names. */
RKNN_API_EXPORT int rknn_matmul_set_quant_params(rknn_matmul_ctx context, rknn_quant_params* params);

/* INT8_MM_INT8_TO_INT32 with per-channel B: the one scale B's channels were
 * brought to (C's scale is A's times it). */
RKNN_API_EXPORT int rknn_matmul_get_quant_params(rknn_matmul_ctx ctx, rknn_quant_params* params, float* scale);

/* Selects one of the shapes given to rknn_matmul_create_dynamic_shape. */
RKNN_API_EXPORT int rknn_matmul_set_dynamic_shape(rknn_matmul_ctx ctx, rknn_matmul_shape* shape);

RKNN_API_EXPORT int rknn_matmul_run(rknn_matmul_ctx ctx);

RKNN_API_EXPORT int rknn_matmul_destroy(rknn_matmul_ctx ctx);

/* B (K, N) row-major -> the native layout of info's type (and K segments),
 * the bytes io_attr.B.size says. */
RKNN_API_EXPORT int rknn_B_normal_layout_to_native_layout(void* B_input, void* B_output, int K, int N,
                                                          rknn_matmul_info* info);

#ifdef __cplusplus
}
#endif

#endif /* _RKNN_MATMUL_API_H */
