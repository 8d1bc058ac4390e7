#include "runtime/matmul/matmul_layout.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "runtime/core/types.h"

namespace npurt {
namespace {

// The type families of the native tables: fp16, int8, int4.
enum Family { kFp16 = 0, kInt8 = 1, kInt4 = 2 };

Family FamilyOfInput(MmElem e) {
  switch (e) {
    case MmElem::kInt4: return kInt4;
    case MmElem::kInt8: return kInt8;
    default: return kFp16;
  }
}

Family FamilyOfOutput(MmElem c) {
  switch (c) {
    case MmElem::kInt16: return kInt4;
    case MmElem::kInt32:
    case MmElem::kInt8: return kInt8;
    default: return kFp16;
  }
}

const char* FamilyName(Family f) { return f == kFp16 ? "float16" : f == kInt8 ? "int8" : "int4"; }

// Table 3-12 (native shapes) and 3-14 (K and N limits) of the RKNN C API reference 2.3.
std::vector<MatmulPlatform> MakePlatforms() {
  MatmulPlatform rk3588;
  rk3588.name = "rk3588";
  rk3588.int4 = true;
  rk3588.tp_norm = true;
  rk3588.k_segment = 8192;
  //                fp16  int8  int4
  const int64_t a[3] = {8, 16, 32}, bn[3] = {16, 32, 64}, bk[3] = {32, 32, 32};
  const int64_t align[3] = {32, 32, 64}, max_n[3] = {4096, 4096, 8192};
  for (int f = 0; f < 3; ++f) {
    rk3588.a_sub[f] = a[f], rk3588.b_sub_n[f] = bn[f], rk3588.b_sub_k[f] = bk[f];
    rk3588.n_align[f] = align[f], rk3588.max_n[f] = max_n[f];
  }
  MatmulPlatform rk3576 = rk3588;
  rk3576.name = "rk3576";
  rk3576.k_segment = 4096;

  MatmulPlatform rk3566;
  rk3566.name = "rk3566";
  rk3566.max_k = 10240;
  const int64_t a6[3] = {4, 8, 0}, bn6[3] = {8, 16, 0}, bk6[3] = {16, 32, 0};
  for (int f = 0; f < 2; ++f) {
    rk3566.a_sub[f] = a6[f], rk3566.b_sub_n[f] = bn6[f], rk3566.b_sub_k[f] = bk6[f];
    rk3566.n_align[f] = 16, rk3566.max_n[f] = 4096;
  }
  MatmulPlatform rk3568 = rk3566;
  rk3568.name = "rk3568";

  MatmulPlatform rk3562;
  rk3562.name = "rk3562";
  rk3562.max_k = 10240;
  rk3562.tp_norm = true;
  const int64_t a2[3] = {8, 16, 0}, bn2[3] = {8, 16, 0}, bk2[3] = {32, 32, 0};
  for (int f = 0; f < 2; ++f) {
    rk3562.a_sub[f] = a2[f], rk3562.b_sub_n[f] = bn2[f], rk3562.b_sub_k[f] = bk2[f];
    rk3562.n_align[f] = 16, rk3562.max_n[f] = 4096;
  }
  return {rk3588, rk3576, rk3566, rk3568, rk3562};
}

const std::vector<MatmulPlatform>& Platforms() {
  static const std::vector<MatmulPlatform>* platforms = new std::vector<MatmulPlatform>(MakePlatforms());
  return *platforms;
}

std::vector<uint32_t> Dims(std::initializer_list<int64_t> d) {
  std::vector<uint32_t> out;
  for (int64_t v : d) out.push_back(static_cast<uint32_t>(v));
  return out;
}

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

void Finish(MmMatrix* m) {
  int64_t elements = 1;
  for (uint32_t d : m->dims) elements *= d;
  m->elements = elements;
  m->bytes = (elements * MmElemBits(m->elem) + 7) / 8;
}

MmMatrix RowMajor(MmElem e, int64_t rows, int64_t cols) {
  MmMatrix m;
  m.elem = e, m.kind = MmLayoutKind::kRowMajor, m.rows = rows, m.cols = cols;
  m.dims = Dims({rows, cols});
  Finish(&m);
  return m;
}

MmMatrix Panels(MmElem e, int64_t rows, int64_t cols, int64_t sub) {
  MmMatrix m;
  m.elem = e, m.kind = MmLayoutKind::kPanels, m.rows = rows, m.cols = cols, m.sub = sub;
  m.dims = Dims({CeilDiv(cols, sub), rows, sub});
  Finish(&m);
  return m;
}

uint16_t FloatToBFloat16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((bits >> 16) | 0x40);  // NaN stays NaN
  bits += 0x7fffu + ((bits >> 16) & 1u);  // round to nearest, ties to even
  return static_cast<uint16_t>(bits >> 16);
}

float BFloat16ToFloat(uint16_t bits) {
  const uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, 4);
  return value;
}

}  // namespace

