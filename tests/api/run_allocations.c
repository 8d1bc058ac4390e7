/* No heap allocation inside rknn_run: the memory plan, the weights and every
 * kernel's scratch are set up at rknn_init, as on the NPU.
 *
 * This program replaces malloc and its family (glibc lets an executable's
 * definitions win over libc's for the whole process, libstdc++'s operator new
 * included) with counting wrappers around glibc's own allocator, then, for
 * each model given: init, set zero inputs, one warm-up run, and RUNS counted
 * runs on 1 and on 2 threads (rknn_set_core_mask), also through zero-copy
 * I/O memories. Any allocation or free on any thread while a run is in flight
 * fails the check.
 *
 *   run_allocations MODEL.rknn...
 *
 * Not built with sanitizers: they own malloc themselves. */
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_check.h"
#include "rknn_api.h"

#define EXPECT(cond) CHECK(cond, "%s", #cond)

extern void* __libc_malloc(size_t size);
extern void* __libc_calloc(size_t count, size_t size);
extern void* __libc_realloc(void* p, size_t size);
extern void __libc_free(void* p);
extern void* __libc_memalign(size_t alignment, size_t size);

static atomic_int counting;
static atomic_long allocations;

static void Count(void) {
  if (atomic_load_explicit(&counting, memory_order_relaxed)) atomic_fetch_add(&allocations, 1);
}

void* malloc(size_t size) {
  Count();
  return __libc_malloc(size);
}
void* calloc(size_t count, size_t size) {
  Count();
  return __libc_calloc(count, size);
}
void* realloc(void* p, size_t size) {
  Count();
  return __libc_realloc(p, size);
}
void free(void* p) {
  if (p != NULL) Count();
  __libc_free(p);
}
void* memalign(size_t alignment, size_t size) {
  Count();
  return __libc_memalign(alignment, size);
}
void* aligned_alloc(size_t alignment, size_t size) {
  Count();
  return __libc_memalign(alignment, size);
}
int posix_memalign(void** out, size_t alignment, size_t size) {
  Count();
  void* p = __libc_memalign(alignment, size);
  if (p == NULL) return ENOMEM;
  *out = p;
  return 0;
}

enum { kRuns = 5 };

/* rknn_run kRuns times with the counters on; returns the allocations seen. */
static long CountedRuns(rknn_context ctx) {
  atomic_store(&allocations, 0);
  atomic_store(&counting, 1);
  int ret = 0;
  for (int i = 0; i < kRuns && ret == RKNN_SUCC; ++i) ret = rknn_run(ctx, NULL);
  atomic_store(&counting, 0);
  EXPECT(ret == RKNN_SUCC);
  return atomic_load(&allocations);
}

static void CheckModel(const char* path) {
  rknn_context ctx = 0;
  EXPECT(rknn_init(&ctx, (void*)path, 0, 0, NULL) == RKNN_SUCC);
  if (ctx == 0) return;
  rknn_input_output_num io;
  EXPECT(rknn_query(ctx, RKNN_QUERY_IN_OUT_NUM, &io, sizeof(io)) == RKNN_SUCC);
  /* General API: float zero inputs, converted by the runtime (normalization, quantization, layout). */
  rknn_input inputs[16];
  void* buffers[16] = {0};
  uint32_t n_in = io.n_input < 16 ? io.n_input : 16;
  memset(inputs, 0, sizeof(inputs));
  for (uint32_t i = 0; i < n_in; ++i) {
    rknn_tensor_attr attr;
    memset(&attr, 0, sizeof(attr));
    attr.index = i;
    EXPECT(rknn_query(ctx, RKNN_QUERY_INPUT_ATTR, &attr, sizeof(attr)) == RKNN_SUCC);
    buffers[i] = calloc(attr.n_elems, sizeof(float));
    inputs[i].index = i;
    inputs[i].buf = buffers[i];
    inputs[i].size = attr.n_elems * (uint32_t)sizeof(float);
    inputs[i].type = RKNN_TENSOR_FLOAT32;
    inputs[i].fmt = attr.fmt;
  }
  EXPECT(rknn_inputs_set(ctx, n_in, inputs) == RKNN_SUCC);
  EXPECT(rknn_run(ctx, NULL) == RKNN_SUCC); /* warm-up: first-run work is allowed */
  const rknn_core_mask masks[2] = {RKNN_NPU_CORE_0, RKNN_NPU_CORE_0_1};
  for (int m = 0; m < 2; ++m) {
    EXPECT(rknn_set_core_mask(ctx, masks[m]) == RKNN_SUCC);
    EXPECT(rknn_run(ctx, NULL) == RKNN_SUCC);
    const long seen = CountedRuns(ctx);
    printf("%s: %d runs on %d thread(s): %ld allocations\n", path, kRuns, m + 1, seen);
    EXPECT(seen == 0);
  }
  for (uint32_t i = 0; i < n_in; ++i) free(buffers[i]);
  EXPECT(rknn_destroy(ctx) == RKNN_SUCC);

  /* Zero-copy: the application's memories bound once, then runs alone. */
  ctx = 0;
  EXPECT(rknn_init(&ctx, (void*)path, 0, 0, NULL) == RKNN_SUCC);
  if (ctx == 0) return;
  rknn_tensor_mem* mems[32] = {0};
  uint32_t n_mem = 0;
  for (int is_output = 0; is_output < 2; ++is_output) {
    const uint32_t count = is_output ? io.n_output : io.n_input;
    for (uint32_t i = 0; i < count && n_mem < 32; ++i) {
      rknn_tensor_attr attr;
      memset(&attr, 0, sizeof(attr));
      attr.index = i;
      EXPECT(rknn_query(ctx, is_output ? RKNN_QUERY_OUTPUT_ATTR : RKNN_QUERY_NATIVE_INPUT_ATTR, &attr,
                       sizeof(attr)) == RKNN_SUCC);
      rknn_tensor_mem* mem = rknn_create_mem(ctx, attr.size_with_stride > attr.size ? attr.size_with_stride : attr.size);
      EXPECT(mem != NULL);
      if (mem == NULL) continue;
      memset(mem->virt_addr, 0, mem->size);
      EXPECT(rknn_set_io_mem(ctx, mem, &attr) == RKNN_SUCC);
      mems[n_mem++] = mem;
    }
  }
  EXPECT(rknn_run(ctx, NULL) == RKNN_SUCC);
  const long seen = CountedRuns(ctx);
  printf("%s: %d zero-copy runs: %ld allocations\n", path, kRuns, seen);
  EXPECT(seen == 0);
  for (uint32_t i = 0; i < n_mem; ++i) EXPECT(rknn_destroy_mem(ctx, mems[i]) == RKNN_SUCC);
  EXPECT(rknn_destroy(ctx) == RKNN_SUCC);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s MODEL.rknn...\n", argv[0]);
    return 2;
  }
  for (int i = 1; i < argc; ++i) CheckModel(argv[i]);
  if (g_failures == 0) printf("run_allocations: all checks passed\n");
  return g_failures == 0 ? 0 : 1;
}
