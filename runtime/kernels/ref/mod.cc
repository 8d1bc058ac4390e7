#include "runtime/kernels/ref/mod.h"

#include <cmath>
#include <type_traits>

namespace npurt {
namespace {

template <typename T>
T Mod(T a, T b, bool fmod) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::fmod(a, b);
  } else {
    if (b == 0) return 0;
    if (b == -1) return 0;  // also INT_MIN % -1, which C would trap on
    const T r = a % b;     // the dividend's sign
    if (fmod) return r;
    return (r != 0 && ((r < 0) != (b < 0))) ? static_cast<T>(r + b) : r;
  }
}

template <typename T>
void ApplyMod(const ModParams& p, const T* a, const T* b, T* out) {
  const int64_t n = p.plan.dims[p.plan.rank - 1];
  const int64_t sa = p.plan.strides[0][p.plan.rank - 1], sb = p.plan.strides[1][p.plan.rank - 1];
  const bool fmod = p.fmod;
  ForEachBroadcastRow(p.plan, [&](const int64_t* offsets, int64_t out_offset) {
    for (int64_t i = 0; i < n; ++i) out[out_offset + i] = Mod(a[offsets[0] + i * sa], b[offsets[1] + i * sb], fmod);
  });
}

}  // namespace

void mod__ref(const ModParams& p, const void* a, const void* b, void* out) {
  if (BroadcastPlanSize(p.plan) == 0) return;
  switch (p.type) {
    case DataType::kInt32:
      ApplyMod(p, static_cast<const int32_t*>(a), static_cast<const int32_t*>(b), static_cast<int32_t*>(out));
      break;
    case DataType::kInt64:
      ApplyMod(p, static_cast<const int64_t*>(a), static_cast<const int64_t*>(b), static_cast<int64_t*>(out));
      break;
    default:
      ApplyMod(p, static_cast<const float*>(a), static_cast<const float*>(b), static_cast<float*>(out));
      break;
  }
}

}  // namespace npurt