int MmElemBits(MmElem e) {
  switch (e) {
    case MmElem::kInt4: return 4;
    case MmElem::kInt8: return 8;
    case MmElem::kInt16:
    case MmElem::kFloat16:
    case MmElem::kBFloat16: return 16;
    case MmElem::kInt32:
    case MmElem::kFloat32: return 32;
  }
  return 8;
}

bool MmElemIsInteger(MmElem e) {
  return e == MmElem::kInt4 || e == MmElem::kInt8 || e == MmElem::kInt16 || e == MmElem::kInt32;
}

bool MatmulTypesOf(int32_t matmul_type, MatmulTypes* t) {
  using E = MmElem;
  switch (matmul_type) {
    case 1: *t = {E::kFloat16, E::kFloat16, E::kFloat32}; return true;   // FLOAT16_MM_FLOAT16_TO_FLOAT32
    case 2: *t = {E::kInt8, E::kInt8, E::kInt32}; return true;           // INT8_MM_INT8_TO_INT32
    case 3: *t = {E::kInt8, E::kInt8, E::kInt8}; return true;            // INT8_MM_INT8_TO_INT8
    case 4: *t = {E::kFloat16, E::kFloat16, E::kFloat16}; return true;   // FLOAT16_MM_FLOAT16_TO_FLOAT16
    case 5: *t = {E::kFloat16, E::kInt8, E::kFloat32}; return true;      // FLOAT16_MM_INT8_TO_FLOAT32
    case 6: *t = {E::kFloat16, E::kInt8, E::kFloat16}; return true;      // FLOAT16_MM_INT8_TO_FLOAT16
    case 7: *t = {E::kFloat16, E::kInt4, E::kFloat32}; return true;      // FLOAT16_MM_INT4_TO_FLOAT32
    case 8: *t = {E::kFloat16, E::kInt4, E::kFloat16}; return true;      // FLOAT16_MM_INT4_TO_FLOAT16
    case 9: *t = {E::kInt8, E::kInt8, E::kFloat32}; return true;         // INT8_MM_INT8_TO_FLOAT32
    case 10: *t = {E::kInt4, E::kInt4, E::kInt16}; return true;          // INT4_MM_INT4_TO_INT16
    case 11: *t = {E::kInt8, E::kInt4, E::kInt32}; return true;          // INT8_MM_INT4_TO_INT32
    case 12: *t = {E::kFloat16, E::kInt4, E::kBFloat16}; return true;    // FLOAT16_MM_INT4_TO_BFLOAT16
    case 15: *t = {E::kInt8, E::kInt4, E::kFloat16}; return true;        // INT8_MM_INT4_TO_FLOAT16
    default: return false;
  }
}

Status MatmulPlatformNamed(const std::string& name, const MatmulPlatform** platform) {
  for (const MatmulPlatform& p : Platforms()) {
    if (p.name == name) {
      *platform = &p;
      return Status::Ok();
    }
  }
  if (name == "rv1106" || name == "rv1103" || name == "rv1106b" || name == "rv1103b" || name == "rk2118") {
    return NPURT_ERROR(kFail, "%s has no Matmul API (the reference lists rk3588, rk3576, rk3566, rk3568 and "
                              "rk3562)", name.c_str());
  }
  return NPURT_ERROR(kParamInvalid, "NPURT_PLATFORM=%s is not a platform npurt knows (rk3588, rk3576, rk3566, "
                                    "rk3568, rk3562)", name.c_str());
}

Status CurrentMatmulPlatform(const MatmulPlatform** platform) {
  const char* env = std::getenv("NPURT_PLATFORM");
  std::string name = env != nullptr && *env != '\0' ? env : "rk3588";
  for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return MatmulPlatformNamed(name, platform);
}

