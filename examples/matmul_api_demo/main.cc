// C = A x B through the Matmul API, written the way rknpu2's rknn_matmul_api_demo is: create, query the
// attrs, rknn_create_mem, fill A and B in the chosen layouts, set_io_mem, run, read C back and compare
// it with a CPU loop. Only rknn_api.h and rknn_matmul_api.h; the same source builds for the board.
//
// usage: rknn_matmul_api_demo <matmul_type> <M,K,N> [B_layout] [AC_layout]
//   matmul_type 1 FLOAT16_MM_FLOAT16_TO_FLOAT32, 2 INT8_MM_INT8_TO_INT32, 4 FLOAT16_MM_FLOAT16_TO_FLOAT16,
//   7 FLOAT16_MM_INT4_TO_FLOAT32 (per-group B, groups of 32), 10 INT4_MM_INT4_TO_INT16,
//   11 INT8_MM_INT4_TO_INT32. Prints "result is correct" and returns 0 when C is right.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "rknn_api.h"
#include "rknn_matmul_api.h"

// IEEE half: the compiler's own type (the vendor's demo carries a Float16 class for it).
#if defined(__aarch64__) || defined(__arm__)
typedef __fp16 float16;
#else
typedef _Float16 float16;
#endif

static void set_mem_from_int8_to_int4(int8_t* dst, const int8_t* src, int size) {
  for (int idx = 0; idx < size; idx += 2) dst[idx / 2] = (src[idx] & 0xf) | ((src[idx + 1] << 4) & 0xf0);
}

// (M, K) -> (K / subK, M, subK), as the reference's norm_layout_to_perf_layout.
template <typename T>
static void norm_layout_to_perf_layout(const T* src, T* dst, int M, int K, int subK) {
  const int outer = (K + subK - 1) / subK;
  for (int i = 0; i < outer; i++)
    for (int m = 0; m < M; m++)
      for (int j = 0; j < subK; j++) {
        const int ki = i * subK + j;
        dst[i * M * subK + m * subK + j] = ki >= K ? T(0) : src[m * K + ki];
      }
}

template <typename T>
static void perf_layout_to_norm_layout(const T* src, T* dst, int M, int N, int subN) {
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++) dst[m * N + n] = src[(n / subN) * M * subN + m * subN + n % subN];
}

template <typename T>
static void transpose(const T* src, T* dst, int K, int N) {
  for (int k = 0; k < K; k++)
    for (int n = 0; n < N; n++) dst[n * K + k] = src[k * N + n];
}

static void dump_attr(const rknn_matmul_tensor_attr* attr) {
  printf("  name=%s, dims=(", attr->name);
  for (uint32_t i = 0; i < attr->n_dims; i++) printf(i ? ", %u" : "%u", attr->dims[i]);
  printf("), size=%u, type=%s\n", attr->size, get_type_string(attr->type));
}

