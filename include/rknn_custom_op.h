/*
 * rknn_custom_op.h - npurt's custom operator API: application callbacks for
 * operators the model file marks as custom.
 *
 * Written from scratch for npurt; source- and ABI-compatible with Rockchip's
 * rknn_custom_op.h of librknnrt V2.3.2 (identifiers, enum values and struct
 * layouts match that version), so a board program that registers CPU custom
 * operators (rknn_custom_cpu_op_demo) builds unchanged and runs on npurt.
 *
 * An ONNX node of a domain other than ONNX's own (for example "cst" with op
 * type "cstSoftplus") converts to a custom operator. After rknn_init, the
 * application fills one rknn_custom_op per op type and calls
 * rknn_register_custom_ops; rknn_run then calls `prepare` (if set) and
 * `compute` for each such node. `compute` reads and writes float32 (int64
 * where the ONNX model says so) tensors in the ONNX layout: the data of tensor
 * t is at (char*)t.mem.virt_addr + t.mem.offset, t.mem.size bytes; t.attr has
 * its name, dims, type and size. `init` runs once per node when the op is
 * registered, `destroy` once per node when the context goes away.
 * docs/c_api.md ("Custom operators") gives the rules.
 */

#ifndef _RKNN_CUSTOM_OP_H
#define _RKNN_CUSTOM_OP_H

#ifdef __cplusplus
extern "C" {
#endif

#include "rknn_api.h"

#include <stdint.h>

/* An init callback's return value asking for the runtime's own implementation of the op type
 * (npurt has none for custom types: registration fails with it). */
#define RKNN_WARNING_SKIP_CUSTOM_OP_COMPUTE (-14)

#define RKNN_CUSTOM_OP_MAX_STR_LEN 64
#define RKNN_CUSTOM_OP_MAX_VALUE_LEN 32
#define RKNN_CUSTOM_OP_EXPORT __attribute__((visibility("default")))

/* The runtime's handle of a node, inside rknn_custom_op_context. */
#ifdef __arm__
typedef uint32_t rknn_custom_op_interal_context;
#else
typedef uint64_t rknn_custom_op_interal_context;
#endif

/* Where a custom operator runs. npurt runs CPU operators; it has no OpenCL GPU. */
typedef enum _rknn_target_type {
    RKNN_TARGET_TYPE_CPU = 1,
    RKNN_TARGET_TYPE_GPU = 2,
    RKNN_TARGET_TYPE_MAX
} rknn_target_type;

/* OpenCL objects of a GPU operator (cl_context, cl_command_queue, cl_kernel). */
typedef struct _rknn_gpu_op_context {
    void* cl_context;
    void* cl_command_queue;
    void* cl_kernel;
} rknn_gpu_op_context;

/* One node's context, passed to every callback of that node. */
typedef struct _rknn_custom_op_context {
    rknn_target_type               target;       /* the op's target */
    rknn_custom_op_interal_context internal_ctx; /* the runtime's node: rknn_custom_op_get_op_attr reads it */
    rknn_gpu_op_context            gpu_ctx;      /* all NULL on npurt */
    void*                          priv_data;    /* the application's: set it in init, free it in destroy */
} rknn_custom_op_context;

/* One input or output of a node: its description and its memory. */
typedef struct _rknn_custom_op_tensor {
    rknn_tensor_attr attr;
    rknn_tensor_mem  mem;
} rknn_custom_op_tensor;

/* One attribute of a node (rknn_custom_op_get_op_attr): `n_elems` values of
 * `dtype` at `data`. Integers are INT64, floats FLOAT32, strings UINT8 (n_elems
 * bytes, NUL-terminated). An attribute the node lacks: n_elems 0, data NULL. */
typedef struct _rknn_custom_op_attr {
    char             name[RKNN_MAX_NAME_LEN];
    rknn_tensor_type dtype;
    uint32_t         n_elems;
    void*            data;
} rknn_custom_op_attr;

/* What the application registers for one op type. */
typedef struct _rknn_custom_op {
    uint32_t         version;
    rknn_target_type target;
    char             op_type[RKNN_MAX_NAME_LEN]; /* the ONNX node's op_type */

    /* GPU operators only (unused by npurt). */
    char     cl_kernel_name[RKNN_MAX_NAME_LEN];
    char*    cl_kernel_source; /* source text (cl_source_size > 0) or a file path (cl_source_size == 0) */
    uint64_t cl_source_size;
    char     cl_build_options[RKNN_MAX_NAME_LEN];

    /* Callbacks; each returns 0 on success. `compute` is required; `compute_native`
     * is not supported by librknnrt 2.3.2 and must be NULL. */
    int (*init)(rknn_custom_op_context* op_ctx, rknn_custom_op_tensor* inputs, uint32_t n_inputs,
                rknn_custom_op_tensor* outputs, uint32_t n_outputs);
    int (*prepare)(rknn_custom_op_context* op_ctx, rknn_custom_op_tensor* inputs, uint32_t n_inputs,
                   rknn_custom_op_tensor* outputs, uint32_t n_outputs);
    int (*compute)(rknn_custom_op_context* op_ctx, rknn_custom_op_tensor* inputs, uint32_t n_inputs,
                   rknn_custom_op_tensor* outputs, uint32_t n_outputs);
    int (*compute_native)(rknn_custom_op_context* op_ctx, rknn_custom_op_tensor* inputs, uint32_t n_inputs,
                          rknn_custom_op_tensor* outputs, uint32_t n_outputs);
    int (*destroy)(rknn_custom_op_context* op_ctx);
} rknn_custom_op;

/* The entry point of a custom-op plugin library. */
typedef rknn_custom_op* (*get_custom_op_func)();

/* Registers `custom_op_num` op types on `ctx` (after rknn_init, before rknn_run).
 * Each op type at most once per context; init runs now for every node of it. */
RKNN_API_EXPORT int rknn_register_custom_ops(rknn_context ctx, rknn_custom_op* op, uint32_t custom_op_num);

/* Fills `op_attr` with the attribute `attr_name` of the node whose callback got `op_ctx`.
 * The data stays valid while the context lives. */
RKNN_API_EXPORT void rknn_custom_op_get_op_attr(rknn_custom_op_context* op_ctx, const char* attr_name, rknn_custom_op_attr* op_attr);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* _RKNN_CUSTOM_OP_H */
