// Tile: input 1 (`repeats`, int64, one per dim, >= 0, constant: it decides the shape) repeats the
// input along each dim. Element copies serve every type; quantized tensors keep the input's parameters.
#include "runtime/kernels/ref/tile.h"

#include <cinttypes>

#include "runtime/ops/activation_quant.h"
#include "runtime/ops/op.h"

namespace npurt {
namespace {

struct TileState : OpState {
  Shape in_shape;
  std::vector<int64_t> repeats;
  TileParams params;
};

Status ReadRepeats(const std::vector<const Tensor*>& inputs, std::vector<int64_t>* repeats) {
  NPURT_CHECK_OR_RETURN(inputs.size() == 2 && inputs[0] != nullptr && inputs[1] != nullptr, kModelInvalid,
                        "Tile: expects inputs (input, repeats)");
  const Tensor& x = *inputs[0];
  const Tensor& r = *inputs[1];
  NPURT_CHECK_OR_RETURN(DataTypeSize(x.dtype) != 0 && x.num_elements() >= 0, kModelInvalid, "Tile: bad input");
  NPURT_CHECK_OR_RETURN(r.dtype == DataType::kInt64 && r.rank() == 1, kModelInvalid,
                        "Tile: repeats must be a 1-D INT64 tensor");
  NPURT_CHECK_OR_RETURN(r.data != nullptr, kModelInvalid, "Tile: repeats must be constant (it decides the shape)");
  NPURT_CHECK_OR_RETURN(r.num_elements() == x.rank(), kModelInvalid, "Tile: %" PRId64 " repeats for rank %d",
                        r.num_elements(), x.rank());
  if (r.num_elements() > 0) NPURT_RETURN_IF_ERROR(ReadIntValues("Tile", &r, repeats));
  for (int64_t v : *repeats) NPURT_CHECK_OR_RETURN(v >= 0, kModelInvalid, "Tile: negative repeat %" PRId64, v);
  return Status::Ok();
}

Status TileInfer(const Attributes&, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  std::vector<int64_t> repeats;
  NPURT_RETURN_IF_ERROR(ReadRepeats(inputs, &repeats));
  const Tensor& x = *inputs[0];
  Shape out(x.shape);
  for (size_t d = 0; d < out.size(); ++d) {
    NPURT_CHECK_OR_RETURN(repeats[d] == 0 || out[d] <= INT64_MAX / repeats[d], kModelInvalid, "Tile: output too large");
    out[d] *= repeats[d];
  }
  NPURT_CHECK_OR_RETURN(NumElements(out) >= 0 && NumElements(out) <= INT64_MAX / static_cast<int64_t>(DataTypeSize(x.dtype)),
                        kModelInvalid, "Tile: output shape %s is too large", ShapeToString(out).c_str());
  (*outputs)[0].shape = std::move(out);
  (*outputs)[0].dtype = x.dtype;
  return Status::Ok();
}

Status TilePrepare(OpNode* node) {
  NPURT_RETURN_IF_ERROR(ExpectSameQuant("Tile", *node->inputs[0], *node->outputs[0]));
  auto state = std::make_unique<TileState>();
  const std::vector<const Tensor*> inputs(node->inputs.begin(), node->inputs.end());
  NPURT_RETURN_IF_ERROR(ReadRepeats(inputs, &state->repeats));
  state->in_shape = node->inputs[0]->shape;
  state->params.rank = node->inputs[0]->rank();
  state->params.element_size = DataTypeSize(node->inputs[0]->dtype);
  state->params.in_shape = state->in_shape.data();
  state->params.repeats = state->repeats.data();
  node->state = std::move(state);
  return Status::Ok();
}

Status TileEval(OpNode* node) {
  tile__ref(node->state_as<TileState>()->params, node->inputs[0]->data, node->outputs[0]->data);
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpTile = {"Tile", 2, 2, 1, 1, TileInfer, TilePrepare, TileEval, /*view=*/false, /*keeps_half_values=*/true};

}  // namespace npurt
