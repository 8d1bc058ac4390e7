#include "runtime/core/op_macs.h"

namespace npurt {
namespace {

int64_t Product(const Shape& s, size_t from) {
  int64_t p = 1;
  for (size_t i = from; i < s.size(); ++i) p *= s[i];
  return p;
}

}  // namespace

int64_t OpMacs(const std::string& op_type, const Attributes& attrs, const std::vector<const Shape*>& inputs,
               const Shape& output) {
  if (inputs.size() < 2 || inputs[0] == nullptr || inputs[1] == nullptr) return 0;
  const Shape& a = *inputs[0];
  const Shape& w = *inputs[1];
  if (op_type == "Conv" && w.size() >= 2) return Product(output, 0) * Product(w, 1);  // each output: C/group x taps
  if (op_type == "ConvTranspose" && w.size() >= 2) return Product(a, 0) * Product(w, 1);  // each input scatters
  if ((op_type == "Gemm" || op_type == "MatMul") && !a.empty()) {
    int64_t trans_a = 0;
    if (op_type == "Gemm" && (!attrs.GetInt("transA", 0, &trans_a).ok() || a.size() != 2)) return 0;
    const int64_t k = trans_a ? a[0] : a.back();
    return Product(output, 0) * k;
  }
  return 0;
}

}  // namespace npurt
