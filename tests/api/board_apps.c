/*
 * board_apps.c - board-style applications in C99 + POSIX threads that use only
 * rknn_api.h, the way RKNN programs on a board use the runtime. Every scenario
 * checks its outputs against the general API (rknn_inputs_set /
 * rknn_outputs_get on a plain context) on the same inputs, bit for bit.
 *
 * usage: board_apps SCENARIO MODEL_DIR     (MODEL_DIR: npurt_make_test_models output)
 *   shared_internal  two models run in turn on one internal buffer (RKNN_FLAG_INTERNAL_ALLOC_OUTSIDE,
 *                    rknn_create_mem_from_fd views of one allocation)
 *   multi_input      a two-input, two-output model through zero-copy memory
 *   dynamic_cycle    every shape set of a dynamic-shape model, three rounds, general API and zero-copy
 *   async_pipeline   1000 frames on an RKNN_FLAG_ASYNC_MASK context: each rknn_outputs_get returns the
 *                    previous frame, with its frame_id
 *   dup_threads      4 threads, each on an rknn_dup_context copy, 200 frames each
 *   lifecycle        10000 frames, creating and destroying contexts and memories as it goes; prints
 *                    RSS and open fds at the start and the end, which must stay flat
 * Exit status 0: every check passed.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_check.h"
#include "rknn_api.h"

/* AddressSanitizer keeps freed memory in quarantine, so RSS grows there without a leak; its
 * LeakSanitizer checks leaks in that build instead. */
#if defined(__SANITIZE_ADDRESS__)
#define RSS_MEANS_LEAKS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RSS_MEANS_LEAKS 0
#endif
#endif
#ifndef RSS_MEANS_LEAKS
#define RSS_MEANS_LEAKS 1
#endif

#define MAX_IO 4

static char g_dir[1024];

static int init_model(rknn_context* ctx, const char* name, uint32_t flags)
{
    char path[1200];
    snprintf(path, sizeof(path), "%s/%s", g_dir, name);
    return rknn_init(ctx, path, 0, flags, NULL);
}

static void query_io(rknn_context ctx, rknn_input_output_num* num, rknn_tensor_attr* in, rknn_tensor_attr* out,
                     rknn_query_cmd in_cmd, rknn_query_cmd out_cmd)
{
    uint32_t i;
    CHECK(rknn_query(ctx, RKNN_QUERY_IN_OUT_NUM, num, sizeof(*num)) == RKNN_SUCC, "IN_OUT_NUM");
    CHECK(num->n_input <= MAX_IO && num->n_output <= MAX_IO, "too many inputs/outputs");
    for (i = 0; i < num->n_input; ++i) {
        memset(&in[i], 0, sizeof(in[i]));
        in[i].index = i;
        CHECK(rknn_query(ctx, in_cmd, &in[i], sizeof(in[i])) == RKNN_SUCC, "input attr %u", i);
    }
    for (i = 0; i < num->n_output; ++i) {
        memset(&out[i], 0, sizeof(out[i]));
        out[i].index = i;
        CHECK(rknn_query(ctx, out_cmd, &out[i], sizeof(out[i])) == RKNN_SUCC, "output attr %u", i);
    }
}

/* Float32 NCHW input data for input `attr` (its n_elems), distinct per frame. */
static float* make_input(const rknn_tensor_attr* attr, unsigned frame)
{
    float* x = (float*)malloc(attr->n_elems * sizeof(float));
    uint32_t i;
    for (i = 0; i < attr->n_elems; ++i) x[i] = (float)((i * 7u + frame * 13u + attr->index * 5u) % 29u) * 0.5f - 3.0f;
    return x;
}

