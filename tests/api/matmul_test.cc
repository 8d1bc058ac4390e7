// The Matmul API (rknn_matmul_api.h) through librknnrt.so: every type against loops written here, the
// layouts against the reference manual's own conversion code (norm_layout_to_perf_layout /
// norm_layout_to_native_layout, rewritten below), the board's K / N rules and the misuse errors.
// Integer results must be equal; float ones within float32 summation error of a double sum.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "api_test_util.h"
#include "rknn_matmul_api.h"

namespace {

using half = _Float16;

struct Matmul {
  rknn_matmul_ctx ctx = 0;
  rknn_matmul_io_attr io{};
  rknn_tensor_mem* a = nullptr;
  rknn_tensor_mem* b = nullptr;
  rknn_tensor_mem* c = nullptr;
  ~Matmul() {
    if (ctx == 0) return;
    for (rknn_tensor_mem* m : {a, b, c}) {
      if (m != nullptr) rknn_destroy_mem(ctx, m);
    }
    rknn_matmul_destroy(ctx);
  }
};

rknn_matmul_info Info(rknn_matmul_type type, int M, int K, int N, int b_layout = 0, int ac_layout = 0) {
  rknn_matmul_info info;
  std::memset(&info, 0, sizeof(info));
  info.M = M, info.K = K, info.N = N;
  info.type = type;
  info.B_layout = static_cast<int16_t>(b_layout);
  info.AC_layout = static_cast<int16_t>(ac_layout);
  return info;
}

void Create(rknn_matmul_info info, Matmul* mm) {
  ASSERT_EQ(rknn_matmul_create(&mm->ctx, &info, &mm->io), RKNN_SUCC);
  mm->a = rknn_create_mem(mm->ctx, mm->io.A.size);
  mm->b = rknn_create_mem(mm->ctx, mm->io.B.size);
  mm->c = rknn_create_mem(mm->ctx, mm->io.C.size);
  ASSERT_TRUE(mm->a && mm->b && mm->c);
}

void Quant(rknn_matmul_ctx ctx, const char* name, std::vector<float> scale, std::vector<int32_t> zp = {}) {
  rknn_quant_params q;
  std::memset(&q, 0, sizeof(q));
  std::strncpy(q.name, name, sizeof(q.name) - 1);
  q.scale = scale.data();
  q.scale_len = static_cast<int32_t>(scale.size());
  q.zp = zp.empty() ? nullptr : zp.data();
  q.zp_len = static_cast<int32_t>(zp.size());
  ASSERT_EQ(rknn_matmul_set_quant_params(ctx, &q), RKNN_SUCC) << name;
}

// The manual's layout code (C API reference 3.5.4), rewritten: (M, K) -> (K / subK, M, subK) and
// (K, N) -> (N / subN, K / subK, subN, subK), zero padded.
template <typename T>
std::vector<T> NormToPerf(const std::vector<T>& src, int M, int K, int subK) {
  const int outer = (K + subK - 1) / subK;
  std::vector<T> dst(static_cast<size_t>(outer * M * subK));
  for (int i = 0; i < outer; ++i)
    for (int m = 0; m < M; ++m)
      for (int j = 0; j < subK; ++j) {
        const int ki = i * subK + j;
        dst[static_cast<size_t>(i * M * subK + m * subK + j)] = ki >= K ? T(0) : src[static_cast<size_t>(m * K + ki)];
      }
  return dst;
}

template <typename T>
std::vector<T> PerfToNorm(const T* src, int M, int N, int subN) {
  std::vector<T> dst(static_cast<size_t>(M * N));
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) dst[static_cast<size_t>(m * N + n)] = src[(n / subN) * M * subN + m * subN + n % subN];
  return dst;
}

template <typename T>
std::vector<T> NormToNative(const std::vector<T>& src, int K, int N, int subN, int subK) {
  const int n_remain = (N + subN - 1) / subN, k_remain = (K + subK - 1) / subK;
  std::vector<T> dst(static_cast<size_t>(n_remain * k_remain * subN * subK));
  for (int i = 0; i < n_remain; ++i)
    for (int j = 0; j < k_remain; ++j)
      for (int n = 0; n < subN; ++n)
        for (int k = 0; k < subK; ++k) {
          const int ni = i * subN + n, ki = j * subK + k;
          dst[static_cast<size_t>(((i * k_remain + j) * subN + n) * subK + k)] =
              (ki < K && ni < N) ? src[static_cast<size_t>(ki * N + ni)] : T(0);
        }
  return dst;
}

template <typename T>
std::vector<T> Transpose(const std::vector<T>& src, int rows, int cols) {
  std::vector<T> dst(src.size());
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) dst[static_cast<size_t>(c * rows + r)] = src[static_cast<size_t>(r * cols + c)];
  return dst;
}

// int4 packing of the vendor's demo (set_mem_from_int8_to_int4): element 2i in the low nibble.
std::vector<uint8_t> PackInt4(const std::vector<int8_t>& v) {
  std::vector<uint8_t> out((v.size() + 1) / 2, 0);
  for (size_t i = 0; i < v.size(); ++i) out[i / 2] |= static_cast<uint8_t>((v[i] & 0xf) << (i % 2 ? 4 : 0));
  return out;
}

