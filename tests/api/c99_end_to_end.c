/*
 * c99_end_to_end.c - a board-style application in strict C99 that uses only
 * rknn_api.h: load the model by path, query it, feed a UINT8 NHWC image, run,
 * fetch float outputs and check them against a hand computation.
 *
 * The model is the conv_relu_pool fixture (tests/common/test_models.h):
 *   x[1,3,4,4] -> y[1,2,4,4]: y[0] = relu(0.1 * sum_c x[c] + 0.5),
 *                             y[1] = relu(0.2 * sum_c x[c] - 100)
 *              -> z[1,3,1,1]: per-channel mean of x
 *
 * usage: c99_end_to_end MODEL_PATH      (exit status 0 = all checks passed)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_check.h"
#include "rknn_api.h"

#define H 4
#define W 4
#define C 3
#define YC 2


static float absf(float v) { return v < 0.0f ? -v : v; }

static int near(float got, float want)
{
    float tol = 1e-3f * (absf(want) > 1.0f ? absf(want) : 1.0f);
    return absf(got - want) <= tol;
}

static void print_attr(const char* what, const rknn_tensor_attr* a)
{
    uint32_t i;
    printf("%s: index=%u name=%s n_dims=%u dims=[", what, a->index, a->name, a->n_dims);
    for (i = 0; i < a->n_dims; ++i) printf(i ? ", %u" : "%u", a->dims[i]);
    printf("] n_elems=%u size=%u w_stride=%u size_with_stride=%u fmt=%s type=%s qnt_type=%s zp=%d scale=%f\n",
           a->n_elems, a->size, a->w_stride, a->size_with_stride, get_format_string(a->fmt),
           get_type_string(a->type), get_qnt_type_string(a->qnt_type), (int)a->zp, (double)a->scale);
}

int main(int argc, char** argv)
{
    rknn_context ctx = 0;
    rknn_input_output_num io_num;
    rknn_tensor_attr in_attr;
    rknn_tensor_attr out_attr[2];
    rknn_sdk_version version;
    rknn_custom_string custom;
    rknn_mem_size mem;
    rknn_input input;
    rknn_output outputs[2];
    unsigned char image[H * W * C];
    float want_y[YC * H * W];
    float want_z[C];
    const float* y;
    const float* z;
    int ret;
    int h, w, c, i;

    if (argc != 2) {
        fprintf(stderr, "usage: %s MODEL_PATH\n", argv[0]);
        return 2;
    }

    /* 1. Load by path: size 0 means `model` is a file name. */
    ret = rknn_init(&ctx, argv[1], 0, 0, NULL);
    if (ret != RKNN_SUCC) {
        fprintf(stderr, "FAIL: rknn_init(%s) = %d\n", argv[1], ret);
        return 1;
    }

    /* 2. Queries. */
    ret = rknn_query(ctx, RKNN_QUERY_SDK_VERSION, &version, sizeof(version));
    CHECK(ret == RKNN_SUCC, "SDK_VERSION = %d", ret);
    if (ret == RKNN_SUCC) {
        printf("sdk api version: %s, driver version: %s\n", version.api_version, version.drv_version);
        CHECK(strlen(version.api_version) > 0, "empty api_version");
        CHECK(strlen(version.drv_version) > 0, "empty drv_version");
    }

    ret = rknn_query(ctx, RKNN_QUERY_IN_OUT_NUM, &io_num, sizeof(io_num));
    CHECK(ret == RKNN_SUCC, "IN_OUT_NUM = %d", ret);
    CHECK(io_num.n_input == 1 && io_num.n_output == 2, "n_input %u n_output %u, expected 1 and 2",
          io_num.n_input, io_num.n_output);

    memset(&in_attr, 0, sizeof(in_attr));
    in_attr.index = 0;
    ret = rknn_query(ctx, RKNN_QUERY_INPUT_ATTR, &in_attr, sizeof(in_attr));
    CHECK(ret == RKNN_SUCC, "INPUT_ATTR = %d", ret);
    print_attr("input", &in_attr);
    CHECK(in_attr.n_dims == 4 && in_attr.dims[0] == 1 && in_attr.dims[1] == H && in_attr.dims[2] == W &&
              in_attr.dims[3] == C,
          "input dims are not [1,%d,%d,%d] (NHWC)", H, W, C);
    CHECK(in_attr.fmt == RKNN_TENSOR_NHWC, "input fmt %s, expected NHWC", get_format_string(in_attr.fmt));
    CHECK(in_attr.type == RKNN_TENSOR_FLOAT16, "input type %s, expected FP16", get_type_string(in_attr.type));
    CHECK(in_attr.n_elems == H * W * C, "input n_elems %u", in_attr.n_elems);
    CHECK(in_attr.size == H * W * C * 2, "input size %u", in_attr.size);
    CHECK(strcmp(in_attr.name, "x") == 0, "input name '%s'", in_attr.name);

    for (i = 0; i < 2; ++i) {
        memset(&out_attr[i], 0, sizeof(out_attr[i]));
        out_attr[i].index = (uint32_t)i;
        ret = rknn_query(ctx, RKNN_QUERY_OUTPUT_ATTR, &out_attr[i], sizeof(out_attr[i]));
        CHECK(ret == RKNN_SUCC, "OUTPUT_ATTR %d = %d", i, ret);
        print_attr("output", &out_attr[i]);
        CHECK(out_attr[i].fmt == RKNN_TENSOR_NCHW, "output %d fmt %s", i, get_format_string(out_attr[i].fmt));
        CHECK(out_attr[i].type == RKNN_TENSOR_FLOAT16, "output %d type %s", i, get_type_string(out_attr[i].type));
    }
    CHECK(out_attr[0].n_elems == YC * H * W, "y n_elems %u", out_attr[0].n_elems);
    CHECK(out_attr[1].n_elems == C, "z n_elems %u", out_attr[1].n_elems);

    ret = rknn_query(ctx, RKNN_QUERY_CUSTOM_STRING, &custom, sizeof(custom));
    CHECK(ret == RKNN_SUCC, "CUSTOM_STRING = %d", ret);
    if (ret == RKNN_SUCC) {
        printf("custom string: %s\n", custom.string);
        CHECK(strcmp(custom.string, "fixture: conv_relu_pool") == 0, "custom string '%s'", custom.string);
    }

    ret = rknn_query(ctx, RKNN_QUERY_MEM_SIZE, &mem, sizeof(mem));
    CHECK(ret == RKNN_SUCC, "MEM_SIZE = %d", ret);
    if (ret == RKNN_SUCC) {
        printf("weight %u, internal %u, total allocated %lu bytes\n", mem.total_weight_size,
               mem.total_internal_size, (unsigned long)mem.total_dma_allocated_size);
        CHECK(mem.total_weight_size >= (54 + 2) * 4, "total_weight_size %u", mem.total_weight_size);
        CHECK(mem.total_dma_allocated_size >= (uint64_t)mem.total_weight_size + mem.total_internal_size,
              "total_dma_allocated_size too small");
    }

    /* 3. Input: a UINT8 NHWC image; x[c][h][w] = 10 * (h * W + w) + 30 * c + 20. */
    for (h = 0; h < H; ++h)
        for (w = 0; w < W; ++w)
            for (c = 0; c < C; ++c) image[(h * W + w) * C + c] = (unsigned char)(10 * (h * W + w) + 30 * c + 20);

    memset(&input, 0, sizeof(input));
    input.index = 0;
    input.buf = image;
    input.size = sizeof(image);
    input.pass_through = 0;
    input.type = RKNN_TENSOR_UINT8;
    input.fmt = RKNN_TENSOR_NHWC;
    ret = rknn_inputs_set(ctx, io_num.n_input, &input);
    CHECK(ret == RKNN_SUCC, "rknn_inputs_set = %d", ret);

    /* 4. Run and fetch float outputs. */
    ret = rknn_run(ctx, NULL);
    CHECK(ret == RKNN_SUCC, "rknn_run = %d", ret);

    memset(outputs, 0, sizeof(outputs));
    for (i = 0; i < 2; ++i) {
        outputs[i].index = (uint32_t)i;
        outputs[i].want_float = 1;
        outputs[i].is_prealloc = 0;
    }
    ret = rknn_outputs_get(ctx, io_num.n_output, outputs, NULL);
    if (ret != RKNN_SUCC) {
        fprintf(stderr, "FAIL: rknn_outputs_get = %d\n", ret);
        rknn_destroy(ctx);
        return 1;
    }
    CHECK(outputs[0].size == sizeof(want_y), "y size %u, expected %u", outputs[0].size, (unsigned)sizeof(want_y));
    CHECK(outputs[1].size == sizeof(want_z), "z size %u, expected %u", outputs[1].size, (unsigned)sizeof(want_z));

    /* 5. Hand computation. */
    for (h = 0; h < H; ++h) {
        for (w = 0; w < W; ++w) {
            float sum = 0.0f, y0, y1;
            for (c = 0; c < C; ++c) sum += (float)image[(h * W + w) * C + c];
            y0 = 0.1f * sum + 0.5f;
            y1 = 0.2f * sum - 100.0f;
            want_y[0 * H * W + h * W + w] = y0 > 0.0f ? y0 : 0.0f;
            want_y[1 * H * W + h * W + w] = y1 > 0.0f ? y1 : 0.0f;
        }
    }
    for (c = 0; c < C; ++c) {
        float sum = 0.0f;
        for (h = 0; h < H; ++h)
            for (w = 0; w < W; ++w) sum += (float)image[(h * W + w) * C + c];
        want_z[c] = sum / (H * W);
    }

    y = (const float*)outputs[0].buf;
    z = (const float*)outputs[1].buf;
    if (outputs[0].size >= sizeof(want_y) && outputs[1].size >= sizeof(want_z) && y != NULL && z != NULL) {
        for (i = 0; i < YC * H * W; ++i) {
            CHECK(near(y[i], want_y[i]), "y[%d] = %f, expected %f", i, (double)y[i], (double)want_y[i]);
        }
        for (i = 0; i < C; ++i) {
            CHECK(near(z[i], want_z[i]), "z[%d] = %f, expected %f", i, (double)z[i], (double)want_z[i]);
        }
        printf("y[0][0][0] = %f, y[1][3][3] = %f, z = [%f, %f, %f]\n", (double)y[0], (double)y[31], (double)z[0],
               (double)z[1], (double)z[2]);
    }

    /* 6. Release and destroy. */
    ret = rknn_outputs_release(ctx, io_num.n_output, outputs);
    CHECK(ret == RKNN_SUCC, "rknn_outputs_release = %d", ret);
    ret = rknn_destroy(ctx);
    CHECK(ret == RKNN_SUCC, "rknn_destroy = %d", ret);

    if (g_failures != 0) {
        fprintf(stderr, "%d check(s) failed\n", g_failures);
        return 1;
    }
    printf("c99_end_to_end: all checks passed\n");
    return 0;
}