Status MakeMatmulGeometry(const MatmulPlatform& p, const MatmulTypes& t, int32_t b_layout, int32_t ac_layout,
                          int64_t m, int64_t k, int64_t n, MatmulGeometry* out) {
  if (m <= 0 || k <= 0 || n <= 0) {
    return NPURT_ERROR(kParamInvalid, "M %lld, K %lld, N %lld: each must be > 0", static_cast<long long>(m),
                       static_cast<long long>(k), static_cast<long long>(n));
  }
  if (!p.int4 && (t.a == MmElem::kInt4 || t.b == MmElem::kInt4)) {
    return NPURT_ERROR(kParamInvalid, "%s has no int4 matmul", p.name.c_str());
  }
  if (b_layout < 0 || b_layout > 2 || (b_layout == 2 && !p.tp_norm)) {
    return NPURT_ERROR(kParamInvalid, "B_layout %d is not one of %s", b_layout,
                       p.tp_norm ? "0 (NORM), 1 (NATIVE), 2 (TP_NORM)" : "0 (NORM), 1 (NATIVE) on this platform");
  }
  if (ac_layout < 0 || ac_layout > 1) {
    return NPURT_ERROR(kParamInvalid, "AC_layout %d is not 0 (NORM) or 1 (NATIVE)", ac_layout);
  }
  const Family af = FamilyOfInput(t.a), bf = FamilyOfOutput(t.c);
  if (p.b_sub_n[bf] == 0 || p.a_sub[af] == 0) {
    return NPURT_ERROR(kParamInvalid, "%s has no %s matmul", p.name.c_str(), FamilyName(p.b_sub_n[bf] ? af : bf));
  }
  // The NPU's limits (table 3-14): K in whole 32s, N in whole blocks, both bounded.
  if (k % 32 != 0 || (p.max_k > 0 && k > p.max_k)) {
    return NPURT_ERROR(kParamInvalid, "K %lld: %s needs K %% 32 == 0%s", static_cast<long long>(k), p.name.c_str(),
                       p.max_k > 0 ? " and K <= 10240" : "");
  }
  if (n % p.n_align[bf] != 0 || n > p.max_n[bf]) {
    return NPURT_ERROR(kParamInvalid, "N %lld: %s needs N %% %lld == 0 and N <= %lld for %s B blocks",
                       static_cast<long long>(n), p.name.c_str(), static_cast<long long>(p.n_align[bf]),
                       static_cast<long long>(p.max_n[bf]), FamilyName(bf));
  }
  MatmulGeometry g;
  const int64_t a_panel = p.a_sub[af];
  g.a = ac_layout == 1 ? Panels(t.a, m, k, a_panel) : RowMajor(t.a, m, k);
  const int64_t c_panel = 128 / MmElemBits(t.c);  // 16 bytes of C's type
  g.c = ac_layout == 1 ? Panels(t.c, m, n, c_panel) : RowMajor(t.c, m, n);
  if (b_layout == 1) {
    MmMatrix& b = g.b;
    b.elem = t.b, b.kind = MmLayoutKind::kBlocks, b.rows = k, b.cols = n;
    b.sub = p.b_sub_n[bf], b.sub_k = p.b_sub_k[bf];
    b.k_segment = p.k_segment > 0 && k > p.k_segment ? p.k_segment : 0;
    int64_t k_blocks = 0;
    const int64_t segment = b.k_segment > 0 ? b.k_segment : k;
    for (int64_t k0 = 0; k0 < k; k0 += segment) k_blocks += CeilDiv(std::min(segment, k - k0), b.sub_k);
    b.dims = Dims({CeilDiv(n, b.sub), k_blocks, b.sub, b.sub_k});
    Finish(&b);
  } else if (b_layout == 2) {
    MmMatrix& b = g.b;
    b.elem = t.b, b.kind = MmLayoutKind::kColMajor, b.rows = k, b.cols = n;
    b.dims = Dims({n, k});
    Finish(&b);
  } else {
    g.b = RowMajor(t.b, k, n);
  }
  for (const MmMatrix* x : {&g.a, &g.b, &g.c}) {
    if (x->bytes > std::numeric_limits<uint32_t>::max()) {
      return NPURT_ERROR(kParamInvalid, "a matrix of %lld bytes does not fit rknn_matmul_tensor_attr.size",
                         static_cast<long long>(x->bytes));
    }
  }
  *out = std::move(g);
  return Status::Ok();
}

int32_t LoadElement(const void* data, MmElem e, int64_t i) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  switch (e) {
    case MmElem::kInt4: {
      const uint8_t byte = p[i / 2];
      const int32_t nibble = (i % 2 == 0) ? (byte & 0xf) : (byte >> 4);
      return nibble >= 8 ? nibble - 16 : nibble;
    }
    case MmElem::kInt8: return static_cast<int8_t>(p[i]);
    case MmElem::kInt16:
    case MmElem::kFloat16:
    case MmElem::kBFloat16: {
      uint16_t v;
      std::memcpy(&v, p + i * 2, 2);
      return e == MmElem::kInt16 ? static_cast<int16_t>(v) : static_cast<int32_t>(v);
    }
    case MmElem::kInt32:
    case MmElem::kFloat32: {
      int32_t v;
      std::memcpy(&v, p + i * 4, 4);
      return v;
    }
  }
  return 0;
}