std::vector<int8_t> RandomInt(size_t n, int lo, int hi, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int8_t> v(n);
  for (auto& x : v) x = static_cast<int8_t>(d(rng));
  return v;
}

std::vector<half> RandomHalf(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<half> v(n);
  for (auto& x : v) x = static_cast<half>(d(rng));
  return v;
}

std::vector<int32_t> IntProduct(const std::vector<int8_t>& a, const std::vector<int8_t>& b, int M, int K, int N) {
  std::vector<int32_t> c(static_cast<size_t>(M * N), 0);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      int32_t acc = 0;
      for (int k = 0; k < K; ++k) acc += a[static_cast<size_t>(m * K + k)] * b[static_cast<size_t>(k * N + n)];
      c[static_cast<size_t>(m * N + n)] = acc;
    }
  return c;
}

// Writes B (K, N) row-major values in the layout io.B asks for.
template <typename T>
void WriteB(const Matmul& mm, const rknn_matmul_info& info, const std::vector<T>& b, int K, int N) {
  if (info.B_layout == RKNN_MM_LAYOUT_NATIVE) {
    // The runtime's conversion, checked against the manual's.
    std::vector<T> src = b;
    ASSERT_EQ(rknn_B_normal_layout_to_native_layout(src.data(), mm.b->virt_addr, K, N,
                                                    const_cast<rknn_matmul_info*>(&info)),
              RKNN_SUCC);
    const std::vector<T> want = NormToNative(b, K, N, static_cast<int>(mm.io.B.dims[2]), static_cast<int>(mm.io.B.dims[3]));
    ASSERT_EQ(want.size() * sizeof(T), mm.io.B.size);
    ASSERT_EQ(std::memcmp(mm.b->virt_addr, want.data(), mm.io.B.size), 0) << "native B differs from the manual's";
  } else {
    const std::vector<T> src = info.B_layout == RKNN_MM_LAYOUT_TP_NORM ? Transpose(b, K, N) : b;
    std::memcpy(mm.b->virt_addr, src.data(), src.size() * sizeof(T));
  }
}

template <typename T>
void WriteA(const Matmul& mm, const rknn_matmul_info& info, const std::vector<T>& a, int M, int K) {
  const std::vector<T> src = info.AC_layout == 1 ? NormToPerf(a, M, K, static_cast<int>(mm.io.A.dims[2])) : a;
  ASSERT_EQ(src.size() * sizeof(T), mm.io.A.size);
  std::memcpy(mm.a->virt_addr, src.data(), mm.io.A.size);
}

template <typename T>
std::vector<T> ReadC(const Matmul& mm, const rknn_matmul_info& info, int M, int N) {
  const T* c = static_cast<const T*>(mm.c->virt_addr);
  if (info.AC_layout == 1) return PerfToNorm(c, M, N, static_cast<int>(mm.io.C.dims[2]));
  return std::vector<T>(c, c + M * N);
}

void BindRun(const Matmul& mm) {
  ASSERT_EQ(rknn_matmul_set_io_mem(mm.ctx, mm.a, const_cast<rknn_matmul_tensor_attr*>(&mm.io.A)), RKNN_SUCC);
  ASSERT_EQ(rknn_matmul_set_io_mem(mm.ctx, mm.b, const_cast<rknn_matmul_tensor_attr*>(&mm.io.B)), RKNN_SUCC);
  ASSERT_EQ(rknn_matmul_set_io_mem(mm.ctx, mm.c, const_cast<rknn_matmul_tensor_attr*>(&mm.io.C)), RKNN_SUCC);
  ASSERT_EQ(rknn_matmul_run(mm.ctx), RKNN_SUCC);
}

std::vector<uint32_t> Dims(const rknn_matmul_tensor_attr& a) { return {a.dims, a.dims + a.n_dims}; }

TEST(Matmul, Int8ToInt32EveryLayoutIsExact) {
  uint32_t seed = 1;
  for (int M : {1, 3, 17, 64}) {
    for (int K : {32, 96}) {
      for (int N : {32, 96}) {
        for (int ac : {0, 1}) {
          for (int bl : {0, 1, 2}) {
            SCOPED_TRACE(testing::Message() << "M " << M << " K " << K << " N " << N << " AC " << ac << " B " << bl);
            const rknn_matmul_info info = Info(RKNN_INT8_MM_INT8_TO_INT32, M, K, N, bl, ac);
            Matmul mm;
            Create(info, &mm);
            // The shapes of the reference's table 3-12 (RK3588, int8).
            if (ac == 1) {
              EXPECT_EQ(Dims(mm.io.A), (std::vector<uint32_t>{uint32_t(K / 16), uint32_t(M), 16}));
              EXPECT_EQ(Dims(mm.io.C), (std::vector<uint32_t>{uint32_t(N / 4), uint32_t(M), 4}));
            } else {
              EXPECT_EQ(Dims(mm.io.A), (std::vector<uint32_t>{uint32_t(M), uint32_t(K)}));
            }
            if (bl == 1) {
              EXPECT_EQ(Dims(mm.io.B), (std::vector<uint32_t>{uint32_t(N / 32), uint32_t(K / 32), 32, 32}));
            }
            if (bl == 2) {
              EXPECT_EQ(Dims(mm.io.B), (std::vector<uint32_t>{uint32_t(N), uint32_t(K)}));
            }
            EXPECT_EQ(mm.io.C.type, RKNN_TENSOR_INT32);
            EXPECT_STREQ(mm.io.B.name, "B");
            const auto a = RandomInt(static_cast<size_t>(M * K), -128, 127, seed++);
            const auto b = RandomInt(static_cast<size_t>(K * N), -128, 127, seed++);
            WriteA(mm, info, a, M, K);
            WriteB(mm, info, b, K, N);
            BindRun(mm);
            EXPECT_EQ(ReadC<int32_t>(mm, info, M, N), IntProduct(a, b, M, K, N));
          }
        }
      }
    }
  }
}

