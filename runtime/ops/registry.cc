// The op table, generated from ops.def. No static self-registration: a build
// lists its ops here explicitly. Declarations are weak so that a selective
// build may leave op families out; an op that is not linked is simply absent
// (tests/ops/registry_test.cc checks that the full build links every op).
#include <cinttypes>
#include <cstring>

#include "runtime/ops/op.h"

namespace npurt {

#define NPURT_OP(name, family) extern const OpDef kOp##name __attribute__((weak));
#include "runtime/ops/ops.def"
#undef NPURT_OP

const std::vector<const OpDef*>& AllOps() {
  static const std::vector<const OpDef*> ops = [] {
    std::vector<const OpDef*> linked;
    for (const OpDef* op : {
#define NPURT_OP(name, family) &kOp##name,
#include "runtime/ops/ops.def"
#undef NPURT_OP
         }) {
      if (op != nullptr) linked.push_back(op);
    }
    return linked;
  }();
  return ops;
}

const OpDef* FindOp(const std::string& name) {
  for (const OpDef* op : AllOps()) {
    if (name == op->name) return op;
  }
  return nullptr;
}

int ThreadsFor(const OpNode& node, int64_t work) {
  // A worker's wake-up and the join cost a few microseconds: worth it from about
  // a hundred thousand multiply-accumulates per op (tens of microseconds of work).
  constexpr int64_t kMinParallelWork = 1 << 17;
  return work >= kMinParallelWork ? node.threads : 1;
}

Status ExpectInputs(const char* op, const std::vector<const Tensor*>& inputs, size_t count) {
  NPURT_CHECK_OR_RETURN(inputs.size() == count, kModelInvalid, "%s: expects %zu inputs, got %zu", op, count,
                        inputs.size());
  for (size_t i = 0; i < count; ++i) {
    NPURT_CHECK_OR_RETURN(inputs[i] != nullptr && inputs[i]->num_elements() >= 0, kModelInvalid,
                          "%s: input %zu is missing or has a bad shape", op, i);
  }
  return Status::Ok();
}

bool IsArithmeticType(DataType t) { return t == DataType::kFloat32 || t == DataType::kInt32 || t == DataType::kInt64; }

Status ExpectInputType(const char* op, const Tensor* t, DataType type, int index) {
  if (t == nullptr) return NPURT_ERROR(kModelInvalid, "%s: input %d is missing", op, index);
  if (t->dtype != type) {
    return NPURT_ERROR(kModelInvalid, "%s: input %d has type %s, expected %s", op, index, DataTypeName(t->dtype),
                       DataTypeName(type));
  }
  return Status::Ok();
}

Status NormalizeAxis(const char* op, int64_t axis, int rank, int* out) {
  if (axis < -rank || axis >= rank || (rank == 0 && axis != 0)) {
    return NPURT_ERROR(kModelInvalid, "%s: axis %" PRId64 " out of range for rank %d", op, axis, rank);
  }
  *out = static_cast<int>(axis < 0 ? axis + rank : axis);
  return Status::Ok();
}

Status ReadIntValues(const char* op, const Tensor* t, std::vector<int64_t>* out) {
  if (t == nullptr || t->data == nullptr) {
    return NPURT_ERROR(kModelInvalid, "%s: expects a constant integer input", op);
  }
  const int64_t n = t->num_elements();
  if (n < 0) return NPURT_ERROR(kModelInvalid, "%s: bad shape %s", op, ShapeToString(t->shape).c_str());
  out->resize(static_cast<size_t>(n));
  if (t->dtype == DataType::kInt64) {
    if (n > 0) std::memcpy(out->data(), t->data, static_cast<size_t>(n) * 8);
  } else if (t->dtype == DataType::kInt32) {
    const int32_t* p = t->as<int32_t>();
    for (int64_t i = 0; i < n; ++i) (*out)[i] = p[i];
  } else {
    return NPURT_ERROR(kModelInvalid, "%s: integer input has type %s", op, DataTypeName(t->dtype));
  }
  return Status::Ok();
}

}  // namespace npurt
