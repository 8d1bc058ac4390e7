// The portable dot-product policy of npurt's int8 microkernels (igemm_microkernel.h, dwconv_microkernel.h):
// int16 pairs summed in plain C++ (any CPU), eight lanes per "vector" so the compiler can vectorize the
// lane loops. Internal linkage, as every policy.
#pragma once

#include <cstdint>
#include <cstring>

namespace npurt {
namespace {

struct ScalarPairs {
  struct Vec {
    int32_t v[8];
  };
  static constexpr int kLanes = 8;
  static constexpr bool kSpillSums = false;
  static Vec Zero() { return Vec{}; }
  static Vec Load(const uint8_t* p) {
    Vec r;
    std::memcpy(r.v, p, sizeof(r.v));
    return r;
  }
  static Vec Broadcast(const uint8_t* p) {
    int32_t g;
    std::memcpy(&g, p, 4);
    Vec r;
    for (int l = 0; l < 8; ++l) r.v[l] = g;
    return r;
  }
  // Lane l: the two int16 halves of a's group times those of w's (little-endian: the first element low).
  static Vec Dot(Vec acc, const Vec& a, const Vec& w) {
    for (int l = 0; l < 8; ++l) {
      const int32_t a0 = static_cast<int16_t>(static_cast<uint32_t>(a.v[l]) & 0xFFFF);
      const int32_t a1 = static_cast<int16_t>(static_cast<uint32_t>(a.v[l]) >> 16);
      const int32_t w0 = static_cast<int16_t>(static_cast<uint32_t>(w.v[l]) & 0xFFFF);
      const int32_t w1 = static_cast<int16_t>(static_cast<uint32_t>(w.v[l]) >> 16);
      // Wrapping int32 addition, as vpaddd.
      acc.v[l] = static_cast<int32_t>(static_cast<uint32_t>(acc.v[l]) + static_cast<uint32_t>(a0 * w0 + a1 * w1));
    }
    return acc;
  }
  static Vec Add(Vec a, const Vec& b) {
    for (int l = 0; l < 8; ++l) a.v[l] = static_cast<int32_t>(static_cast<uint32_t>(a.v[l]) + static_cast<uint32_t>(b.v[l]));
    return a;
  }
  static Vec LoadInt(const int32_t* p) {
    Vec r;
    std::memcpy(r.v, p, sizeof(r.v));
    return r;
  }
  static void StoreFloat(float* out, const Vec& v) {
    for (int l = 0; l < 8; ++l) out[l] = static_cast<float>(v.v[l]);
  }
};

}  // namespace
}  // namespace npurt
