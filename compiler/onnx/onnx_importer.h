// ONNX importer: reads an ONNX ModelProto (protobuf, Debian's libonnx) and
// builds the compiler's Graph. Opsets 1-17 of the default domain (7-17 is the
// target; the forms ONNX replaced before opset 7 are converted too, see
// convert_legacy.cc); weights come
// from initializers and Constant nodes; every node's output shapes are inferred
// as it is imported (the runtime ops' infer), and nodes whose inputs are all
// constants are evaluated right away (the runtime ops' eval, or the importer's
// own code for import-only ops such as Shape, ConstantOfShape, Range), so shape
// computations fold away. Unsupported ops fail with the op type, node name,
// opset and the list of supported ops.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"
#include "runtime/core/status.h"

namespace npurt {
namespace compiler {

struct ImportOptions {
  // Input name -> full shape; required for inputs with dynamic or named dims.
  std::map<std::string, Shape> input_shapes;
  // Full shapes by input position (the model's inputs, or `inputs` when cutting), as rknn-toolkit2's
  // input_size_list and dynamic_input give them; they override `input_shapes`.
  std::vector<Shape> input_shape_list;
  // Cut a subgraph: these tensors become the graph inputs / outputs, in this
  // order (empty: the model's own). Only what the outputs need is imported.
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  // > 1: rknn-toolkit2's rknn_batch_size -- every input's first dim, which must be 1, becomes this
  // (before constant folding, so shapes computed from the input follow).
  int64_t batch_size = 1;
  // Op types whose nodes become custom ops in any domain (nodes of non-ONNX domains always do).
  std::vector<std::string> custom_op_types;
};

// Imports the ONNX file at `path`. A missing, unreadable or corrupt file gives
// an error naming the file and the problem.
Status ImportOnnxFile(const std::string& path, const ImportOptions& options, Graph* graph);
// The same for serialized ModelProto bytes; `label` names them in errors.
Status ImportOnnxBytes(const void* data, size_t size, const std::string& label, const ImportOptions& options,
                       Graph* graph);

// One ONNX op the importer accepts, for `npurt ops` and error messages.
struct OnnxOpSupport {
  std::string op_type;
  // "runtime": runs as the runtime op of that name; "lowered": rewritten into
  // other runtime ops; "import-only": evaluated during import (folded).
  std::string kind;
  std::string note;
};
std::vector<OnnxOpSupport> SupportedOnnxOps();

// The opset range of the default domain the importer accepts.
constexpr int kMinOnnxOpset = 1;
constexpr int kMaxOnnxOpset = 19;

}  // namespace compiler
}  // namespace npurt
