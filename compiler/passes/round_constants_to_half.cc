// Float constants as an fp16 model stores them (CompileOptions::float_dtype): each value the nearest
// float16, beyond 65504 +-inf, as the board's toolkit writes fp16 weights.
#include <cstring>
#include <string>
#include <vector>

#include "compiler/passes/passes.h"
#include "runtime/kernels/ref/half_round.h"

namespace npurt {
namespace compiler {

int RoundFloatConstantsToHalf(Graph* graph, std::vector<std::string>* overflowed) {
  std::vector<bool> data(graph->tensors().size(), false);
  std::vector<bool> parameter(graph->tensors().size(), false);
  for (const IrNode& n : graph->nodes()) {
    for (size_t k = 0; k < n.inputs.size(); ++k) {
      if (n.inputs[k] < 0) continue;
      // A Resize's roi and scales decide its output shape, which the model records: they stay exact.
      const bool shape_parameter = (n.op_type == "Resize" || n.op_type == "Upsample") && k > 0;
      (shape_parameter ? parameter : data)[static_cast<size_t>(n.inputs[k])] = true;
    }
  }
  int rounded = 0;
  for (size_t i = 0; i < graph->tensors().size(); ++i) {
    IrTensor& t = graph->tensors()[i];
    if (!t.is_constant || t.dtype != DataType::kFloat32 || t.data.empty() || !data[i] || parameter[i]) continue;
    std::vector<float> values(t.data.size() / sizeof(float));
    std::memcpy(values.data(), t.data.data(), values.size() * sizeof(float));
    const int64_t beyond = round_to_half__ref(values.data(), static_cast<int64_t>(values.size()));
    if (beyond > 0 && overflowed != nullptr) {
      overflowed->push_back("'" + t.name + "' (" + std::to_string(beyond) + " of " + std::to_string(values.size()) +
                            " values)");
    }
    std::memcpy(t.data.data(), values.data(), values.size() * sizeof(float));
    ++rounded;
  }
  return rounded;
}

}  // namespace compiler
}  // namespace npurt
