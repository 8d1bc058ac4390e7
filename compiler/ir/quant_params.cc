#include "compiler/ir/quant_params.h"

#include <cstring>

namespace npurt {
namespace compiler {

bool ReadQuantParams(const Graph& graph, int scale, int zero_point, DataType codes, int axis, QuantInfo* q) {
  if (codes != DataType::kInt8 && codes != DataType::kUint8) return false;
  if (scale < 0 || scale >= static_cast<int>(graph.tensors().size())) return false;
  const IrTensor& st = graph.tensors()[scale];
  if (!st.is_constant || st.dtype != DataType::kFloat32) return false;
  const size_t count = st.data.size() / sizeof(float);
  if (count == 0 || count * sizeof(float) != st.data.size()) return false;
  QuantInfo r;
  r.scale.resize(count);
  std::memcpy(r.scale.data(), st.data.data(), st.data.size());
  const int32_t shift = codes == DataType::kUint8 ? 128 : 0;
  r.zero_point.assign(count, -shift);
  if (zero_point >= 0) {
    if (zero_point >= static_cast<int>(graph.tensors().size())) return false;
    const IrTensor& zt = graph.tensors()[zero_point];
    if (!zt.is_constant || zt.dtype != codes || zt.data.size() != count) return false;
    for (size_t i = 0; i < count; ++i) {
      r.zero_point[i] = codes == DataType::kUint8 ? static_cast<int32_t>(zt.data[i]) - shift
                                                  : static_cast<int32_t>(static_cast<int8_t>(zt.data[i]));
    }
  }
  r.axis = count == 1 && st.shape.size() <= 1 ? -1 : axis;
  *q = std::move(r);
  return true;
}

}  // namespace compiler
}  // namespace npurt