float LoadElementAsFloat(const void* data, MmElem e, int64_t i) {
  const int32_t raw = LoadElement(data, e, i);
  switch (e) {
    case MmElem::kFloat16: return HalfToFloat(static_cast<uint16_t>(raw));
    case MmElem::kBFloat16: return BFloat16ToFloat(static_cast<uint16_t>(raw));
    case MmElem::kFloat32: {
      float f;
      std::memcpy(&f, &raw, 4);
      return f;
    }
    default: return static_cast<float>(raw);
  }
}

void StoreElement(void* data, MmElem e, int64_t i, int32_t value) {
  uint8_t* p = static_cast<uint8_t*>(data);
  switch (e) {
    case MmElem::kInt4: {
      const uint8_t nibble = static_cast<uint8_t>(std::clamp(value, -8, 7) & 0xf);
      uint8_t& byte = p[i / 2];
      byte = (i % 2 == 0) ? static_cast<uint8_t>((byte & 0xf0) | nibble) : static_cast<uint8_t>((byte & 0x0f) | (nibble << 4));
      return;
    }
    case MmElem::kInt8: p[i] = static_cast<uint8_t>(static_cast<int8_t>(std::clamp(value, -128, 127))); return;
    case MmElem::kInt16: {
      const int16_t v = static_cast<int16_t>(std::clamp(value, -32768, 32767));
      std::memcpy(p + i * 2, &v, 2);
      return;
    }
    case MmElem::kInt32: std::memcpy(p + i * 4, &value, 4); return;
    default: return;  // float types go through ScatterFloat
  }
}

void GatherInt8(const void* data, const MmMatrix& m, bool transpose, int8_t* out) {
  ForEachStored(m, [&](int64_t r, int64_t c, int64_t index) {
    if (r >= m.rows || c >= m.cols) return;
    const int32_t v = LoadElement(data, m.elem, index);
    out[transpose ? c * m.rows + r : r * m.cols + c] = static_cast<int8_t>(v);
  });
}

// Every fp16 value as a float (256 KiB, made once): widening A runs on every rknn_matmul_run.
const float* HalfTable() {
  static const float* table = [] {
    float* t = new float[65536];
    for (uint32_t i = 0; i < 65536; ++i) t[i] = HalfToFloat(static_cast<uint16_t>(i));
    return t;
  }();
  return table;
}

void GatherFloat(const void* data, const MmMatrix& m, float* out) {
  if (m.elem == MmElem::kFloat16 && m.kind == MmLayoutKind::kRowMajor) {
    const float* table = HalfTable();
    const uint16_t* in = static_cast<const uint16_t*>(data);
    for (int64_t i = 0; i < m.rows * m.cols; ++i) out[i] = table[in[i]];
    return;
  }
  ForEachStored(m, [&](int64_t r, int64_t c, int64_t index) {
    if (r >= m.rows || c >= m.cols) return;
    out[r * m.cols + c] = LoadElementAsFloat(data, m.elem, index);
  });
}

void ScatterInt32(const int32_t* values, const MmMatrix& m, void* data) {
  ForEachStored(m, [&](int64_t r, int64_t c, int64_t index) {
    StoreElement(data, m.elem, index, r < m.rows && c < m.cols ? values[r * m.cols + c] : 0);
  });
}

void ScatterFloat(const float* values, const MmMatrix& m, void* data) {
  uint8_t* p = static_cast<uint8_t*>(data);
  ForEachStored(m, [&](int64_t r, int64_t c, int64_t index) {
    const float v = r < m.rows && c < m.cols ? values[r * m.cols + c] : 0.0f;
    if (m.elem == MmElem::kFloat32) {
      std::memcpy(p + index * 4, &v, 4);
    } else {
      const uint16_t bits = m.elem == MmElem::kFloat16 ? FloatToHalf(v) : FloatToBFloat16(v);
      std::memcpy(p + index * 2, &bits, 2);
    }
  });
}

void RowMajorToLayout(const void* src, const MmMatrix& m, void* dst) {
  const int bits = MmElemBits(m.elem);
  const uint8_t* in = static_cast<const uint8_t*>(src);
  uint8_t* out = static_cast<uint8_t*>(dst);
  ForEachStored(m, [&](int64_t r, int64_t c, int64_t index) {
    const bool inside = r < m.rows && c < m.cols;
    const int64_t from = r * m.cols + c;
    if (bits == 4) {
      StoreElement(dst, m.elem, index, inside ? LoadElement(src, m.elem, from) : 0);
    } else {
      const size_t bytes = static_cast<size_t>(bits / 8);
      if (inside) {
        std::memcpy(out + index * bytes, in + from * bytes, bytes);
      } else {
        std::memset(out + index * bytes, 0, bytes);
      }
    }
  });
}

}  // namespace npurt