/* The general API: inputs_set (float32 NCHW), run, outputs_get (float); outputs copied to out[o] (malloc'd). */
static int run_general(rknn_context ctx, uint32_t n_in, const rknn_tensor_attr* in_attr, float** inputs,
                       uint32_t n_out, float** out, uint32_t* out_elems, uint64_t* frame_id)
{
    rknn_input in[MAX_IO];
    rknn_output o[MAX_IO];
    rknn_output_extend ext;
    uint32_t i;
    int ret;
    memset(in, 0, sizeof(in));
    for (i = 0; i < n_in; ++i) {
        in[i].index = i;
        in[i].buf = inputs[i];
        in[i].size = in_attr[i].n_elems * (uint32_t)sizeof(float);
        in[i].type = RKNN_TENSOR_FLOAT32;
        in[i].fmt = RKNN_TENSOR_NCHW;
    }
    if ((ret = rknn_inputs_set(ctx, n_in, in)) != RKNN_SUCC) return ret;
    if ((ret = rknn_run(ctx, NULL)) != RKNN_SUCC) return ret;
    memset(o, 0, sizeof(o));
    for (i = 0; i < n_out; ++i) {
        o[i].index = i;
        o[i].want_float = 1;
    }
    memset(&ext, 0, sizeof(ext));
    if ((ret = rknn_outputs_get(ctx, n_out, o, &ext)) != RKNN_SUCC) return ret;
    for (i = 0; i < n_out; ++i) {
        out[i] = (float*)malloc(o[i].size);
        memcpy(out[i], o[i].buf, o[i].size);
        out_elems[i] = o[i].size / (uint32_t)sizeof(float);
    }
    if (frame_id != NULL) *frame_id = ext.frame_id;
    return rknn_outputs_release(ctx, n_out, o);
}

static int same(const float* a, const float* b, uint32_t n) { return memcmp(a, b, n * sizeof(float)) == 0; }

static void free_all(float** p, uint32_t n)
{
    uint32_t i;
    for (i = 0; i < n; ++i) free(p[i]);
}

/* ---- two models, one internal buffer ---- */

static void shared_internal(void)
{
    const char* names[2] = {"conv_relu_pool.rknn", "add_mul.rknn"};
    rknn_context plain[2], shared[2];
    rknn_input_output_num num[2];
    rknn_tensor_attr in_attr[2][MAX_IO], out_attr[2][MAX_IO];
    rknn_tensor_mem* big;
    rknn_tensor_mem* view[2];
    uint32_t internal[2], biggest = 0;
    unsigned m, frame;
    for (m = 0; m < 2; ++m) {
        rknn_mem_size mem;
        CHECK(init_model(&plain[m], names[m], 0) == RKNN_SUCC, "init %s", names[m]);
        CHECK(init_model(&shared[m], names[m], RKNN_FLAG_INTERNAL_ALLOC_OUTSIDE) == RKNN_SUCC, "init outside %s",
              names[m]);
        query_io(plain[m], &num[m], in_attr[m], out_attr[m], RKNN_QUERY_INPUT_ATTR, RKNN_QUERY_OUTPUT_ATTR);
        CHECK(rknn_query(shared[m], RKNN_QUERY_MEM_SIZE, &mem, sizeof(mem)) == RKNN_SUCC, "MEM_SIZE");
        internal[m] = mem.total_internal_size;
        if (internal[m] > biggest) biggest = internal[m];
    }
    /* The official pattern: allocate the largest once, give each context a view of it. */
    big = rknn_create_mem(shared[0], biggest == 0 ? 64 : biggest);
    CHECK(big != NULL, "create_mem(%u)", biggest);
    if (big == NULL) return;
    for (m = 0; m < 2; ++m) {
        view[m] = rknn_create_mem_from_fd(shared[m], big->fd, big->virt_addr, internal[m] == 0 ? 64 : internal[m], 0);
        CHECK(view[m] != NULL, "create_mem_from_fd");
        CHECK(view[m] != NULL && rknn_set_internal_mem(shared[m], view[m]) == RKNN_SUCC, "set_internal_mem");
    }
    for (frame = 0; frame < 20; ++frame) {
        m = frame % 2; /* in turn, never at once */
        {
            float* inputs[MAX_IO];
            float *want[MAX_IO], *got[MAX_IO];
            uint32_t n_want[MAX_IO], n_got[MAX_IO], i;
            for (i = 0; i < num[m].n_input; ++i) inputs[i] = make_input(&in_attr[m][i], frame);
            CHECK(run_general(plain[m], num[m].n_input, in_attr[m], inputs, num[m].n_output, want, n_want, NULL) ==
                      RKNN_SUCC, "plain run");
            CHECK(run_general(shared[m], num[m].n_input, in_attr[m], inputs, num[m].n_output, got, n_got, NULL) ==
                      RKNN_SUCC, "shared run");
            for (i = 0; i < num[m].n_output; ++i) {
                CHECK(n_want[i] == n_got[i] && same(want[i], got[i], n_want[i]), "%s frame %u output %u differs",
                      names[m], frame, i);
            }
            free_all(inputs, num[m].n_input);
            free_all(want, num[m].n_output);
            free_all(got, num[m].n_output);
        }
    }
    /* As the vendor's demo: memories first, with their contexts; then the contexts. */
    for (m = 0; m < 2; ++m) CHECK(rknn_destroy_mem(shared[m], view[m]) == RKNN_SUCC, "destroy view");
    CHECK(rknn_destroy_mem(shared[0], big) == RKNN_SUCC, "destroy internal buffer");
    for (m = 0; m < 2; ++m) {
        rknn_destroy(shared[m]);
        rknn_destroy(plain[m]);
    }
}

