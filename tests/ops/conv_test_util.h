// Inputs shared by the Conv and ConvTranspose op tests. Each test keeps its own
// naive reference so that the two stay independent of each other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace npurt {
namespace testing {

// Small integers times 1/4: every product and sum in the tests is exact in float.
inline std::vector<float> Ramp(int64_t n, int mod = 7, int seed = 0) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(((i * 5 + seed) % mod) - mod / 2) * 0.25f;
  return v;
}

// Window geometry per spatial dim, as the naive references take it.
struct Geometry {
  std::vector<int64_t> strides, dilations, pads_begin;
  int64_t group = 1;
};

}  // namespace testing
}  // namespace npurt