TEST(Matmul, Int8ToInt8RequantizesPerLayerAndPerChannel) {
  const int M = 5, K = 64, N = 32;
  for (bool per_channel : {false, true}) {
    rknn_matmul_info info = Info(RKNN_INT8_MM_INT8_TO_INT8, M, K, N);
    info.B_quant_type = per_channel ? RKNN_QUANT_TYPE_PER_CHANNEL_SYM : RKNN_QUANT_TYPE_PER_LAYER_SYM;
    Matmul mm;
    Create(info, &mm);
    std::vector<float> sb(per_channel ? N : 1);
    for (size_t i = 0; i < sb.size(); ++i) sb[i] = 0.01f + 0.002f * static_cast<float>(i);
    Quant(mm.ctx, "A", {0.2f}, {3});
    Quant(mm.ctx, "B", sb);
    Quant(mm.ctx, "C", {0.8f}, {-5});
    const auto a = RandomInt(M * K, -128, 127, 7), b = RandomInt(K * N, -128, 127, 8);
    WriteA(mm, info, a, M, K);
    WriteB(mm, info, b, K, N);
    BindRun(mm);
    const auto c = ReadC<int8_t>(mm, info, M, N);
    for (int m = 0; m < M; ++m) {
      for (int n = 0; n < N; ++n) {
        int32_t acc = 0;
        for (int k = 0; k < K; ++k) acc += (a[m * K + k] - 3) * b[k * N + n];
        const float real = static_cast<float>(acc) * (0.2f * sb[per_channel ? n : 0]);
        const float q = std::nearbyint(real / 0.8f);
        const int32_t want = static_cast<int32_t>(std::clamp(q, -128.0f - (-5), 127.0f - (-5))) - 5;
        ASSERT_EQ(c[m * N + n], want) << "m " << m << " n " << n;
      }
    }
  }
}

TEST(Matmul, Int4MatricesAreExactAndSaturateToInt16) {
  // INT4 x INT4 -> INT16: A and B packed, B in every layout; and a K that saturates int16.
  for (int bl : {0, 1, 2}) {
    for (int ac : {0, 1}) {
      const int M = 6, K = 96, N = 64;
      const rknn_matmul_info info = Info(RKNN_INT4_MM_INT4_TO_INT16, M, K, N, bl, ac);
      Matmul mm;
      Create(info, &mm);
      EXPECT_EQ(mm.io.A.type, RKNN_TENSOR_INT4);
      EXPECT_EQ(mm.io.B.size, static_cast<uint32_t>(K * N / 2));
      if (bl == 1) {
        EXPECT_EQ(Dims(mm.io.B), (std::vector<uint32_t>{uint32_t(N / 64), uint32_t(K / 32), 64, 32}));
      }
      if (ac == 1) {
        EXPECT_EQ(Dims(mm.io.A), (std::vector<uint32_t>{uint32_t(K / 32), uint32_t(M), 32}));
      }
      if (ac == 1) {
        EXPECT_EQ(Dims(mm.io.C), (std::vector<uint32_t>{uint32_t(N / 8), uint32_t(M), 8}));
      }
      const auto a = RandomInt(M * K, -8, 7, 11 + bl), b = RandomInt(K * N, -8, 7, 21 + ac);
      const auto a_layout = ac == 1 ? NormToPerf(a, M, K, 32) : a;
      const auto a_packed = PackInt4(a_layout);
      std::memcpy(mm.a->virt_addr, a_packed.data(), a_packed.size());
      if (bl == 1) {
        const auto packed = PackInt4(b);
        ASSERT_EQ(rknn_B_normal_layout_to_native_layout(const_cast<uint8_t*>(packed.data()), mm.b->virt_addr, K, N,
                                                        const_cast<rknn_matmul_info*>(&info)),
                  RKNN_SUCC);
        const auto want = PackInt4(NormToNative(b, K, N, 64, 32));
        ASSERT_EQ(std::memcmp(mm.b->virt_addr, want.data(), want.size()), 0);
      } else {
        const auto packed = PackInt4(bl == 2 ? Transpose(b, K, N) : b);
        std::memcpy(mm.b->virt_addr, packed.data(), packed.size());
      }
      BindRun(mm);
      const auto c = ReadC<int16_t>(mm, info, M, N);
      const auto want = IntProduct(a, b, M, K, N);
      for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(c[i], want[i]) << i;
    }
  }
  const int M = 1, K = 1024, N = 64;
  const rknn_matmul_info info = Info(RKNN_INT4_MM_INT4_TO_INT16, M, K, N);
  Matmul mm;
  Create(info, &mm);
  std::memset(mm.a->virt_addr, 0x88, mm.io.A.size);  // every element -8
  std::memset(mm.b->virt_addr, 0x88, mm.io.B.size);
  BindRun(mm);
  EXPECT_EQ(static_cast<int16_t*>(mm.c->virt_addr)[0], 32767);  // 64 * 1024 saturates
}