/* ---- zero-copy with several inputs and outputs ---- */

/* Zero-copy run: inputs copied into bound memory (float32 NCHW), outputs read from bound memory (float32). */
static void bind_and_compare(rknn_context zc, rknn_context plain, rknn_query_cmd in_cmd, rknn_query_cmd out_cmd,
                             unsigned frames, const char* what)
{
    rknn_input_output_num num;
    rknn_tensor_attr in_attr[MAX_IO], out_attr[MAX_IO];
    rknn_tensor_mem *in_mem[MAX_IO], *out_mem[MAX_IO];
    uint32_t i;
    unsigned frame;
    query_io(zc, &num, in_attr, out_attr, in_cmd, out_cmd);
    for (i = 0; i < num.n_input; ++i) {
        in_mem[i] = rknn_create_mem(zc, in_attr[i].n_elems * (uint32_t)sizeof(float));
        in_attr[i].type = RKNN_TENSOR_FLOAT32;
        in_attr[i].fmt = RKNN_TENSOR_NCHW;
        CHECK(in_mem[i] != NULL && rknn_set_io_mem(zc, in_mem[i], &in_attr[i]) == RKNN_SUCC, "%s: bind input %u",
              what, i);
    }
    for (i = 0; i < num.n_output; ++i) {
        out_mem[i] = rknn_create_mem(zc, out_attr[i].n_elems * (uint32_t)sizeof(float));
        out_attr[i].type = RKNN_TENSOR_FLOAT32;
        CHECK(out_mem[i] != NULL && rknn_set_io_mem(zc, out_mem[i], &out_attr[i]) == RKNN_SUCC, "%s: bind output %u",
              what, i);
    }
    for (frame = 0; frame < frames; ++frame) {
        float* inputs[MAX_IO];
        float* want[MAX_IO];
        uint32_t n_want[MAX_IO];
        for (i = 0; i < num.n_input; ++i) {
            inputs[i] = make_input(&in_attr[i], frame);
            memcpy(in_mem[i]->virt_addr, inputs[i], in_attr[i].n_elems * sizeof(float));
        }
        CHECK(rknn_run(zc, NULL) == RKNN_SUCC, "%s: zero-copy run", what);
        CHECK(run_general(plain, num.n_input, in_attr, inputs, num.n_output, want, n_want, NULL) == RKNN_SUCC,
              "%s: general run", what);
        for (i = 0; i < num.n_output; ++i) {
            CHECK(n_want[i] == out_attr[i].n_elems && same(want[i], (const float*)out_mem[i]->virt_addr, n_want[i]),
                  "%s: frame %u output %u differs", what, frame, i);
        }
        free_all(inputs, num.n_input);
        free_all(want, num.n_output);
    }
    for (i = 0; i < num.n_input; ++i) rknn_destroy_mem(zc, in_mem[i]);
    for (i = 0; i < num.n_output; ++i) rknn_destroy_mem(zc, out_mem[i]);
}

static void multi_input(void)
{
    rknn_context zc = 0, plain = 0;
    CHECK(init_model(&zc, "add_mul.rknn", 0) == RKNN_SUCC, "init");
    CHECK(init_model(&plain, "add_mul.rknn", 0) == RKNN_SUCC, "init");
    bind_and_compare(zc, plain, RKNN_QUERY_INPUT_ATTR, RKNN_QUERY_OUTPUT_ATTR, 10, "add_mul");
    rknn_destroy(zc);
    rknn_destroy(plain);
}

/* ---- dynamic shapes: every set, three rounds ---- */

