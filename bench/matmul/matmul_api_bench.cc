// The Matmul API's speed, side by side with oneDNN's own matmul on the same shapes in the same run:
// int8 x int8 -> int32 (npurt's igemm vs oneDNN s8s8s32) and float16 x float16 -> float32 (npurt vs
// oneDNN f32 on the same values widened). One thread each (the API's default core mask, AUTO, is one
// NPU core; oneDNN's OpenMP held at one thread). Median of the timed runs after a warm-up, which also
// takes npurt's one-time preparation of B. Prints a Markdown table.
//
//   build/bench/matmul/matmul_api_bench [runs]
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "rknn_matmul_api.h"

namespace {

double MedianMs(int runs, const std::function<void()>& f) {
  f();  // warm-up
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

double NpurtMs(rknn_matmul_type type, int M, int K, int N, int runs) {
  rknn_matmul_info info;
  std::memset(&info, 0, sizeof(info));
  info.M = M, info.K = K, info.N = N, info.type = type;
  rknn_matmul_io_attr io;
  rknn_matmul_ctx ctx = 0;
  if (rknn_matmul_create(&ctx, &info, &io) != RKNN_SUCC) return -1;
  rknn_tensor_mem* a = rknn_create_mem(ctx, io.A.size);
  rknn_tensor_mem* b = rknn_create_mem(ctx, io.B.size);
  rknn_tensor_mem* c = rknn_create_mem(ctx, io.C.size);
  std::mt19937 rng(1);
  for (rknn_tensor_mem* m : {a, b}) {
    uint8_t* p = static_cast<uint8_t*>(m->virt_addr);
    for (uint32_t i = 0; i < m->size; ++i) p[i] = static_cast<uint8_t>(type == RKNN_INT8_MM_INT8_TO_INT32 ? rng() : (i % 2 ? 0x3a : rng()));
  }
  rknn_matmul_set_io_mem(ctx, a, &io.A);
  rknn_matmul_set_io_mem(ctx, b, &io.B);
  rknn_matmul_set_io_mem(ctx, c, &io.C);
  const double ms = MedianMs(runs, [&] { rknn_matmul_run(ctx); });
  rknn_destroy_mem(ctx, a);
  rknn_destroy_mem(ctx, b);
  rknn_destroy_mem(ctx, c);
  rknn_matmul_destroy(ctx);
  return ms;
}

double OnednnMs(bool int8, int M, int K, int N, int runs) {
  using dt = dnnl::memory::data_type;
  using tag = dnnl::memory::format_tag;
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  const dt in = int8 ? dt::s8 : dt::f32, out = int8 ? dt::s32 : dt::f32;
  const dnnl::memory::desc a_md({M, K}, in, tag::ab), b_any({K, N}, in, tag::any), c_md({M, N}, out, tag::ab);
  const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a_md, b_any, c_md), engine);
  dnnl::memory a(a_md, engine), b(pd.weights_desc(), engine), c(c_md, engine);
  std::memset(a.get_data_handle(), 1, a_md.get_size());
  std::memset(b.get_data_handle(), 1, pd.weights_desc().get_size());
  dnnl::matmul mm(pd);
  return MedianMs(runs, [&] {
    mm.execute(stream, {{DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, c}});
    stream.wait();
  });
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
  omp_set_num_threads(1);
  struct Shape {
    int m, k, n;
  };
  const Shape shapes[] = {{1, 4096, 4096}, {16, 4096, 4096}, {64, 1024, 1024}, {256, 1024, 1024}};
  std::printf("| type | M x K x N | npurt ms | npurt GOPS | oneDNN ms | oneDNN GOPS | npurt / oneDNN |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (bool int8 : {true, false}) {
    for (const Shape& s : shapes) {
      const double ops = 2.0 * s.m * s.k * s.n;
      const double ours = NpurtMs(int8 ? RKNN_INT8_MM_INT8_TO_INT32 : RKNN_FLOAT16_MM_FLOAT16_TO_FLOAT32, s.m, s.k,
                                  s.n, runs);
      const double peer = OnednnMs(int8, s.m, s.k, s.n, runs);
      std::printf("| %s | %d x %d x %d | %.3f | %.1f | %.3f | %.1f | %.2f |\n",
                  int8 ? "int8 -> int32 (oneDNN s8s8s32)" : "fp16 -> fp32 (oneDNN f32)", s.m, s.k, s.n, ours,
                  ops / ours * 1e-6, peer, ops / peer * 1e-6, ours / peer);
    }
  }
  return 0;
}