TEST(Matmul, Int8ByInt4ToInt32IsExact) {
  const int M = 9, K = 64, N = 64;
  for (int bl : {0, 1}) {
    const rknn_matmul_info info = Info(RKNN_INT8_MM_INT4_TO_INT32, M, K, N, bl, 1);
    Matmul mm;
    Create(info, &mm);
    // B's native block follows C's type family (int32: the int8 block).
    if (bl == 1) {
      EXPECT_EQ(Dims(mm.io.B), (std::vector<uint32_t>{uint32_t(N / 32), uint32_t(K / 32), 32, 32}));
    }
    const auto a = RandomInt(M * K, -128, 127, 31), b = RandomInt(K * N, -8, 7, 32);
    WriteA(mm, info, a, M, K);
    const auto packed = PackInt4(b);
    if (bl == 1) {
      ASSERT_EQ(rknn_B_normal_layout_to_native_layout(const_cast<uint8_t*>(packed.data()), mm.b->virt_addr, K, N,
                                                      const_cast<rknn_matmul_info*>(&info)),
                RKNN_SUCC);
    } else {
      std::memcpy(mm.b->virt_addr, packed.data(), packed.size());
    }
    BindRun(mm);
    EXPECT_EQ(ReadC<int32_t>(mm, info, M, N), IntProduct(a, b, M, K, N));
  }
}

TEST(Matmul, PerChannelInt32SumsUseOneNormalizedScale) {
  const int M = 4, K = 64, N = 32;
  rknn_matmul_info info = Info(RKNN_INT8_MM_INT8_TO_INT32, M, K, N);
  info.B_quant_type = RKNN_QUANT_TYPE_PER_CHANNEL_SYM;
  Matmul mm;
  Create(info, &mm);
  std::vector<float> sb(N);
  for (int n = 0; n < N; ++n) sb[n] = 0.05f - 0.001f * static_cast<float>(n);
  Quant(mm.ctx, "B", sb);
  const auto a = RandomInt(M * K, -128, 127, 41), b = RandomInt(K * N, -128, 127, 42);
  WriteA(mm, info, a, M, K);
  WriteB(mm, info, b, K, N);
  BindRun(mm);
  rknn_quant_params params;
  std::memset(&params, 0, sizeof(params));
  float scale = 0.0f;
  ASSERT_EQ(rknn_matmul_get_quant_params(mm.ctx, &params, &scale), RKNN_SUCC);
  EXPECT_EQ(scale, 0.05f);
  EXPECT_STREQ(params.name, "B");
  std::vector<int8_t> b_norm(b.size());
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < N; ++n) {
      b_norm[k * N + n] = static_cast<int8_t>(std::nearbyint(static_cast<float>(b[k * N + n]) * (sb[n] / 0.05f)));
    }
  EXPECT_EQ(ReadC<int32_t>(mm, info, M, N), IntProduct(a, b_norm, M, K, N));
}

// |got - double reference| within float32 summation error (plus C's own rounding to fp16).
void ExpectClose(const std::vector<float>& got, const std::vector<double>& want, double tolerance) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], tolerance * (1.0 + std::fabs(want[i]))) << i;
  }
}

TEST(Matmul, Float16ToFloat32AndFloat16) {
  for (rknn_matmul_type type : {RKNN_FLOAT16_MM_FLOAT16_TO_FLOAT32, RKNN_FLOAT16_MM_FLOAT16_TO_FLOAT16}) {
    for (int ac : {0, 1}) {
      for (int bl : {0, 1, 2}) {
        const int M = 7, K = 256, N = 64;
        const rknn_matmul_info info = Info(type, M, K, N, bl, ac);
        Matmul mm;
        Create(info, &mm);
        if (ac == 1) {
          EXPECT_EQ(Dims(mm.io.A), (std::vector<uint32_t>{uint32_t(K / 8), uint32_t(M), 8}));
        }
        if (bl == 1) {
          EXPECT_EQ(Dims(mm.io.B), (std::vector<uint32_t>{uint32_t(N / 16), uint32_t(K / 32), 16, 32}));
        }
        const auto a = RandomHalf(M * K, 51), b = RandomHalf(K * N, 52);
        WriteA(mm, info, a, M, K);
        WriteB(mm, info, b, K, N);
        BindRun(mm);
        std::vector<double> want(M * N, 0.0);
        for (int m = 0; m < M; ++m)
          for (int n = 0; n < N; ++n)
            for (int k = 0; k < K; ++k) want[m * N + n] += double(float(a[m * K + k])) * double(float(b[k * N + n]));
        std::vector<float> got;
        if (type == RKNN_FLOAT16_MM_FLOAT16_TO_FLOAT32) {
          got = ReadC<float>(mm, info, M, N);
          ExpectClose(got, want, 1e-5);
        } else {
          for (half h : ReadC<half>(mm, info, M, N)) got.push_back(float(h));
          ExpectClose(got, want, 1e-3);  // half of fp16's ulp
        }
      }
    }
  }
}

