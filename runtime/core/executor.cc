#include "runtime/core/executor.h"

#include <algorithm>
#include <atomic>

#include "runtime/core/half_storage.h"
#include "runtime/core/log.h"
#include "runtime/core/thread_pool.h"

namespace npurt {
namespace {

struct RoundSlices {
  RoundToHalfFn round;
  float* data;
  std::atomic<int64_t> overflowed{0};
};

constexpr int64_t kRoundBlock = 1 << 14;  // values per slice unit: 64 KiB of float32

void RoundSlice(void* arg, int64_t begin, int64_t end, int64_t total) {
  RoundSlices* r = static_cast<RoundSlices*>(arg);
  const int64_t from = begin * kRoundBlock, to = std::min(end * kRoundBlock, total);
  if (from < to) r->overflowed += r->round(r->data + from, to - from);
}

// An output's fp16 rounding, over the node's threads when it is large: the rounding is a pass over memory,
// which one thread cannot keep up with next to ops that use every thread.
int64_t RoundOutput(const OpNode& node, Tensor* t) {
  const int64_t n = t->num_elements();
  const int64_t blocks = (n + kRoundBlock - 1) / kRoundBlock;
  if (node.threads <= 1 || blocks < 4) return node.round_to_half(t->as<float>(), n);
  struct Arg {
    RoundSlices slices;
    int64_t total;
  } arg{{node.round_to_half, t->as<float>()}, n};
  ThreadPool::Shared().ParallelFor(blocks, node.threads, [](void* a, int64_t begin, int64_t end) {
    Arg* x = static_cast<Arg*>(a);
    RoundSlice(&x->slices, begin, end, x->total);
  }, &arg);
  return arg.slices.overflowed.load();
}

}  // namespace

Status PrepareNodes(std::vector<OpNode>* nodes) {
  for (OpNode& node : *nodes) {
    // Infer sees constant values only, exactly as the compiler did.
    std::vector<Tensor> views;
    views.reserve(node.inputs.size());
    std::vector<const Tensor*> inputs;
    for (const Tensor* t : node.inputs) {
      if (t == nullptr) {
        inputs.push_back(nullptr);
        continue;
      }
      views.push_back(*t);
      if (!t->constant) views.back().data = nullptr;
      inputs.push_back(&views.back());
    }
    std::vector<Tensor> inferred(node.outputs.size());
    Status s = node.def->infer(node.attrs, inputs, &inferred);
    if (!s.ok()) return Status(s.code(), "op '" + node.name + "': " + s.message());
    for (size_t i = 0; i < inferred.size(); ++i) {
      const Tensor* recorded = node.outputs[i];
      if (inferred[i].shape != recorded->shape || inferred[i].dtype != recorded->dtype) {
        return NPURT_ERROR(kModelInvalid, "op '%s' (%s): output %zu is recorded as %s %s but computes to %s %s",
                           node.name.c_str(), node.def->name, i, ShapeToString(recorded->shape).c_str(),
                           DataTypeName(recorded->dtype), ShapeToString(inferred[i].shape).c_str(),
                           DataTypeName(inferred[i].dtype));
      }
    }
    if (node.def->prepare != nullptr) {
      s = node.def->prepare(&node);
      if (!s.ok()) return Status(s.code(), "op '" + node.name + "': " + s.message());
    }
  }
  return Status::Ok();
}

Status RunNodes(std::vector<OpNode>* nodes, Profiler* profiler, int64_t deadline_ns, HalfOverflows* overflows) {
  const int count = static_cast<int>(nodes->size());
  for (int i = 0; i < count; ++i) {
    OpNode& node = (*nodes)[i];
    if (profiler) profiler->BeginOp(i, node);
    Status s = node.def->eval(&node);
    if (s.ok() && node.round_to_half != nullptr) {
      int64_t overflowed = 0;
      for (Tensor* t : node.outputs) {
        if (t->dtype == DataType::kFloat32) overflowed += RoundOutput(node, t);
      }
      if (overflowed != 0 && overflows != nullptr) {
        if (overflows->first_op < 0) {
          overflows->first_op = i;
          overflows->first_op_values = overflowed;
        }
        overflows->values += overflowed;
      }
    }
    if (profiler) profiler->EndOp(i, node);
    if (!s.ok()) return Status(s.code(), "op '" + node.name + "' (" + node.def->name + "): " + s.message());
    if (deadline_ns != 0 && i + 1 < count && NowNs() > deadline_ns) {
      return NPURT_ERROR(kTimeout, "the job timed out (NPURT_JOB_TIMEOUT_MS) after op '%s', %d of %d",
                         node.name.c_str(), i + 1, count);
    }
  }
  return Status::Ok();
}

}  // namespace npurt
