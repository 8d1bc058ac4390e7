// Writes a Graph as an npurt model file: assigns every tensor its storage
// (weights section, arena offset from the memory planner, or an I/O slot),
// records the application-facing I/O attributes for the target platform, and
// serializes header + FlatBuffers payload + weights.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"

namespace npurt {
namespace compiler {

struct EmitOptions {
  std::string target_platform = "rk3588";
  std::string custom_string;
  std::string framework = "ONNX";
  // kFloat16: the runtime rounds every float op's output to fp16 (format/model.fbs Model.float_dtype);
  // the graph's float constants must already be fp16 values (RoundFloatConstantsToHalf).
  DataType float_dtype = DataType::kFloat32;
  // rknn-toolkit2's config(remove_weight=True): constants of kShareableConstantBytes or more are left out
  // (Storage SHARED, found by content hash), to be taken at rknn_init from the model of another context
  // (RKNN_FLAG_SHARE_WEIGHT_MEM) converted from the same weights.
  bool remove_weight = false;
};

// `graph` must have shapes (InferShapes). Fails with kModelInvalid naming the problem.
Status EmitModel(const Graph& graph, const EmitOptions& options, std::vector<uint8_t>* file);

// A dynamic-shape model: one graph per input shape set, in the order the
// application will see them (RKNN_QUERY_INPUT_DYNAMIC_RANGE), sharing one
// weight section (a constant with the same name and bytes is stored once);
// `shape_sets[root]` is also the graph a context starts with.
Status EmitDynamicModel(const std::vector<Graph>& shape_sets, size_t root, const EmitOptions& options,
                        std::vector<uint8_t>* file);

// The toolkit version written into every model.
const char* ToolkitVersion();

}  // namespace compiler
}  // namespace npurt
