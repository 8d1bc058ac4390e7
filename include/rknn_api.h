/*
 * rknn_api.h - public C API of npurt, a CPU runtime for RKNN models.
 *
 * This header is written from scratch for npurt. It is source- and
 * ABI-compatible with Rockchip's rknn_api.h V2.3.2: every identifier
 * (including the vendor's spellings such as RKNN_ERR_INCOMPATILE_* and
 * struct _rknn_tensor_memory), every constant value and every struct
 * layout match that version, so programs written for librknnrt.so build
 * unchanged against it and run against npurt's librknnrt.so.
 *
 * Conventions shared by all functions:
 *   - int-returning functions return RKNN_SUCC (0) on success or one of the
 *     negative RKNN_ERR_* codes below on failure.
 *   - rknn_tensor_mem* returning functions return NULL on failure.
 *   - Calls on one context are serialized; to run a model concurrently use
 *     one context per thread (see rknn_dup_context).
 *
 * Only <stdint.h> is included. Layout notes: rknn_context is 32 bits on
 * 32-bit ARM (__arm__) and 64 bits everywhere else.
 */

#ifndef _RKNN_API_H
#define _RKNN_API_H

#ifdef __cplusplus
extern "C" {
#endif

#include <stdint.h>

/* Symbol visibility: the runtime is built with -fvisibility=hidden and this
 * marker exports the API functions. Users may predefine it. */
#ifndef RKNN_API_EXPORT
#if defined(__GNUC__)
#define RKNN_API_EXPORT __attribute__((visibility("default")))
#else
#define RKNN_API_EXPORT
#endif
#endif

/* Marks the inline helpers below so that compilers do not warn when a
 * translation unit does not call them. */
#ifndef RKNN_API_MAYBE_UNUSED
#if defined(__GNUC__)
#define RKNN_API_MAYBE_UNUSED __attribute__((unused))
#else
#define RKNN_API_MAYBE_UNUSED
#endif
#endif

/* ------------------------------------------------------------------------
 * rknn_init flags (bitmask, `flag` argument)
 * ---------------------------------------------------------------------- */

/* Context priority (HIGH is the default). */
#define RKNN_FLAG_PRIOR_HIGH                        0x00000000
#define RKNN_FLAG_PRIOR_MEDIUM                      0x00000001
#define RKNN_FLAG_PRIOR_LOW                         0x00000002

/* Asynchronous mode: rknn_outputs_get returns the previous frame's results
 * instead of waiting for the current one. */
#define RKNN_FLAG_ASYNC_MASK                        0x00000004

/* Collect per-layer timing for RKNN_QUERY_PERF_DETAIL (slows inference). */
#define RKNN_FLAG_COLLECT_PERF_MASK                 0x00000008

/* The user provides weight, internal and input/output memory. */
#define RKNN_FLAG_MEM_ALLOC_OUTSIDE                 0x00000010

/* Share the weights of the context given in rknn_init_extend.ctx. */
#define RKNN_FLAG_SHARE_WEIGHT_MEM                  0x00000020

/* Fence fd is supplied by the caller / handed out to the caller. */
#define RKNN_FLAG_FENCE_IN_OUTSIDE                  0x00000040
#define RKNN_FLAG_FENCE_OUT_OUTSIDE                 0x00000080

/* Dummy init: only the RKNN_QUERY_MEM_SIZE sizes can be queried. */
#define RKNN_FLAG_COLLECT_MODEL_INFO_ONLY           0x00000100

/* The user provides the internal (intermediate tensor) memory only. */
#define RKNN_FLAG_INTERNAL_ALLOC_OUTSIDE            0x00000200

/* Prefer the GPU for operators the NPU cannot run (best effort). */
#define RKNN_FLAG_EXECUTE_FALLBACK_PRIOR_DEVICE_GPU 0x00000400

/* Place internal tensors in SRAM where possible. */
#define RKNN_FLAG_ENABLE_SRAM                       0x00000800

/* Share SRAM buffers between contexts (requires RKNN_FLAG_ENABLE_SRAM). */
#define RKNN_FLAG_SHARE_SRAM                        0x00001000

/* Do not raise the process priority (the default renices to -19). */
#define RKNN_FLAG_DISABLE_PROC_HIGH_PRIORITY        0x00002000

/* The runtime does not flush input caches; the user must. Not for use
 * together with rknn_inputs_set. */
#define RKNN_FLAG_DISABLE_FLUSH_INPUT_MEM_CACHE     0x00004000

/* The runtime does not invalidate output caches; call rknn_mem_sync(...,
 * RKNN_MEMORY_SYNC_FROM_DEVICE) before CPU reads. Not for use together with
 * rknn_outputs_get. */
#define RKNN_FLAG_DISABLE_FLUSH_OUTPUT_MEM_CACHE    0x00008000

/* The model buffer given to rknn_init is runtime memory (rknn_create_mem*)
 * and is used in place instead of being copied. */
#define RKNN_FLAG_MODEL_BUFFER_ZERO_COPY            0x00010000

/* rknn_create_mem2 alloc flag: allocate without a context (ctx may be 0). */
#define RKNN_MEM_FLAG_ALLOC_NO_CONTEXT              0x00020000

/* ------------------------------------------------------------------------
 * Error codes
 * ---------------------------------------------------------------------- */
#define RKNN_SUCC                                        0      /* success */
#define RKNN_ERR_FAIL                                    (-1)   /* generic failure */
#define RKNN_ERR_TIMEOUT                                 (-2)   /* timed out */
#define RKNN_ERR_DEVICE_UNAVAILABLE                      (-3)   /* device unavailable */
#define RKNN_ERR_MALLOC_FAIL                             (-4)   /* allocation failed */
#define RKNN_ERR_PARAM_INVALID                           (-5)   /* bad parameter */
#define RKNN_ERR_MODEL_INVALID                           (-6)   /* bad or unsupported model */
#define RKNN_ERR_CTX_INVALID                             (-7)   /* bad context */
#define RKNN_ERR_INPUT_INVALID                           (-8)   /* bad input */
#define RKNN_ERR_OUTPUT_INVALID                          (-9)   /* bad output */
#define RKNN_ERR_DEVICE_UNMATCH                          (-10)  /* device/version mismatch */
#define RKNN_ERR_INCOMPATILE_PRE_COMPILE_MODEL           (-11)  /* pre-compiled model not supported */
#define RKNN_ERR_INCOMPATILE_OPTIMIZATION_LEVEL_VERSION  (-12)  /* optimization level not supported */
#define RKNN_ERR_TARGET_PLATFORM_UNMATCH                 (-13)  /* model built for another platform */

/* ------------------------------------------------------------------------
 * Tensor limits
 * ---------------------------------------------------------------------- */
#define RKNN_MAX_DIMS               16   /* max tensor rank */
#define RKNN_MAX_NUM_CHANNEL        15   /* max input channels */
#define RKNN_MAX_NAME_LEN           256  /* tensor name buffer size */
#define RKNN_MAX_DYNAMIC_SHAPE_NUM  512  /* max shape sets per dynamic input */

/* Opaque context handle (not a pointer). */
#ifdef __arm__
typedef uint32_t rknn_context;
#else
typedef uint64_t rknn_context;
#endif

/* ------------------------------------------------------------------------
 * Enumerations
 * ---------------------------------------------------------------------- */

/* Commands for rknn_query; the comment names the struct `info` points to. */
typedef enum _rknn_query_cmd {
    RKNN_QUERY_IN_OUT_NUM                  = 0,  /* rknn_input_output_num */
    RKNN_QUERY_INPUT_ATTR                  = 1,  /* rknn_tensor_attr (set .index) */
    RKNN_QUERY_OUTPUT_ATTR                 = 2,  /* rknn_tensor_attr (set .index) */
    RKNN_QUERY_PERF_DETAIL                 = 3,  /* rknn_perf_detail; needs RKNN_FLAG_COLLECT_PERF_MASK */
    RKNN_QUERY_PERF_RUN                    = 4,  /* rknn_perf_run */
    RKNN_QUERY_SDK_VERSION                 = 5,  /* rknn_sdk_version */
    RKNN_QUERY_MEM_SIZE                    = 6,  /* rknn_mem_size */
    RKNN_QUERY_CUSTOM_STRING               = 7,  /* rknn_custom_string */
    RKNN_QUERY_NATIVE_INPUT_ATTR           = 8,  /* rknn_tensor_attr, native layout */
    RKNN_QUERY_NATIVE_OUTPUT_ATTR          = 9,  /* rknn_tensor_attr, native layout */
    RKNN_QUERY_NATIVE_NC1HWC2_INPUT_ATTR   = 8,  /* alias of RKNN_QUERY_NATIVE_INPUT_ATTR */
    RKNN_QUERY_NATIVE_NC1HWC2_OUTPUT_ATTR  = 9,  /* alias of RKNN_QUERY_NATIVE_OUTPUT_ATTR */
    RKNN_QUERY_NATIVE_NHWC_INPUT_ATTR      = 10, /* rknn_tensor_attr, native NHWC */
    RKNN_QUERY_NATIVE_NHWC_OUTPUT_ATTR     = 11, /* rknn_tensor_attr, native NHWC */
    RKNN_QUERY_DEVICE_MEM_INFO             = 12, /* rknn_tensor_mem of the model buffer */
    RKNN_QUERY_INPUT_DYNAMIC_RANGE         = 13, /* rknn_input_range (set .index) */
    RKNN_QUERY_CURRENT_INPUT_ATTR          = 14, /* rknn_tensor_attr, current dynamic shape */
    RKNN_QUERY_CURRENT_OUTPUT_ATTR         = 15, /* rknn_tensor_attr, current dynamic shape */
    RKNN_QUERY_CURRENT_NATIVE_INPUT_ATTR   = 16, /* rknn_tensor_attr, current native shape */
    RKNN_QUERY_CURRENT_NATIVE_OUTPUT_ATTR  = 17, /* rknn_tensor_attr, current native shape */

    RKNN_QUERY_CMD_MAX                     = 18
} rknn_query_cmd;

/* Element data types. */
typedef enum _rknn_tensor_type {
    RKNN_TENSOR_FLOAT32  = 0,
    RKNN_TENSOR_FLOAT16  = 1,
    RKNN_TENSOR_INT8     = 2,
    RKNN_TENSOR_UINT8    = 3,
    RKNN_TENSOR_INT16    = 4,
    RKNN_TENSOR_UINT16   = 5,
    RKNN_TENSOR_INT32    = 6,
    RKNN_TENSOR_UINT32   = 7,
    RKNN_TENSOR_INT64    = 8,
    RKNN_TENSOR_BOOL     = 9,
    RKNN_TENSOR_INT4     = 10,
    RKNN_TENSOR_BFLOAT16 = 11,

    RKNN_TENSOR_TYPE_MAX = 12
} rknn_tensor_type;

/* Short display name of a tensor type ("UNKNOW" for unknown values). */
inline static RKNN_API_MAYBE_UNUSED const char* get_type_string(rknn_tensor_type type)
{
    switch (type) {
    case RKNN_TENSOR_FLOAT32:  return "FP32";
    case RKNN_TENSOR_FLOAT16:  return "FP16";
    case RKNN_TENSOR_INT8:     return "INT8";
    case RKNN_TENSOR_UINT8:    return "UINT8";
    case RKNN_TENSOR_INT16:    return "INT16";
    case RKNN_TENSOR_UINT16:   return "UINT16";
    case RKNN_TENSOR_INT32:    return "INT32";
    case RKNN_TENSOR_UINT32:   return "UINT32";
    case RKNN_TENSOR_INT64:    return "INT64";
    case RKNN_TENSOR_BOOL:     return "BOOL";
    case RKNN_TENSOR_INT4:     return "INT4";
    case RKNN_TENSOR_BFLOAT16: return "BF16";
    default:                   return "UNKNOW";
    }
}

/* Quantization schemes. */
typedef enum _rknn_tensor_qnt_type {
    RKNN_TENSOR_QNT_NONE              = 0, /* not quantized */
    RKNN_TENSOR_QNT_DFP               = 1, /* dynamic fixed point; uses fl */
    RKNN_TENSOR_QNT_AFFINE_ASYMMETRIC = 2, /* affine; uses zp and scale */

    RKNN_TENSOR_QNT_MAX               = 3
} rknn_tensor_qnt_type;

/* Short display name of a quantization type ("UNKNOW" for unknown values). */
inline static RKNN_API_MAYBE_UNUSED const char* get_qnt_type_string(rknn_tensor_qnt_type type)
{
    switch (type) {
    case RKNN_TENSOR_QNT_NONE:              return "NONE";
    case RKNN_TENSOR_QNT_DFP:               return "DFP";
    case RKNN_TENSOR_QNT_AFFINE_ASYMMETRIC: return "AFFINE";
    default:                                return "UNKNOW";
    }
}

/* Tensor memory layouts. */
typedef enum _rknn_tensor_format {
    RKNN_TENSOR_NCHW       = 0,
    RKNN_TENSOR_NHWC       = 1,
    RKNN_TENSOR_NC1HWC2    = 2, /* native blocked layout [N, C1, H, W, C2] */
    RKNN_TENSOR_UNDEFINED  = 3, /* non-4-D / model layout */

    RKNN_TENSOR_FORMAT_MAX = 4
} rknn_tensor_format;

/* NPU core selection for rknn_set_core_mask. */
typedef enum _rknn_core_mask {
    RKNN_NPU_CORE_AUTO      = 0,       /* runtime picks a core (default) */
    RKNN_NPU_CORE_0         = 1,
    RKNN_NPU_CORE_1         = 2,
    RKNN_NPU_CORE_2         = 4,
    RKNN_NPU_CORE_0_1       = RKNN_NPU_CORE_0 | RKNN_NPU_CORE_1,
    RKNN_NPU_CORE_0_1_2     = RKNN_NPU_CORE_0_1 | RKNN_NPU_CORE_2,
    RKNN_NPU_CORE_ALL       = 0xffff,  /* all cores available on the platform */

    RKNN_NPU_CORE_UNDEFINED = 0x10000
} rknn_core_mask;

/* Short display name of a tensor format ("UNKNOW" for unknown values). */
inline static RKNN_API_MAYBE_UNUSED const char* get_format_string(rknn_tensor_format fmt)
{
    switch (fmt) {
    case RKNN_TENSOR_NCHW:      return "NCHW";
    case RKNN_TENSOR_NHWC:      return "NHWC";
    case RKNN_TENSOR_NC1HWC2:   return "NC1HWC2";
    case RKNN_TENSOR_UNDEFINED: return "UNDEFINED";
    default:                    return "UNKNOW";
    }
}

/* Origin of an rknn_tensor_mem, stored by the runtime in .flags. */
typedef enum _rknn_tensor_mem_flags {
    RKNN_TENSOR_MEMORY_FLAGS_ALLOC_INSIDE = 1, /* allocated by the runtime */
    RKNN_TENSOR_MEMORY_FLAGS_FROM_FD      = 2, /* wraps a user dma-buf fd */
    RKNN_TENSOR_MEMORY_FLAGS_FROM_PHYS    = 3, /* wraps a user physical address */
    RKNN_TENSOR_MEMORY_FLAGS_UNKNOWN      = 4
} rknn_tensor_mem_flags;

/* Allocation flags for rknn_create_mem2 (may be OR-ed with
 * RKNN_MEM_FLAG_ALLOC_NO_CONTEXT). */
typedef enum _rknn_mem_alloc_flags {
    RKNN_FLAG_MEMORY_FLAGS_DEFAULT  = 0, /* same as RKNN_FLAG_MEMORY_CACHEABLE */
    RKNN_FLAG_MEMORY_CACHEABLE      = 1,
    RKNN_FLAG_MEMORY_NON_CACHEABLE  = 2,
    RKNN_FLAG_MEMORY_TRY_ALLOC_SRAM = 4  /* SRAM first, remainder in DRAM */
} rknn_mem_alloc_flags;

/* Cache maintenance direction for rknn_mem_sync. */
typedef enum _rknn_mem_sync_mode {
    RKNN_MEMORY_SYNC_TO_DEVICE     = 0x1, /* flush after CPU writes */
    RKNN_MEMORY_SYNC_FROM_DEVICE   = 0x2, /* invalidate before CPU reads */
    RKNN_MEMORY_SYNC_BIDIRECTIONAL = RKNN_MEMORY_SYNC_TO_DEVICE | RKNN_MEMORY_SYNC_FROM_DEVICE
} rknn_mem_sync_mode;

/* ------------------------------------------------------------------------
 * Structures (layouts are part of the ABI; do not reorder)
 * ---------------------------------------------------------------------- */

/* RKNN_QUERY_IN_OUT_NUM result. */
typedef struct _rknn_input_output_num {
    uint32_t n_input;
    uint32_t n_output;
} rknn_input_output_num;

/* Tensor description (RKNN_QUERY_*_ATTR, rknn_set_io_mem,
 * rknn_set_input_shapes). */
typedef struct _rknn_tensor_attr {
    uint32_t index;                    /* in: tensor index, set before rknn_query */
    uint32_t n_dims;                   /* number of valid entries in dims */
    uint32_t dims[RKNN_MAX_DIMS];
    char     name[RKNN_MAX_NAME_LEN];  /* NUL-terminated tensor name */

    uint32_t n_elems;                  /* product of dims */
    uint32_t size;                     /* bytes of n_elems elements of `type` */

    rknn_tensor_format   fmt;
    rknn_tensor_type     type;
    rknn_tensor_qnt_type qnt_type;
    int8_t   fl;                       /* DFP fractional length */
    int32_t  zp;                       /* affine zero point */
    float    scale;                    /* affine scale */

    uint32_t w_stride;                 /* read-only: stored row width in elements, 0 = width */
    uint32_t size_with_stride;         /* bytes including row padding */

    uint8_t  pass_through;             /* rknn_set_io_mem: 1 = buffer already in model form,
                                          0 = runtime converts from type/fmt */
    uint32_t h_stride;                 /* write-only: rows per batch item, 0 = height */
} rknn_tensor_attr;

/* RKNN_QUERY_INPUT_DYNAMIC_RANGE result. */
typedef struct _rknn_input_range {
    uint32_t index;                    /* in: input index */
    uint32_t shape_number;             /* number of valid shape sets in dyn_range */
    rknn_tensor_format fmt;
    char     name[RKNN_MAX_NAME_LEN];
    uint32_t dyn_range[RKNN_MAX_DYNAMIC_SHAPE_NUM][RKNN_MAX_DIMS];
    uint32_t n_dims;
} rknn_input_range;

/* RKNN_QUERY_PERF_DETAIL result. perf_data is owned by the runtime (valid
 * until the next run or rknn_destroy); do not free it. */
typedef struct _rknn_perf_detail {
    char*    perf_data;
    uint64_t data_len;
} rknn_perf_detail;

/* RKNN_QUERY_PERF_RUN result. */
typedef struct _rknn_perf_run {
    int64_t run_duration;              /* last inference time in microseconds, excluding I/O setup */
} rknn_perf_run;

/* RKNN_QUERY_SDK_VERSION result. */
typedef struct _rknn_sdk_version {
    char api_version[256];
    char drv_version[256];
} rknn_sdk_version;

/* RKNN_QUERY_MEM_SIZE result. */
typedef struct _rknn_mem_size {
    uint32_t total_weight_size;
    uint32_t total_internal_size;      /* intermediate tensors, excluding inputs/outputs */
    uint64_t total_dma_allocated_size;
    uint32_t total_sram_size;
    uint32_t free_sram_size;
    uint32_t reserved[10];
} rknn_mem_size;

/* RKNN_QUERY_CUSTOM_STRING result (NUL-terminated). */
typedef struct _rknn_custom_string {
    char string[1024];
} rknn_custom_string;

/* A block of tensor memory usable by the runtime (zero-copy API). */
typedef struct _rknn_tensor_memory {
    void*    virt_addr;                /* CPU address of the mapping start */
    uint64_t phys_addr;
    int32_t  fd;                       /* dma-buf fd, or -1 */
    int32_t  offset;                   /* data offset from virt_addr */
    uint32_t size;
    uint32_t flags;                    /* rknn_tensor_mem_flags */
    void*    priv_data;                /* runtime private */
} rknn_tensor_mem;

/* One input for rknn_inputs_set. */
typedef struct _rknn_input {
    uint32_t index;
    void*    buf;                      /* caller-owned; copied during rknn_inputs_set */
    uint32_t size;                     /* bytes in buf */
    uint8_t  pass_through;             /* 1 = buf is already in model type/layout */
    rknn_tensor_type   type;           /* type of buf when pass_through = 0 */
    rknn_tensor_format fmt;            /* layout of buf when pass_through = 0 */
} rknn_input;

/* One output for rknn_outputs_get. */
typedef struct _rknn_output {
    uint8_t  want_float;               /* 1 = dequantize to float32 (NCHW) */
    uint8_t  is_prealloc;              /* 1 = caller supplies buf/size */
    uint32_t index;
    void*    buf;                      /* is_prealloc = 0: runtime-owned until rknn_outputs_release */
    uint32_t size;
} rknn_output;

/* Optional extension for rknn_init. */
typedef struct _rknn_init_extend {
    rknn_context ctx;                  /* context whose weights are shared (SHARE_WEIGHT_MEM) */
    int32_t  real_model_offset;        /* MODEL_BUFFER_ZERO_COPY: model offset in the buffer */
    uint32_t real_model_size;          /* MODEL_BUFFER_ZERO_COPY: model size */
    int32_t  model_buffer_fd;          /* MODEL_BUFFER_ZERO_COPY: buffer fd */
    uint32_t model_buffer_flags;       /* MODEL_BUFFER_ZERO_COPY: buffer flags */
    uint8_t  reserved[112];
} rknn_init_extend;

/* Optional extension for rknn_run / rknn_wait. */
typedef struct _rknn_run_extend {
    uint64_t frame_id;                 /* out: id of the frame started */
    int32_t  non_block;                /* 0 = blocking run */
    int32_t  timeout_ms;
    int32_t  fence_fd;
} rknn_run_extend;

/* Optional extension for rknn_outputs_get. */
typedef struct _rknn_output_extend {
    uint64_t frame_id;                 /* out: frame the outputs belong to */
} rknn_output_extend;

/* ------------------------------------------------------------------------
 * Functions
 * ---------------------------------------------------------------------- */

/* Create a context and load a model. If size > 0, `model` points to size
 * bytes of .rknn data; if size == 0, `model` is a NUL-terminated file path.
 * The model is copied or mapped, so the caller may free its buffer as soon
 * as the call returns (except with RKNN_FLAG_MODEL_BUFFER_ZERO_COPY, where
 * the runtime memory must outlive the context). `extend` may be NULL.
 * Returns RKNN_SUCC, or RKNN_ERR_PARAM_INVALID / RKNN_ERR_MODEL_INVALID /
 * RKNN_ERR_MALLOC_FAIL / RKNN_ERR_FAIL; *context is set only on success. */
RKNN_API_EXPORT int rknn_init(rknn_context* context, void* model, uint32_t size, uint32_t flag,
                              rknn_init_extend* extend);

/* Create *context_out on the same model as *context_in, sharing weights.
 * Each context must be destroyed separately. Returns an error code. */
RKNN_API_EXPORT int rknn_dup_context(rknn_context* context_in, rknn_context* context_out);

/* Destroy a context and free everything the runtime allocated for it
 * (outputs not yet released included). Memory created with rknn_create_mem*
 * must still be freed with rknn_destroy_mem. Returns an error code. */
RKNN_API_EXPORT int rknn_destroy(rknn_context context);

/* Query model or runtime information. `info` points to the struct named in
 * rknn_query_cmd and `size` its sizeof (a smaller size is rejected); for
 * per-tensor queries set .index first. Returns RKNN_ERR_PARAM_INVALID on a
 * too-small size or a bad index. */
RKNN_API_EXPORT int rknn_query(rknn_context context, rknn_query_cmd cmd, void* info, uint32_t size);

/* Copy (and convert) input data into the context. The input buffers remain
 * owned by the caller and may be reused once the call returns. Returns an
 * error code. */
RKNN_API_EXPORT int rknn_inputs_set(rknn_context context, uint32_t n_inputs, rknn_input inputs[]);

/* Spread a multi-batch model over core_num cores. RK3588/RK3576 only
 * (RKNN_ERR_FAIL on single-core NPUs). Returns an error code. */
RKNN_API_EXPORT int rknn_set_batch_core_num(rknn_context context, int core_num);

/* Select the NPU core(s) used by this context. RK3588/RK3576 only
 * (RKNN_ERR_FAIL on single-core NPUs; RK3576 has cores 0 and 1). Returns an
 * error code. */
RKNN_API_EXPORT int rknn_set_core_mask(rknn_context context, rknn_core_mask core_mask);

/* Run inference on the current inputs. `extend` may be NULL (blocking).
 * Returns an error code. */
RKNN_API_EXPORT int rknn_run(rknn_context context, rknn_run_extend* extend);

/* Wait for a non-blocking run to finish. Unsupported on every platform in
 * 2.3.2 (rknn_run blocks): returns RKNN_ERR_FAIL. */
RKNN_API_EXPORT int rknn_wait(rknn_context context, rknn_run_extend* extend);

/* Fetch the outputs of the last run (blocks until it completes). The caller
 * fills index/want_float/is_prealloc (and buf/size when is_prealloc = 1).
 * With is_prealloc = 0 the runtime allocates buf; it stays valid until
 * rknn_outputs_release, which must be called after every successful get.
 * `extend` may be NULL. Returns an error code. */
RKNN_API_EXPORT int rknn_outputs_get(rknn_context context, uint32_t n_outputs, rknn_output outputs[],
                                     rknn_output_extend* extend);

/* Release outputs obtained by rknn_outputs_get: frees runtime-allocated
 * buffers (is_prealloc = 0); caller buffers are untouched. Returns an error
 * code. */
RKNN_API_EXPORT int rknn_outputs_release(rknn_context context, uint32_t n_ouputs, rknn_output outputs[]);

/* Wrap externally allocated memory given by physical address. The returned
 * struct is freed with rknn_destroy_mem (the memory itself is not). NULL on
 * failure. */
RKNN_API_EXPORT rknn_tensor_mem* rknn_create_mem_from_phys(rknn_context ctx, uint64_t phys_addr,
                                                           void* virt_addr, uint32_t size);

/* Wrap externally allocated memory given by dma-buf fd; virt_addr is the
 * start of the fd's mapping, offset the data offset inside it. The returned
 * struct is freed with rknn_destroy_mem (the fd/memory are not). NULL on
 * failure. */
RKNN_API_EXPORT rknn_tensor_mem* rknn_create_mem_from_fd(rknn_context ctx, int32_t fd, void* virt_addr,
                                                         uint32_t size, int32_t offset);

/* Wrap a media-buffer block (platform specific). NULL on failure or when
 * unsupported. */
RKNN_API_EXPORT rknn_tensor_mem* rknn_create_mem_from_mb_blk(rknn_context ctx, void* mb_blk, int32_t offset);

/* Allocate `size` bytes of runtime memory (cacheable). Free with
 * rknn_destroy_mem. NULL on failure. */
RKNN_API_EXPORT rknn_tensor_mem* rknn_create_mem(rknn_context ctx, uint32_t size);

/* Allocate runtime memory with rknn_mem_alloc_flags (optionally OR-ed with
 * RKNN_MEM_FLAG_ALLOC_NO_CONTEXT, in which case ctx may be 0). Free with
 * rknn_destroy_mem. NULL on failure. */
RKNN_API_EXPORT rknn_tensor_mem* rknn_create_mem2(rknn_context ctx, uint64_t size, uint64_t alloc_flags);

/* Free an rknn_tensor_mem and, if the runtime allocated it, its memory.
 * Returns an error code. */
RKNN_API_EXPORT int rknn_destroy_mem(rknn_context ctx, rknn_tensor_mem* mem);

/* Give the context user-provided weight memory (before rknn_run). The memory
 * must outlive the context. Returns an error code. */
RKNN_API_EXPORT int rknn_set_weight_mem(rknn_context ctx, rknn_tensor_mem* mem);

/* Give the context user-provided internal memory (before rknn_run). The
 * memory must outlive the context. Returns an error code. */
RKNN_API_EXPORT int rknn_set_internal_mem(rknn_context ctx, rknn_tensor_mem* mem);

/* Bind memory to the input or output tensor attr->index (zero-copy API).
 * attr->type/fmt/pass_through describe the buffer contents. The memory must
 * stay valid while bound. Returns an error code. */
RKNN_API_EXPORT int rknn_set_io_mem(rknn_context ctx, rknn_tensor_mem* mem, rknn_tensor_attr* attr);

/* Deprecated single-input form of rknn_set_input_shapes. Returns an error
 * code. */
RKNN_API_EXPORT int rknn_set_input_shape(rknn_context ctx, rknn_tensor_attr* attr);

/* Select the current shapes of a dynamic-shape model; attr[] must describe
 * all n_inputs inputs. Returns an error code. */
RKNN_API_EXPORT int rknn_set_input_shapes(rknn_context ctx, uint32_t n_inputs, rknn_tensor_attr attr[]);

/* Synchronize CPU caches for cacheable runtime memory. Returns an error
 * code. */
RKNN_API_EXPORT int rknn_mem_sync(rknn_context context, rknn_tensor_mem* mem, rknn_mem_sync_mode mode);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* _RKNN_API_H */