TEST(Matmul, Float16ByQuantizedBPerChannelAndPerGroup) {
  const int M = 3, K = 128, N = 64, G = 32;
  struct Case {
    rknn_matmul_type type;
    int quant;
  };
  for (Case cs : {Case{RKNN_FLOAT16_MM_INT8_TO_FLOAT32, RKNN_QUANT_TYPE_PER_CHANNEL_SYM},
                  Case{RKNN_FLOAT16_MM_INT4_TO_FLOAT32, RKNN_QUANT_TYPE_PER_GROUP_SYM},
                  Case{RKNN_FLOAT16_MM_INT4_TO_FLOAT16, RKNN_QUANT_TYPE_PER_GROUP_SYM},
                  Case{RKNN_FLOAT16_MM_INT8_TO_FLOAT16, RKNN_QUANT_TYPE_PER_LAYER_SYM}}) {
    SCOPED_TRACE(get_matmul_type_string(cs.type));
    rknn_matmul_info info = Info(cs.type, M, K, N);
    info.B_quant_type = static_cast<int16_t>(cs.quant);
    info.group_size = G;
    Matmul mm;
    Create(info, &mm);
    const bool int4 = cs.type == RKNN_FLOAT16_MM_INT4_TO_FLOAT32 || cs.type == RKNN_FLOAT16_MM_INT4_TO_FLOAT16;
    const int groups = K / G;
    std::vector<float> scale(cs.quant == RKNN_QUANT_TYPE_PER_GROUP_SYM ? groups * N
                             : cs.quant == RKNN_QUANT_TYPE_PER_CHANNEL_SYM ? N : 1);
    for (size_t i = 0; i < scale.size(); ++i) scale[i] = 0.02f + 0.0005f * static_cast<float>(i % 97);
    Quant(mm.ctx, "B", scale);
    const auto a = RandomHalf(M * K, 61);
    const auto b = int4 ? RandomInt(K * N, -8, 7, 62) : RandomInt(K * N, -128, 127, 62);
    WriteA(mm, info, a, M, K);
    if (int4) {
      const auto packed = PackInt4(b);
      std::memcpy(mm.b->virt_addr, packed.data(), packed.size());
    } else {
      std::memcpy(mm.b->virt_addr, b.data(), b.size());
    }
    BindRun(mm);
    std::vector<double> want(M * N, 0.0);
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n)
        for (int k = 0; k < K; ++k) {
          const float s = scale.size() == 1 ? scale[0] : scale.size() == size_t(N) ? scale[n] : scale[(k / G) * N + n];
          want[m * N + n] += double(float(a[m * K + k])) * double(b[k * N + n]) * double(s);
        }
    std::vector<float> got;
    if (cs.type == RKNN_FLOAT16_MM_INT8_TO_FLOAT32 || cs.type == RKNN_FLOAT16_MM_INT4_TO_FLOAT32) {
      got = ReadC<float>(mm, info, M, N);
      ExpectClose(got, want, 1e-5);
    } else {
      for (half h : ReadC<half>(mm, info, M, N)) got.push_back(float(h));
      ExpectClose(got, want, 1e-3);
    }
  }
}

TEST(Matmul, Int8ToFloat32DequantizesBothSides) {
  const int M = 4, K = 64, N = 32;
  rknn_matmul_info info = Info(RKNN_INT8_MM_INT8_TO_FLOAT32, M, K, N);
  Matmul mm;
  Create(info, &mm);
  Quant(mm.ctx, "A", {0.25f}, {2});
  Quant(mm.ctx, "B", {0.125f});
  const auto a = RandomInt(M * K, -128, 127, 71), b = RandomInt(K * N, -128, 127, 72);
  WriteA(mm, info, a, M, K);
  WriteB(mm, info, b, K, N);
  BindRun(mm);
  std::vector<double> want(M * N, 0.0);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < K; ++k) want[m * N + n] += (a[m * K + k] - 2) * 0.25 * b[k * N + n] * 0.125;
  ExpectClose(ReadC<float>(mm, info, M, N), want, 1e-6);  // exact products of powers of two
}