int main(int argc, char* argv[]) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s <matmul_type> <M,K,N> [B_layout] [AC_layout]\n", argv[0]);
    return -1;
  }
  const rknn_matmul_type type = (rknn_matmul_type)atoi(argv[1]);
  int M = 0, K = 0, N = 0;
  if (sscanf(argv[2], "%d,%d,%d", &M, &K, &N) != 3) return -1;
  const int B_layout = argc > 3 ? atoi(argv[3]) : 0;
  const int AC_layout = argc > 4 ? atoi(argv[4]) : 0;
  const bool a_float = type == RKNN_FLOAT16_MM_FLOAT16_TO_FLOAT32 || type == RKNN_FLOAT16_MM_FLOAT16_TO_FLOAT16 ||
                       type == RKNN_FLOAT16_MM_INT4_TO_FLOAT32;
  const bool b_int4 = type == RKNN_FLOAT16_MM_INT4_TO_FLOAT32 || type == RKNN_INT4_MM_INT4_TO_INT16 ||
                      type == RKNN_INT8_MM_INT4_TO_INT32;
  const bool a_int4 = type == RKNN_INT4_MM_INT4_TO_INT16;
  const bool b_float = type == RKNN_FLOAT16_MM_FLOAT16_TO_FLOAT32 || type == RKNN_FLOAT16_MM_FLOAT16_TO_FLOAT16;
  printf("MatMul matmul_type = %s, M = %d, K = %d, N = %d, B_layout = %d, AC_layout = %d\n",
         get_matmul_type_string(type), M, K, N, B_layout, AC_layout);

  rknn_matmul_info info;
  memset(&info, 0, sizeof(info));
  info.M = M;
  info.K = K;
  info.N = N;
  info.type = type;
  info.B_layout = B_layout;
  info.AC_layout = AC_layout;
  if (type == RKNN_FLOAT16_MM_INT4_TO_FLOAT32) {
    info.B_quant_type = RKNN_QUANT_TYPE_PER_GROUP_SYM;
    info.group_size = 32;
  }
  rknn_matmul_io_attr io_attr;
  memset(&io_attr, 0, sizeof(io_attr));
  rknn_matmul_ctx ctx;
  int ret = rknn_matmul_create(&ctx, &info, &io_attr);
  if (ret < 0) {
    fprintf(stderr, "rknn_matmul_create fail! ret=%d\n", ret);
    return -1;
  }
  printf("input/output matmul tensor attribute:\n");
  dump_attr(&io_attr.A);
  dump_attr(&io_attr.B);
  dump_attr(&io_attr.C);

  // Inputs: A and B as small integers (int4 range where the type has int4), fp16 as their values.
  std::vector<int8_t> A_int(M * K), B_int(K * N);
  srand(7);
  for (auto& v : A_int) v = (int8_t)(a_int4 || a_float ? rand() % 16 - 8 : rand() % 256 - 128);
  for (auto& v : B_int) v = (int8_t)(b_int4 || b_float ? rand() % 16 - 8 : rand() % 256 - 128);
  std::vector<float> scales;
  if (type == RKNN_FLOAT16_MM_INT4_TO_FLOAT32) {
    scales.resize((K / 32) * N);
    for (size_t i = 0; i < scales.size(); i++) scales[i] = 0.1f + 0.01f * (float)(i % 7);
    rknn_quant_params params_b;
    memset(&params_b, 0, sizeof(params_b));
    memcpy(params_b.name, io_attr.B.name, RKNN_MAX_NAME_LEN);
    params_b.scale_len = (int32_t)scales.size();
    params_b.scale = scales.data();
    rknn_matmul_set_quant_params(ctx, &params_b);
  }

  rknn_tensor_mem* A = rknn_create_mem(ctx, io_attr.A.size);
  rknn_tensor_mem* B = rknn_create_mem(ctx, io_attr.B.size);
  rknn_tensor_mem* C = rknn_create_mem(ctx, io_attr.C.size);
  if (A == NULL || B == NULL || C == NULL) {
    fprintf(stderr, "rknn_create_mem fail!\n");
    return -1;
  }

  // A
  if (a_float) {
    std::vector<float16> a16(M * K);
    for (int i = 0; i < M * K; i++) a16[i] = (float16)(A_int[i] / 8.0f);
    if (AC_layout == 1)
      norm_layout_to_perf_layout(a16.data(), (float16*)A->virt_addr, M, K, io_attr.A.dims[2]);
    else
      memcpy(A->virt_addr, a16.data(), M * K * 2);
  } else {
    std::vector<int8_t> a(AC_layout == 1 ? io_attr.A.dims[0] * M * io_attr.A.dims[2] : M * K);
    if (AC_layout == 1)
      norm_layout_to_perf_layout(A_int.data(), a.data(), M, K, io_attr.A.dims[2]);
    else
      a = A_int;
    if (a_int4)
      set_mem_from_int8_to_int4((int8_t*)A->virt_addr, a.data(), (int)a.size());
    else
      memcpy(A->virt_addr, a.data(), a.size());
  }
  // B
  std::vector<int8_t> b_packed(K * N);
  std::vector<float16> b16(K * N);
  void* B_normal = B_int.data();
  if (b_float) {
    for (int i = 0; i < K * N; i++) b16[i] = (float16)(B_int[i] / 8.0f);
    B_normal = b16.data();
  } else if (b_int4) {
    set_mem_from_int8_to_int4(b_packed.data(), B_int.data(), K * N);
    B_normal = b_packed.data();
  }
  if (B_layout == 1) {
    rknn_B_normal_layout_to_native_layout(B_normal, B->virt_addr, K, N, &info);
  } else if (B_layout == 2) {
    if (b_float) {
      transpose(b16.data(), (float16*)B->virt_addr, K, N);
    } else {
      std::vector<int8_t> t(K * N);
      transpose(B_int.data(), t.data(), K, N);
      if (b_int4)
        set_mem_from_int8_to_int4((int8_t*)B->virt_addr, t.data(), K * N);
      else
        memcpy(B->virt_addr, t.data(), K * N);
    }
  } else {
    memcpy(B->virt_addr, B_normal, io_attr.B.size);
  }

  if ((ret = rknn_matmul_set_io_mem(ctx, A, &io_attr.A)) < 0 || (ret = rknn_matmul_set_io_mem(ctx, B, &io_attr.B)) < 0 ||
      (ret = rknn_matmul_set_io_mem(ctx, C, &io_attr.C)) < 0) {
    fprintf(stderr, "rknn_matmul_set_io_mem fail! ret=%d\n", ret);
    return -1;
  }
  if ((ret = rknn_matmul_run(ctx)) < 0) {
    fprintf(stderr, "rknn_matmul_run fail! ret=%d\n", ret);
    return -1;
  }

  // Compare with the CPU.
  int wrong = 0;
  std::vector<double> got(M * N);
  const int c_bytes = io_attr.C.type == RKNN_TENSOR_INT16 || io_attr.C.type == RKNN_TENSOR_FLOAT16 ? 2 : 4;
  std::vector<uint8_t> c_norm(M * N * c_bytes);
  if (AC_layout == 1) {
    if (c_bytes == 2)
      perf_layout_to_norm_layout((const int16_t*)C->virt_addr, (int16_t*)c_norm.data(), M, N, io_attr.C.dims[2]);
    else
      perf_layout_to_norm_layout((const int32_t*)C->virt_addr, (int32_t*)c_norm.data(), M, N, io_attr.C.dims[2]);
  } else {
    memcpy(c_norm.data(), C->virt_addr, c_norm.size());
  }
  for (int m = 0; m < M; m++) {
    for (int n = 0; n < N; n++) {
      double want = 0;
      for (int k = 0; k < K; k++) {
        const double a = a_float ? A_int[m * K + k] / 8.0 : A_int[m * K + k];
        const double b = b_float ? B_int[k * N + n] / 8.0 : B_int[k * N + n];
        want += a * b * (scales.empty() ? 1.0 : scales[(k / 32) * N + n]);
      }
      double c = 0;
      switch (io_attr.C.type) {
        case RKNN_TENSOR_INT32: c = ((int32_t*)c_norm.data())[m * N + n]; break;
        case RKNN_TENSOR_INT16: c = ((int16_t*)c_norm.data())[m * N + n]; break;
        case RKNN_TENSOR_FLOAT16: c = (double)((float16*)c_norm.data())[m * N + n]; break;
        default: c = ((float*)c_norm.data())[m * N + n]; break;
      }
      const double tolerance = io_attr.C.type == RKNN_TENSOR_FLOAT16 ? 1e-3 * (1 + fabs(want))
                               : io_attr.C.type == RKNN_TENSOR_FLOAT32 ? 1e-5 * (1 + fabs(want)) : 0;
      if (fabs(c - want) > tolerance) wrong++;
    }
  }
  printf("%s matmul result is %s M x K x N is %d %d %d AC_layout is %d B_layout is %d\n",
         get_matmul_type_string(type), wrong ? "wrong" : "correct", M, K, N, AC_layout, B_layout);

  rknn_destroy_mem(ctx, A);
  rknn_destroy_mem(ctx, B);
  rknn_destroy_mem(ctx, C);
  rknn_matmul_destroy(ctx);
  return wrong ? -1 : 0;
}
