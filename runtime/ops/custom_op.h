// Custom operators (include/rknn_custom_op.h): model nodes whose computation is the application's.
// The compiler turns an ONNX node of a non-ONNX domain into a "Custom" node that records the op
// type, the node's own attributes and its output shapes and types (nothing can infer them). At run
// time the node calls the callbacks the application registered for its op type on the context.
//
// Lifecycle of one node: prepare (rknn_init, or a shape switch) makes its state; binding (at
// registration, or at prepare when the type is registered already) runs `init`; every rknn_run runs
// `prepare` and `compute`; the state's end (rknn_destroy, a shape switch) runs `destroy`.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rknn_custom_op.h"
#include "runtime/ops/op.h"

namespace npurt {

// Attributes the compiler reserves on a Custom node; the node's ONNX attributes sit beside them.
constexpr const char* kCustomOpTypeAttr = "npurt.op_type";        // STRING: the ONNX op_type
constexpr const char* kCustomOpDomainAttr = "npurt.domain";       // STRING: the ONNX domain
constexpr const char* kCustomOutputShapesAttr = "npurt.output_shapes";  // INTS: rank, dims..., per output
constexpr const char* kCustomOutputTypesAttr = "npurt.output_dtypes";   // INTS: DataType per output
// True for the reserved names above (the application never sees them as the node's attributes).
bool IsReservedCustomAttr(const std::string& name);

// The op types an application registered on one context (rknn_register_custom_ops). Entries keep
// their addresses while the table lives; nodes point at them.
class CustomOpTable {
 public:
  const rknn_custom_op* Find(const std::string& op_type) const;
  // Copies `op`; the caller checked it (CheckCustomOp) and that its type is not registered yet.
  const rknn_custom_op* Add(const rknn_custom_op& op);
  void Remove(const std::string& op_type);
  // A copy for a duplicated context (rknn_dup_context): the same callbacks.
  CustomOpTable Clone() const;

 private:
  std::vector<std::unique_ptr<rknn_custom_op>> ops_;
};

// What rknn_register_custom_ops refuses in one entry (the reason names the field), before registering any.
Status CheckCustomOp(const rknn_custom_op& op);

bool IsCustomNode(const OpNode& node);
// The ONNX op_type a Custom node runs ("" for other nodes).
std::string CustomOpTypeOf(const OpNode& node);
// Binds a Custom node to its type's registration in node->custom_ops and runs its `init`; nothing
// when the type is not registered or the node is bound already.
Status BindCustomNode(OpNode* node);
// Undoes BindCustomNode (runs `destroy` if `init` ran); used when registering fails part way.
void UnbindCustomNode(OpNode* node);

// rknn_custom_op_get_op_attr: the attribute `name` of the node behind `op_ctx`; false when `op_ctx`
// is not a live node's context (the caller logs it).
bool LookupCustomOpAttr(const rknn_custom_op_context* op_ctx, const char* name, rknn_custom_op_attr* out);

}  // namespace npurt