TEST(Matmul, DynamicShapesRunEachShapeWithOneB) {
  const int K = 64, N = 32;
  std::vector<rknn_matmul_shape> shapes = {{1, K, N}, {4, K, N}, {8, K, N}};
  rknn_matmul_info info = Info(RKNN_INT8_MM_INT8_TO_INT32, 0, 0, 0, 1, 1);
  std::vector<rknn_matmul_io_attr> io(shapes.size());
  rknn_matmul_ctx ctx = 0;
  ASSERT_EQ(rknn_matmul_create_dynamic_shape(&ctx, &info, 3, shapes.data(), io.data()), RKNN_SUCC);
  uint32_t max_a = 0, max_c = 0;
  for (const auto& x : io) max_a = std::max(max_a, x.A.size), max_c = std::max(max_c, x.C.size);
  EXPECT_EQ(io[2].A.dims[1], 8u);
  Matmul mm;
  mm.ctx = ctx;
  mm.io = io[0];
  mm.a = rknn_create_mem(ctx, max_a);
  mm.b = rknn_create_mem(ctx, io[0].B.size);
  mm.c = rknn_create_mem(ctx, max_c);
  // Memory is bound after a shape is selected, as the reference's flow says.
  EXPECT_EQ(rknn_matmul_set_io_mem(ctx, mm.b, &io[0].B), RKNN_ERR_PARAM_INVALID);
  const auto b = RandomInt(K * N, -128, 127, 81);
  WriteB(mm, info, b, K, N);
  ASSERT_EQ(rknn_matmul_set_dynamic_shape(ctx, &shapes[0]), RKNN_SUCC);
  ASSERT_EQ(rknn_matmul_set_io_mem(ctx, mm.b, &io[0].B), RKNN_SUCC);
  for (size_t s = 0; s < shapes.size(); ++s) {
    const int M = shapes[s].M;
    ASSERT_EQ(rknn_matmul_set_dynamic_shape(ctx, &shapes[s]), RKNN_SUCC);
    if (s > 0) {
      EXPECT_EQ(rknn_matmul_set_io_mem(ctx, mm.a, &io[0].A), RKNN_ERR_PARAM_INVALID);  // another shape's
    }
    mm.io = io[s];
    const auto a = RandomInt(static_cast<size_t>(M * K), -128, 127, 90 + static_cast<uint32_t>(s));
    WriteA(mm, info, a, M, K);
    ASSERT_EQ(rknn_matmul_set_io_mem(ctx, mm.a, &io[s].A), RKNN_SUCC);
    ASSERT_EQ(rknn_matmul_set_io_mem(ctx, mm.c, &io[s].C), RKNN_SUCC);
    ASSERT_EQ(rknn_matmul_run(ctx), RKNN_SUCC);
    EXPECT_EQ(ReadC<int32_t>(mm, info, M, N), IntProduct(a, b, M, K, N)) << "M " << M;
  }
  rknn_matmul_shape other = {2, K, N};
  EXPECT_EQ(rknn_matmul_set_dynamic_shape(ctx, &other), RKNN_ERR_PARAM_INVALID);
}

TEST(Matmul, BIsReadWhenBoundAndLongKIsSegmented) {
  // K > 8192 on RK3588: the native B is two segments, each in the manual's layout.
  const int M = 2, K = 8192 + 64, N = 32;
  const rknn_matmul_info info = Info(RKNN_INT8_MM_INT8_TO_INT32, M, K, N, 1);
  Matmul mm;
  Create(info, &mm);
  const auto a = RandomInt(M * K, -128, 127, 101), b = RandomInt(static_cast<size_t>(K) * N, -128, 127, 102);
  std::vector<int8_t> src = b;
  ASSERT_EQ(rknn_B_normal_layout_to_native_layout(src.data(), mm.b->virt_addr, K, N,
                                                  const_cast<rknn_matmul_info*>(&info)),
            RKNN_SUCC);
  std::vector<int8_t> first(b.begin(), b.begin() + 8192 * N), second(b.begin() + 8192 * N, b.end());
  std::vector<int8_t> want = NormToNative(first, 8192, N, 32, 32);
  const auto tail = NormToNative(second, 64, N, 32, 32);
  want.insert(want.end(), tail.begin(), tail.end());
  ASSERT_EQ(want.size(), mm.io.B.size);
  ASSERT_EQ(std::memcmp(mm.b->virt_addr, want.data(), want.size()), 0);
  WriteA(mm, info, a, M, K);
  BindRun(mm);
  EXPECT_EQ(ReadC<int32_t>(mm, info, M, N), IntProduct(a, b, M, K, N));
  // B changed after binding: not seen until it is bound again (the board reads it at set_io_mem).
  const std::vector<int32_t> before = ReadC<int32_t>(mm, info, M, N);
  std::memset(mm.b->virt_addr, 0, mm.io.B.size);
  ASSERT_EQ(rknn_matmul_run(mm.ctx), RKNN_SUCC);
  EXPECT_EQ(ReadC<int32_t>(mm, info, M, N), before);
  ASSERT_EQ(rknn_matmul_set_io_mem(mm.ctx, mm.b, &mm.io.B), RKNN_SUCC);
  ASSERT_EQ(rknn_matmul_run(mm.ctx), RKNN_SUCC);
  EXPECT_EQ(ReadC<int32_t>(mm, info, M, N), std::vector<int32_t>(M * N, 0));
}

