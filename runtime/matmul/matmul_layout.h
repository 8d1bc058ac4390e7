// The matrices of the Matmul API (rknn_matmul_api.h) as the board lays them out: element types (int4
// packed two to a byte, low nibble first), the normal, transposed and native (blocked) layouts of each
// platform, and the walks that move elements between a layout and a plain row-major matrix.
//
// Native layouts (the C API reference, table 3-12; divisions round up, the padding is zeros):
//   A (M x K): (K / a, M, a)        -- a K elements per panel, 16 bytes of A's type (RK356x int8: 8)
//   B (K x N): (N / n, K / k, n, k) -- blocks of n x k; K longer than the platform's segment
//                                     (RK3588: 8192, RK3576: 4096) is cut into segments laid out in turn
//   C (M x N): (N / c, M, c)        -- 16 bytes of C's type
// B's block follows the type family of C ("same type" table: C fp32 / fp16 / bf16 -> the fp16 block,
// int32 / int8 -> the int8 block, int16 -> the int4 block), as the reference says for mixed types.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/status.h"

namespace npurt {

enum class MmElem { kInt4, kInt8, kInt16, kInt32, kFloat16, kFloat32, kBFloat16 };

// Bits of one element.
int MmElemBits(MmElem e);
bool MmElemIsInteger(MmElem e);

struct MatmulTypes {
  MmElem a, b, c;
};
// The element types of an rknn_matmul_type value; false for a value that is none.
bool MatmulTypesOf(int32_t matmul_type, MatmulTypes* types);

// The board whose rules a Matmul context follows (the layouts, the K / N limits, the K segments).
struct MatmulPlatform {
  std::string name;       // "rk3588"
  bool int4 = false;      // int4 matrices
  bool tp_norm = false;   // B as (N, K)
  int64_t k_segment = 0;  // B's K segment in the native layout, 0: none
  int64_t max_k = 0;      // 0: no limit
  // The native blocks of each type family (fp16, int8, int4): A's panel, B's block (n, k).
  int64_t a_sub[3] = {0, 0, 0};
  int64_t b_sub_n[3] = {0, 0, 0};
  int64_t b_sub_k[3] = {0, 0, 0};
  int64_t n_align[3] = {0, 0, 0};
  int64_t max_n[3] = {0, 0, 0};
};
// NPURT_PLATFORM (the board the model-less APIs follow; rk3588 when unset), or a Status for a platform
// without the Matmul API (RV1106 / RV1103 / RK2118) or an unknown name.
Status CurrentMatmulPlatform(const MatmulPlatform** platform);
Status MatmulPlatformNamed(const std::string& name, const MatmulPlatform** platform);

enum class MmLayoutKind {
  kRowMajor,   // (rows, cols)
  kColMajor,   // (cols, rows): B in TP_NORM
  kPanels,     // (cols / sub, rows, sub): A and C native (rows M, cols K or N)
  kBlocks,     // B native: rows K, cols N; (N / sub_n, K / sub_k, sub_n, sub_k) per K segment
};

// One matrix of `rows` x `cols` logical elements in a layout.
struct MmMatrix {
  MmElem elem = MmElem::kInt8;
  MmLayoutKind kind = MmLayoutKind::kRowMajor;
  int64_t rows = 0, cols = 0;
  int64_t sub = 0;               // kPanels: cols per panel; kBlocks: sub_n
  int64_t sub_k = 0;             // kBlocks
  int64_t k_segment = 0;         // kBlocks: rows per segment (0: one segment)
  std::vector<uint32_t> dims;    // as rknn_matmul_tensor_attr reports them
  int64_t elements = 0;          // stored elements, padding included
  int64_t bytes = 0;
};

// The layouts of A (M x K), B (K x N) and C (M x N) for a type and the info's layouts (0 NORM, 1 NATIVE,
// 2 TP_NORM), checked against the platform's rules.
struct MatmulGeometry {
  MmMatrix a, b, c;
};
Status MakeMatmulGeometry(const MatmulPlatform& platform, const MatmulTypes& types, int32_t b_layout,
                          int32_t ac_layout, int64_t m, int64_t k, int64_t n, MatmulGeometry* out);

// Calls f(row, col, index) for every stored element of `m`, in storage order; padding positions have
// row >= rows or col >= cols.
template <typename F>
void ForEachStored(const MmMatrix& m, const F& f);

// Element `index` of a buffer of type `e` as an integer (int types) or its bits (fp16 / bf16: uint16).
int32_t LoadElement(const void* data, MmElem e, int64_t index);
float LoadElementAsFloat(const void* data, MmElem e, int64_t index);
void StoreElement(void* data, MmElem e, int64_t index, int32_t value);  // integer types, saturated

// The matrix in `data` (layout `m`) as row-major int8 (integer types; int4 widened), or float
// (fp16 / fp32 / int types as their values). `transpose`: (cols, rows) instead.
void GatherInt8(const void* data, const MmMatrix& m, bool transpose, int8_t* out);
void GatherFloat(const void* data, const MmMatrix& m, float* out);
// Writes a row-major (rows, cols) matrix into `data` in layout `m`: int32 values saturated to an integer
// type, or float values rounded to nearest even into fp16 / bf16. Padding becomes zeros.
void ScatterInt32(const int32_t* values, const MmMatrix& m, void* data);
void ScatterFloat(const float* values, const MmMatrix& m, void* data);
// A row-major (m.rows, m.cols) matrix of m's type, element bits unchanged, into layout `m` (zero padding).
void RowMajorToLayout(const void* src, const MmMatrix& m, void* dst);

// --- implementation of the walk ---

template <typename F>
void ForEachStored(const MmMatrix& m, const F& f) {
  int64_t index = 0;
  switch (m.kind) {
    case MmLayoutKind::kRowMajor:
      for (int64_t r = 0; r < m.rows; ++r) {
        for (int64_t c = 0; c < m.cols; ++c) f(r, c, index++);
      }
      return;
    case MmLayoutKind::kColMajor:
      for (int64_t c = 0; c < m.cols; ++c) {
        for (int64_t r = 0; r < m.rows; ++r) f(r, c, index++);
      }
      return;
    case MmLayoutKind::kPanels: {
      const int64_t panels = (m.cols + m.sub - 1) / m.sub;
      for (int64_t p = 0; p < panels; ++p) {
        for (int64_t r = 0; r < m.rows; ++r) {
          for (int64_t s = 0; s < m.sub; ++s) f(r, p * m.sub + s, index++);
        }
      }
      return;
    }
    case MmLayoutKind::kBlocks: {
      const int64_t segment = m.k_segment > 0 ? m.k_segment : m.rows;
      const int64_t n_blocks = (m.cols + m.sub - 1) / m.sub;
      for (int64_t k0 = 0; k0 < m.rows; k0 += segment) {
        const int64_t seg_rows = std::min<int64_t>(segment, m.rows - k0);
        const int64_t k_blocks = (seg_rows + m.sub_k - 1) / m.sub_k;
        for (int64_t nb = 0; nb < n_blocks; ++nb) {
          for (int64_t kb = 0; kb < k_blocks; ++kb) {
            for (int64_t nn = 0; nn < m.sub; ++nn) {
              for (int64_t kk = 0; kk < m.sub_k; ++kk) {
                const int64_t kin = kb * m.sub_k + kk;
                // A segment's padding rows lie past the matrix, whatever segment follows.
                f(kin < seg_rows ? k0 + kin : m.rows, nb * m.sub + nn, index++);
              }
            }
          }
        }
      }
      return;
    }
  }
}

}  // namespace npurt
