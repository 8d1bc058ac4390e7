// ReverseSequence: the first sequence_lens[b] steps of each sequence reversed (attributes batch_axis
// and time_axis, 0 and 1 in either order); any element type.
#include <cinttypes>

#include "runtime/kernels/ref/reverse_sequence.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

struct ReverseSequenceState : OpState {
  ReverseSequenceParams params;
};

Status ReadReverseSequence(const Attributes& attrs, const std::vector<const Tensor*>& inputs,
                           ReverseSequenceParams* p) {
  NPURT_RETURN_IF_ERROR(ExpectInputs("ReverseSequence", inputs, 2));
  const Tensor& x = *inputs[0];
  const Tensor& lengths = *inputs[1];
  NPURT_CHECK_OR_RETURN(DataTypeSize(x.dtype) != 0, kModelInvalid, "ReverseSequence: unknown element type");
  NPURT_CHECK_OR_RETURN(x.rank() >= 2, kModelInvalid, "ReverseSequence: input must have rank >= 2");
  int64_t batch_axis = 1, time_axis = 0;
  NPURT_RETURN_IF_ERROR(attrs.GetInt("batch_axis", 1, &batch_axis));
  NPURT_RETURN_IF_ERROR(attrs.GetInt("time_axis", 0, &time_axis));
  NPURT_CHECK_OR_RETURN((batch_axis == 0 && time_axis == 1) || (batch_axis == 1 && time_axis == 0), kModelInvalid,
                        "ReverseSequence: batch_axis and time_axis must be 0 and 1 in either order");
  p->time_major = time_axis == 0;
  p->batch = x.shape[static_cast<size_t>(batch_axis)];
  p->time = x.shape[static_cast<size_t>(time_axis)];
  p->rest = 1;
  for (int d = 2; d < x.rank(); ++d) p->rest *= x.shape[d];
  p->element_size = DataTypeSize(x.dtype);
  NPURT_CHECK_OR_RETURN(lengths.dtype == DataType::kInt64 && lengths.rank() == 1 && lengths.shape[0] == p->batch,
                        kModelInvalid, "ReverseSequence: sequence_lens must be INT64 [%" PRId64 "]", p->batch);
  return Status::Ok();
}

Status ReverseSequenceInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs,
                            std::vector<Tensor>* outputs) {
  ReverseSequenceParams p;
  NPURT_RETURN_IF_ERROR(ReadReverseSequence(attrs, inputs, &p));
  (*outputs)[0].shape = inputs[0]->shape;
  (*outputs)[0].dtype = inputs[0]->dtype;
  return Status::Ok();
}

Status ReverseSequencePrepare(OpNode* node) {
  auto state = std::make_unique<ReverseSequenceState>();
  const std::vector<const Tensor*> inputs(node->inputs.begin(), node->inputs.end());
  NPURT_RETURN_IF_ERROR(ReadReverseSequence(node->attrs, inputs, &state->params));
  node->state = std::move(state);
  return Status::Ok();
}

Status ReverseSequenceEval(OpNode* node) {
  const ReverseSequenceParams& p = node->state_as<ReverseSequenceState>()->params;
  if (!reverse_sequence__ref(p, node->inputs[0]->data, node->inputs[1]->as<int64_t>(), node->outputs[0]->data)) {
    return NPURT_ERROR(kFail, "ReverseSequence: a sequence length is outside [0, %" PRId64 "]", p.time);
  }
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpReverseSequence = {"ReverseSequence", 2, 2, 1, 1, ReverseSequenceInfer, ReverseSequencePrepare,
                                         ReverseSequenceEval};

}  // namespace npurt