TEST(Matmul, OtherPlatformsFollowTheirTables) {
  setenv("NPURT_PLATFORM", "rk3566", 1);
  {
    const int M = 3, K = 64, N = 48;
    const rknn_matmul_info info = Info(RKNN_INT8_MM_INT8_TO_INT32, M, K, N, 1, 1);
    Matmul mm;
    Create(info, &mm);
    EXPECT_EQ(Dims(mm.io.A), (std::vector<uint32_t>{uint32_t(K / 8), uint32_t(M), 8}));
    EXPECT_EQ(Dims(mm.io.B), (std::vector<uint32_t>{uint32_t(N / 16), uint32_t(K / 32), 16, 32}));
    const auto a = RandomInt(M * K, -128, 127, 111), b = RandomInt(K * N, -128, 127, 112);
    WriteA(mm, info, a, M, K);
    WriteB(mm, info, b, K, N);
    BindRun(mm);
    EXPECT_EQ(ReadC<int32_t>(mm, info, M, N), IntProduct(a, b, M, K, N));
    rknn_matmul_info fp16 = Info(RKNN_FLOAT16_MM_FLOAT16_TO_FLOAT32, M, K, N, 1, 1);
    Matmul mf;
    Create(fp16, &mf);
    EXPECT_EQ(Dims(mf.io.A), (std::vector<uint32_t>{uint32_t(K / 4), uint32_t(M), 4}));
    EXPECT_EQ(Dims(mf.io.B), (std::vector<uint32_t>{uint32_t(N / 8), uint32_t(K / 16), 8, 16}));
    rknn_matmul_ctx ctx = 0;
    rknn_matmul_io_attr io;
    rknn_matmul_info int4 = Info(RKNN_INT4_MM_INT4_TO_INT16, M, K, 64);
    EXPECT_EQ(rknn_matmul_create(&ctx, &int4, &io), RKNN_ERR_PARAM_INVALID);  // no int4 on RK356x
    rknn_matmul_info tp = Info(RKNN_INT8_MM_INT8_TO_INT32, M, K, N, 2);
    EXPECT_EQ(rknn_matmul_create(&ctx, &tp, &io), RKNN_ERR_PARAM_INVALID);  // no TP_NORM either
    rknn_matmul_info big_k = Info(RKNN_INT8_MM_INT8_TO_INT32, M, 10272, N);
    EXPECT_EQ(rknn_matmul_create(&ctx, &big_k, &io), RKNN_ERR_PARAM_INVALID);  // K <= 10240
    EXPECT_EQ(rknn_matmul_set_core_mask(mm.ctx, RKNN_NPU_CORE_0), RKNN_ERR_FAIL);  // one NPU core
  }
  setenv("NPURT_PLATFORM", "rv1106", 1);
  rknn_matmul_ctx ctx = 0;
  rknn_matmul_io_attr io;
  rknn_matmul_info info = Info(RKNN_INT8_MM_INT8_TO_INT32, 1, 32, 32);
  EXPECT_EQ(rknn_matmul_create(&ctx, &info, &io), RKNN_ERR_FAIL);  // no Matmul API there
  unsetenv("NPURT_PLATFORM");
}