static void dynamic_cycle(void)
{
    rknn_context zc = 0, plain = 0;
    rknn_input_range range;
    uint32_t s, d, round;
    CHECK(init_model(&zc, "dynamic_conv_relu_pool.rknn", 0) == RKNN_SUCC, "init");
    CHECK(init_model(&plain, "dynamic_conv_relu_pool.rknn", 0) == RKNN_SUCC, "init");
    memset(&range, 0, sizeof(range));
    range.index = 0;
    CHECK(rknn_query(zc, RKNN_QUERY_INPUT_DYNAMIC_RANGE, &range, sizeof(range)) == RKNN_SUCC, "dynamic range");
    CHECK(range.shape_number == 3, "%u shape sets", range.shape_number);
    for (round = 0; round < 3; ++round) {
        for (s = 0; s < range.shape_number; ++s) {
            rknn_tensor_attr attr;
            char what[64];
            memset(&attr, 0, sizeof(attr));
            attr.index = 0;
            CHECK(rknn_query(zc, RKNN_QUERY_INPUT_ATTR, &attr, sizeof(attr)) == RKNN_SUCC, "input attr");
            attr.fmt = range.fmt;
            attr.n_dims = range.n_dims;
            for (d = 0; d < range.n_dims; ++d) attr.dims[d] = range.dyn_range[s][d];
            CHECK(rknn_set_input_shapes(zc, 1, &attr) == RKNN_SUCC, "set_input_shapes(zero-copy) set %u", s);
            CHECK(rknn_set_input_shapes(plain, 1, &attr) == RKNN_SUCC, "set_input_shapes(general) set %u", s);
            snprintf(what, sizeof(what), "dynamic set %u round %u", s, round);
            bind_and_compare(zc, plain, RKNN_QUERY_CURRENT_INPUT_ATTR, RKNN_QUERY_CURRENT_OUTPUT_ATTR, 2, what);
        }
    }
    rknn_destroy(zc);
    rknn_destroy(plain);
}

/* ---- async pipeline ---- */

static void async_pipeline(void)
{
    enum { kFrames = 1000 };
    rknn_context async_ctx = 0, plain = 0;
    rknn_input_output_num num;
    rknn_tensor_attr in_attr[MAX_IO], out_attr[MAX_IO];
    float* prev_want[MAX_IO] = {NULL};
    uint32_t n_prev[MAX_IO], i;
    unsigned frame;
    CHECK(init_model(&async_ctx, "conv_relu_pool.rknn", RKNN_FLAG_ASYNC_MASK) == RKNN_SUCC, "init async");
    CHECK(init_model(&plain, "conv_relu_pool.rknn", 0) == RKNN_SUCC, "init");
    query_io(plain, &num, in_attr, out_attr, RKNN_QUERY_INPUT_ATTR, RKNN_QUERY_OUTPUT_ATTR);
    for (frame = 0; frame < kFrames; ++frame) {
        float* inputs[MAX_IO];
        float *got[MAX_IO], *want[MAX_IO];
        uint32_t n_got[MAX_IO], n_want[MAX_IO];
        uint64_t frame_id = 0;
        for (i = 0; i < num.n_input; ++i) inputs[i] = make_input(&in_attr[i], frame);
        /* Frame k's outputs arrive with frame k + 1's outputs_get. */
        CHECK(run_general(async_ctx, num.n_input, in_attr, inputs, num.n_output, got, n_got, &frame_id) == RKNN_SUCC,
              "async frame %u", frame);
        CHECK(frame_id == frame, "frame %u: outputs of frame_id %llu, expected %u", frame, (unsigned long long)frame_id,
              frame);
        if (frame > 0) {
            for (i = 0; i < num.n_output; ++i) {
                CHECK(n_got[i] == n_prev[i] && same(got[i], prev_want[i], n_prev[i]),
                      "async outputs of frame %u differ from the general API's", frame - 1);
            }
        }
        CHECK(run_general(plain, num.n_input, in_attr, inputs, num.n_output, want, n_want, NULL) == RKNN_SUCC,
              "general frame %u", frame);
        free_all(prev_want, num.n_output);
        for (i = 0; i < num.n_output; ++i) {
            prev_want[i] = want[i];
            n_prev[i] = n_want[i];
        }
        free_all(inputs, num.n_input);
        free_all(got, num.n_output);
    }
    free_all(prev_want, num.n_output);
    rknn_destroy(async_ctx);
    rknn_destroy(plain);
}

/* ---- threads on duplicated contexts ---- */

struct worker {
    rknn_context ctx;
    unsigned seed;
    int failures;
};

static rknn_tensor_attr g_in_attr[MAX_IO];
static rknn_input_output_num g_num;
static float* g_want[8][MAX_IO];
static uint32_t g_n_want[8][MAX_IO];

static void* worker_main(void* arg)
{
    struct worker* w = (struct worker*)arg;
    unsigned k;
    uint32_t i;
    for (k = 0; k < 200; ++k) {
        const unsigned pattern = (w->seed + k) % 8;
        float* inputs[MAX_IO];
        float* got[MAX_IO];
        uint32_t n_got[MAX_IO];
        for (i = 0; i < g_num.n_input; ++i) inputs[i] = make_input(&g_in_attr[i], pattern);
        if (run_general(w->ctx, g_num.n_input, g_in_attr, inputs, g_num.n_output, got, n_got, NULL) != RKNN_SUCC) {
            ++w->failures;
        } else {
            for (i = 0; i < g_num.n_output; ++i) {
                if (n_got[i] != g_n_want[pattern][i] || !same(got[i], g_want[pattern][i], n_got[i])) ++w->failures;
            }
            free_all(got, g_num.n_output);
        }
        free_all(inputs, g_num.n_input);
    }
    return NULL;
}

static void dup_threads(void)
{
    enum { kThreads = 4 };
    rknn_context base = 0;
    rknn_tensor_attr out_attr[MAX_IO];
    struct worker workers[kThreads];
    pthread_t threads[kThreads];
    unsigned t, p;
    uint32_t i;
    CHECK(init_model(&base, "conv_relu_pool.rknn", 0) == RKNN_SUCC, "init");
    query_io(base, &g_num, g_in_attr, out_attr, RKNN_QUERY_INPUT_ATTR, RKNN_QUERY_OUTPUT_ATTR);
    for (p = 0; p < 8; ++p) { /* the expected outputs, from the general API on one thread */
        float* inputs[MAX_IO];
        for (i = 0; i < g_num.n_input; ++i) inputs[i] = make_input(&g_in_attr[i], p);
        CHECK(run_general(base, g_num.n_input, g_in_attr, inputs, g_num.n_output, g_want[p], g_n_want[p], NULL) ==
                  RKNN_SUCC, "reference run");
        free_all(inputs, g_num.n_input);
    }
    for (t = 0; t < kThreads; ++t) {
        workers[t].seed = t * 3;
        workers[t].failures = 0;
        CHECK(rknn_dup_context(&base, &workers[t].ctx) == RKNN_SUCC, "dup_context");
        pthread_create(&threads[t], NULL, worker_main, &workers[t]);
    }
    for (t = 0; t < kThreads; ++t) {
        pthread_join(threads[t], NULL);
        CHECK(workers[t].failures == 0, "thread %u: %d frames differ or failed", t, workers[t].failures);
        rknn_destroy(workers[t].ctx);
    }
    for (p = 0; p < 8; ++p) free_all(g_want[p], g_num.n_output);
    rknn_destroy(base);
}

/* ---- 10 000 frames of create / run / destroy ---- */

static long rss_kib(void)
{
    char line[256];
    long kib = -1;
    FILE* f = fopen("/proc/self/status", "r");
    if (f == NULL) return -1;
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, "VmRSS:", 6) == 0) kib = strtol(line + 6, NULL, 10);
    }
    fclose(f);
    return kib;
}

static int open_fds(void)
{
    int n = 0;
    struct dirent* e;
    DIR* d = opendir("/proc/self/fd");
    if (d == NULL) return -1;
    while ((e = readdir(d)) != NULL) n += e->d_name[0] != '.';
    closedir(d);
    return n - 1; /* the directory's own fd */
}