TEST(Matmul, MisuseGetsErrorCodes) {
  rknn_matmul_ctx ctx = 0;
  rknn_matmul_io_attr io;
  rknn_matmul_info info = Info(RKNN_INT8_MM_INT8_TO_INT32, 4, 64, 32);
  EXPECT_EQ(rknn_matmul_create(nullptr, &info, &io), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_matmul_create(&ctx, nullptr, &io), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_matmul_create(&ctx, &info, nullptr), RKNN_ERR_PARAM_INVALID);
  for (auto bad : {Info(static_cast<rknn_matmul_type>(13), 4, 64, 32), Info(RKNN_INT8_MM_INT8_TO_INT32, 4, 40, 32),
                   Info(RKNN_INT8_MM_INT8_TO_INT32, 4, 64, 48), Info(RKNN_INT8_MM_INT8_TO_INT32, 0, 64, 32),
                   Info(RKNN_INT8_MM_INT8_TO_INT32, 4, 64, 4128), Info(RKNN_INT8_MM_INT8_TO_INT32, 4, 64, 32, 3),
                   Info(RKNN_INT8_MM_INT8_TO_INT32, 4, 64, 32, 0, 2)}) {
    EXPECT_EQ(rknn_matmul_create(&ctx, &bad, &io), RKNN_ERR_PARAM_INVALID);
  }
  rknn_matmul_info group = Info(RKNN_FLOAT16_MM_INT4_TO_FLOAT32, 4, 64, 64);
  group.B_quant_type = RKNN_QUANT_TYPE_PER_GROUP_SYM;  // group_size 0
  EXPECT_EQ(rknn_matmul_create(&ctx, &group, &io), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_matmul_create_dynamic_shape(&ctx, &info, 0, nullptr, &io), RKNN_ERR_PARAM_INVALID);

  Matmul mm;
  Create(info, &mm);
  EXPECT_EQ(rknn_matmul_run(mm.ctx), RKNN_ERR_PARAM_INVALID);  // nothing bound
  EXPECT_EQ(rknn_matmul_set_io_mem(mm.ctx, nullptr, &mm.io.A), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_matmul_set_io_mem(mm.ctx, mm.a, nullptr), RKNN_ERR_PARAM_INVALID);
  rknn_tensor_mem fake = *mm.a;  // not made by the runtime
  EXPECT_EQ(rknn_matmul_set_io_mem(mm.ctx, &fake, &mm.io.A), RKNN_ERR_PARAM_INVALID);
  rknn_matmul_tensor_attr renamed = mm.io.A;
  std::strcpy(renamed.name, "X");
  EXPECT_EQ(rknn_matmul_set_io_mem(mm.ctx, mm.a, &renamed), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_matmul_set_io_mem(mm.ctx, mm.a, &mm.io.C), RKNN_ERR_PARAM_INVALID);  // C's attr, A's memory: too small
  rknn_tensor_mem* small = rknn_create_mem(mm.ctx, 16);
  EXPECT_EQ(rknn_matmul_set_io_mem(mm.ctx, small, &mm.io.B), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_destroy_mem(mm.ctx, small), RKNN_SUCC);

  rknn_quant_params q;
  std::memset(&q, 0, sizeof(q));
  EXPECT_EQ(rknn_matmul_set_quant_params(mm.ctx, nullptr), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_matmul_set_quant_params(mm.ctx, &q), RKNN_ERR_PARAM_INVALID);  // no name
  std::strcpy(q.name, "B");
  EXPECT_EQ(rknn_matmul_set_quant_params(mm.ctx, &q), RKNN_ERR_PARAM_INVALID);  // no scale
  float bad_scale = -1.0f;
  q.scale = &bad_scale, q.scale_len = 1;
  EXPECT_EQ(rknn_matmul_set_quant_params(mm.ctx, &q), RKNN_ERR_PARAM_INVALID);
  float two[2] = {0.5f, 0.25f};
  q.scale = two, q.scale_len = 2;
  EXPECT_EQ(rknn_matmul_set_quant_params(mm.ctx, &q), RKNN_SUCC);  // checked against N at the run
  ASSERT_EQ(rknn_matmul_set_io_mem(mm.ctx, mm.a, &mm.io.A), RKNN_SUCC);
  ASSERT_EQ(rknn_matmul_set_io_mem(mm.ctx, mm.b, &mm.io.B), RKNN_SUCC);
  ASSERT_EQ(rknn_matmul_set_io_mem(mm.ctx, mm.c, &mm.io.C), RKNN_SUCC);
  EXPECT_EQ(rknn_matmul_run(mm.ctx), RKNN_ERR_PARAM_INVALID);  // 2 scales for a per-layer B
  float one = 1.0f;
  q.scale = &one, q.scale_len = 1;
  EXPECT_EQ(rknn_matmul_set_quant_params(mm.ctx, &q), RKNN_SUCC);
  EXPECT_EQ(rknn_matmul_run(mm.ctx), RKNN_SUCC);
  EXPECT_EQ(rknn_matmul_get_quant_params(mm.ctx, &q, nullptr), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_matmul_set_dynamic_shape(mm.ctx, nullptr), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_matmul_set_core_mask(mm.ctx, static_cast<rknn_core_mask>(0x40)), RKNN_ERR_PARAM_INVALID);
  EXPECT_EQ(rknn_matmul_set_core_mask(mm.ctx, RKNN_NPU_CORE_0_1), RKNN_SUCC);

  // A Matmul context is not a model's, and the other way round; the memory API takes both.
  EXPECT_EQ(rknn_run(mm.ctx, nullptr), RKNN_ERR_CTX_INVALID);
  EXPECT_EQ(rknn_destroy(mm.ctx), RKNN_ERR_CTX_INVALID);
  rknn_context model = 0;
  ASSERT_EQ(apitest::InitFromBytes(&model, apitest::AddMulModel()), RKNN_SUCC);
  EXPECT_EQ(rknn_matmul_run(model), RKNN_ERR_CTX_INVALID);
  EXPECT_EQ(rknn_matmul_destroy(model), RKNN_ERR_CTX_INVALID);
  EXPECT_EQ(rknn_destroy(model), RKNN_SUCC);
  EXPECT_EQ(rknn_matmul_run(mm.ctx), RKNN_SUCC);  // still alive

  EXPECT_EQ(rknn_matmul_run(0), RKNN_ERR_CTX_INVALID);
  rknn_matmul_ctx gone = 0;
  ASSERT_EQ(rknn_matmul_create(&gone, &info, &io), RKNN_SUCC);
  EXPECT_EQ(rknn_matmul_destroy(gone), RKNN_SUCC);
  EXPECT_EQ(rknn_matmul_destroy(gone), RKNN_ERR_CTX_INVALID);
  EXPECT_EQ(rknn_matmul_run(gone), RKNN_ERR_CTX_INVALID);
  EXPECT_EQ(rknn_B_normal_layout_to_native_layout(nullptr, nullptr, 64, 32, &info), RKNN_ERR_PARAM_INVALID);
  std::vector<int8_t> in(64 * 48), out(64 * 64);
  EXPECT_EQ(rknn_B_normal_layout_to_native_layout(in.data(), out.data(), 64, 48, &info), RKNN_ERR_PARAM_INVALID);
}

}  // namespace