static void lifecycle(void)
{
    enum { kFrames = 10000, kWarmup = 500 };
    rknn_context ctx = 0, dup = 0;
    rknn_input_output_num num;
    rknn_tensor_attr in_attr[MAX_IO], out_attr[MAX_IO];
    long rss_start = 0, rss_end;
    int fds_start = 0, fds_end;
    unsigned frame;
    for (frame = 0; frame < kFrames + kWarmup; ++frame) {
        if (frame == kWarmup) {
            /* Allocator pools are warm from here; measured with no context alive, as at the end. */
            if (dup != 0) rknn_destroy(dup);
            rknn_destroy(ctx);
            dup = 0;
            ctx = 0;
            rss_start = rss_kib();
            fds_start = open_fds();
            printf("lifecycle: after %u warm-up frames: RSS %ld KiB, %d open fds\n", kWarmup, rss_start, fds_start);
        }
        if (frame % 10 == 0) { /* a new context every 10 frames, a duplicate every 50 */
            if (dup != 0) rknn_destroy(dup);
            dup = 0;
            if (ctx != 0) rknn_destroy(ctx);
            CHECK(init_model(&ctx, "conv_relu_pool.rknn", 0) == RKNN_SUCC, "init at frame %u", frame);
            query_io(ctx, &num, in_attr, out_attr, RKNN_QUERY_INPUT_ATTR, RKNN_QUERY_OUTPUT_ATTR);
            if (frame % 50 == 0) CHECK(rknn_dup_context(&ctx, &dup) == RKNN_SUCC, "dup at frame %u", frame);
        }
        {
            /* Every frame: fresh zero-copy memory for the input, bound, run, released. */
            rknn_tensor_mem* mem = rknn_create_mem(ctx, in_attr[0].n_elems * (uint32_t)sizeof(float));
            rknn_tensor_attr attr = in_attr[0];
            float* x = make_input(&in_attr[0], frame);
            float* out[MAX_IO];
            uint32_t n_out[MAX_IO];
            attr.type = RKNN_TENSOR_FLOAT32;
            attr.fmt = RKNN_TENSOR_NCHW;
            CHECK(mem != NULL, "create_mem at frame %u", frame);
            if (mem == NULL) break;
            memcpy(mem->virt_addr, x, in_attr[0].n_elems * sizeof(float));
            CHECK(rknn_set_io_mem(ctx, mem, &attr) == RKNN_SUCC, "set_io_mem at frame %u", frame);
            CHECK(rknn_run(ctx, NULL) == RKNN_SUCC, "run at frame %u", frame);
            CHECK(rknn_destroy_mem(ctx, mem) == RKNN_SUCC, "destroy_mem at frame %u", frame);
            if (dup != 0) {
                CHECK(run_general(dup, num.n_input, in_attr, &x, num.n_output, out, n_out, NULL) == RKNN_SUCC,
                      "duplicate run at frame %u", frame);
                free_all(out, num.n_output);
            }
            free(x);
        }
        if (g_failures > 10) break;
    }
    if (dup != 0) rknn_destroy(dup);
    rknn_destroy(ctx);
    rss_end = rss_kib();
    fds_end = open_fds();
    printf("lifecycle: after %u more frames (%u contexts created): RSS %ld KiB, %d open fds\n", kFrames,
           kFrames / 10 + kFrames / 50, rss_end, fds_end);
    CHECK(fds_end == fds_start, "open fds %d -> %d", fds_start, fds_end);
    if (RSS_MEANS_LEAKS) {
        CHECK(rss_end - rss_start < 4096, "RSS grew by %ld KiB", rss_end - rss_start);
    } else {
        printf("lifecycle: RSS not checked under AddressSanitizer (quarantine); LeakSanitizer checks leaks\n");
    }
}

int main(int argc, char** argv)
{
    const char* scenario;
    if (argc != 3) {
        fprintf(stderr, "usage: %s SCENARIO MODEL_DIR\n", argv[0]);
        return 2;
    }
    scenario = argv[1];
    snprintf(g_dir, sizeof(g_dir), "%s", argv[2]);
    if (strcmp(scenario, "shared_internal") == 0) {
        shared_internal();
    } else if (strcmp(scenario, "multi_input") == 0) {
        multi_input();
    } else if (strcmp(scenario, "dynamic_cycle") == 0) {
        dynamic_cycle();
    } else if (strcmp(scenario, "async_pipeline") == 0) {
        async_pipeline();
    } else if (strcmp(scenario, "dup_threads") == 0) {
        dup_threads();
    } else if (strcmp(scenario, "lifecycle") == 0) {
        lifecycle();
    } else {
        fprintf(stderr, "unknown scenario '%s'\n", scenario);
        return 2;
    }
    if (g_failures != 0) {
        fprintf(stderr, "%s: %d check(s) failed\n", scenario, g_failures);
        return 1;
    }
    printf("%s: all checks passed\n", scenario);
    return 0;
}
