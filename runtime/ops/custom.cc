// Custom: a node the application computes (runtime/ops/custom_op.h, include/rknn_custom_op.h).
#include <fcntl.h>
#include <unistd.h>

#include <cinttypes>
#include <cstring>
#include <mutex>
#include <unordered_set>

#include "runtime/ops/custom_op.h"

namespace npurt {
namespace {

// Tensor types a callback may meet: what ONNX models carry outside quantization.
bool CustomTensorType(DataType t) {
  return t == DataType::kFloat32 || t == DataType::kInt64 || t == DataType::kInt32 || t == DataType::kBool ||
         t == DataType::kInt8 || t == DataType::kUint8 || t == DataType::kFloat16;
}

Status ReadOutputs(const Attributes& attrs, size_t count, std::vector<Tensor>* outputs) {
  std::vector<int64_t> shapes, types;
  NPURT_RETURN_IF_ERROR(attrs.GetInts(kCustomOutputShapesAttr, {}, &shapes));
  NPURT_RETURN_IF_ERROR(attrs.GetInts(kCustomOutputTypesAttr, {}, &types));
  NPURT_CHECK_OR_RETURN(types.size() == count, kModelInvalid, "Custom: %zu outputs but %zu recorded types", count,
                        types.size());
  size_t at = 0;
  for (size_t k = 0; k < count; ++k) {
    NPURT_CHECK_OR_RETURN(at < shapes.size() && shapes[at] >= 0 && shapes[at] <= RKNN_MAX_DIMS &&
                              static_cast<size_t>(shapes[at]) <= shapes.size() - at - 1,
                          kModelInvalid, "Custom: output %zu has no valid recorded shape", k);
    Shape shape(shapes.begin() + static_cast<std::ptrdiff_t>(at + 1),
                shapes.begin() + static_cast<std::ptrdiff_t>(at + 1 + static_cast<size_t>(shapes[at])));
    at += 1 + static_cast<size_t>(shapes[at]);
    NPURT_CHECK_OR_RETURN(NumElements(shape) >= 0 && NumElements(shape) <= UINT32_MAX, kModelInvalid,
                          "Custom: output %zu has a bad shape %s", k, ShapeToString(shape).c_str());
    NPURT_CHECK_OR_RETURN(types[k] >= 0 && types[k] < kNumDataTypes && IsValidDataType(static_cast<int>(types[k])) &&
                              CustomTensorType(static_cast<DataType>(types[k])),
                          kModelInvalid, "Custom: output %zu has type %" PRId64 ", not one a custom op may write", k,
                          types[k]);
    if (outputs != nullptr) {
      (*outputs)[k].shape = std::move(shape);
      (*outputs)[k].dtype = static_cast<DataType>(types[k]);
    }
  }
  NPURT_CHECK_OR_RETURN(at == shapes.size(), kModelInvalid, "Custom: recorded shapes have %zu extra values",
                        shapes.size() - at);
  return Status::Ok();
}

Status CustomInfer(const Attributes& attrs, const std::vector<const Tensor*>& inputs, std::vector<Tensor>* outputs) {
  std::string type;
  NPURT_RETURN_IF_ERROR(attrs.GetString(kCustomOpTypeAttr, "", &type));
  NPURT_CHECK_OR_RETURN(!type.empty() && type.size() < RKNN_MAX_NAME_LEN, kModelInvalid,
                        "Custom: the op type must have 1 to %d characters", RKNN_MAX_NAME_LEN - 1);
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i] == nullptr) continue;
    NPURT_CHECK_OR_RETURN(inputs[i]->rank() <= RKNN_MAX_DIMS && inputs[i]->num_elements() <= UINT32_MAX, kModelInvalid,
                          "Custom '%s': input %zu has shape %s (at most %d dims and 2^32 elements)", type.c_str(), i,
                          ShapeToString(inputs[i]->shape).c_str(), RKNN_MAX_DIMS);
  }
  return ReadOutputs(attrs, outputs->size(), outputs);
}

// What rknn_custom_op_context::internal_ctx points at. Any copy of the runtime in the process can recognize
// it: the npurt CLI and the Python module run the compiler's contexts on a runtime of their own beside
// librknnrt.so, and a plugin's call to rknn_custom_op_get_op_attr binds to librknnrt's.
struct NodeHandle {
  uint64_t magic;
  const NodeHandle* self;
  const Attributes* attrs;  // the node's own (reserved ones left out)
};
constexpr uint64_t kNodeHandleMagic = 0x6e70757274437573ull;

// The handles of this copy's live nodes: tells a node's context from garbage without touching memory.
std::mutex& LiveMutex() {
  static std::mutex m;
  return m;
}
std::unordered_set<const void*>& LiveStates() {
  static std::unordered_set<const void*> s;
  return s;
}

// Copies `n` bytes at `p` into `out` if they are mapped and readable, without faulting: the kernel reports an
// unmapped source of write(2) as EFAULT. For handles of another runtime copy in the process.
bool ReadIfMapped(const void* p, void* out, size_t n) {
  static std::mutex m;
  static int fds[2] = {-1, -1};
  std::lock_guard<std::mutex> lock(m);
  if (fds[0] < 0 && ::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) return false;
  const ssize_t written = ::write(fds[1], p, n);
  if (written <= 0) return false;
  uint8_t sink[64];
  const ssize_t got = ::read(fds[0], written == static_cast<ssize_t>(n) ? out : sink, static_cast<size_t>(written));
  return written == static_cast<ssize_t>(n) && got == written;
}

const NodeHandle* FindHandle(uint64_t internal_ctx) {
  const auto* h = reinterpret_cast<const NodeHandle*>(static_cast<uintptr_t>(internal_ctx));
  {
    std::lock_guard<std::mutex> lock(LiveMutex());
    if (LiveStates().count(h) != 0) return h;
  }
  NodeHandle copy{};
  if (h == nullptr || !ReadIfMapped(h, &copy, sizeof(copy))) return nullptr;
  return copy.magic == kNodeHandleMagic && copy.self == h ? h : nullptr;
}

// Runs an application callback; an exception thrown through it (a C++ callback) becomes a failure code
// instead of crossing the runtime (or, from a destructor, ending the process).
template <typename Fn>
int CallApplication(Fn fn) {
  try {
    return fn();
  } catch (...) {
    return RKNN_ERR_FAIL;
  }
}

struct CustomState : OpState {
  std::string op_type;
  Attributes attrs;  // the node's own (reserved ones left out)
  const rknn_custom_op* op = nullptr;
  bool initialized = false;  // init ran (or there is none): destroy runs at the end
  rknn_custom_op_context ctx{};
  std::vector<rknn_custom_op_tensor> inputs, outputs;
  NodeHandle handle{kNodeHandleMagic, &handle, &attrs};

  CustomState() {
    ctx.internal_ctx = static_cast<rknn_custom_op_interal_context>(reinterpret_cast<uintptr_t>(&handle));
    std::lock_guard<std::mutex> lock(LiveMutex());
    LiveStates().insert(&handle);
  }
  ~CustomState() override {
    Unbind();
    handle.magic = 0;
    std::lock_guard<std::mutex> lock(LiveMutex());
    LiveStates().erase(&handle);
  }
  void Unbind() {
    if (initialized && op != nullptr && op->destroy != nullptr) {
      static_cast<void>(CallApplication([this] { return op->destroy(&ctx); }));
    }
    initialized = false;
    op = nullptr;
    ctx.priv_data = nullptr;
  }
};

void DescribeTensor(const Tensor* t, uint32_t index, rknn_custom_op_tensor* out) {
  std::memset(out, 0, sizeof(*out));
  out->attr.index = index;
  out->mem.fd = -1;
  if (t == nullptr) return;  // an omitted optional input: all zero
  rknn_tensor_attr& a = out->attr;
  a.n_dims = static_cast<uint32_t>(t->rank());
  for (int d = 0; d < t->rank(); ++d) a.dims[d] = static_cast<uint32_t>(t->shape[static_cast<size_t>(d)]);
  std::strncpy(a.name, t->name.c_str(), RKNN_MAX_NAME_LEN - 1);
  a.n_elems = static_cast<uint32_t>(t->num_elements());
  a.size = static_cast<uint32_t>(t->bytes);
  a.fmt = t->rank() == 4 ? RKNN_TENSOR_NCHW : RKNN_TENSOR_UNDEFINED;
  a.type = static_cast<rknn_tensor_type>(t->dtype);
  a.qnt_type = RKNN_TENSOR_QNT_NONE;
  a.scale = 1.0f;
  a.w_stride = t->rank() == 4 ? a.dims[3] : 0;
  a.size_with_stride = a.size;
  out->mem.size = static_cast<uint32_t>(t->bytes);
}

// The tensors' addresses as they are now (the internal memory may be given after rknn_init).
void PointTensors(OpNode* node, CustomState* s) {
  for (size_t i = 0; i < node->inputs.size(); ++i) {
    s->inputs[i].mem.virt_addr = node->inputs[i] != nullptr ? node->inputs[i]->data : nullptr;
  }
  for (size_t i = 0; i < node->outputs.size(); ++i) s->outputs[i].mem.virt_addr = node->outputs[i]->data;
}

Status CustomPrepare(OpNode* node) {
  auto s = std::make_unique<CustomState>();
  NPURT_RETURN_IF_ERROR(node->attrs.GetString(kCustomOpTypeAttr, "", &s->op_type));
  for (const Attribute& a : node->attrs.list()) {
    if (!IsReservedCustomAttr(a.name)) s->attrs.Add(a);
  }
  for (const Tensor* t : node->inputs) {
    NPURT_CHECK_OR_RETURN(t == nullptr || (t->quant.empty() && CustomTensorType(t->dtype)), kModelInvalid,
                          "custom op '%s': input '%s' is %s%s; custom ops read float32 or plain integers",
                          s->op_type.c_str(), t->name.c_str(), t->quant.empty() ? "" : "quantized ",
                          DataTypeName(t->dtype));
  }
  for (const Tensor* t : node->outputs) {
    NPURT_CHECK_OR_RETURN(t->quant.empty(), kModelInvalid, "custom op '%s': output '%s' is quantized",
                          s->op_type.c_str(), t->name.c_str());
  }
  s->ctx.target = RKNN_TARGET_TYPE_CPU;
  s->inputs.resize(node->inputs.size());
  s->outputs.resize(node->outputs.size());
  for (size_t i = 0; i < node->inputs.size(); ++i) DescribeTensor(node->inputs[i], static_cast<uint32_t>(i), &s->inputs[i]);
  for (size_t i = 0; i < node->outputs.size(); ++i) {
    DescribeTensor(node->outputs[i], static_cast<uint32_t>(i), &s->outputs[i]);
  }
  node->state = std::move(s);
  return BindCustomNode(node);
}

Status CustomEval(OpNode* node) {
  CustomState* s = node->state_as<CustomState>();
  if (s->op == nullptr) {
    return NPURT_ERROR(kFail,
                       "custom op type '%s' has no implementation: register it with rknn_register_custom_ops "
                       "after rknn_init",
                       s->op_type.c_str());
  }
  PointTensors(node, s);
  const uint32_t n_in = static_cast<uint32_t>(s->inputs.size()), n_out = static_cast<uint32_t>(s->outputs.size());
  if (s->op->prepare != nullptr) {
    const int r =
        CallApplication([&] { return s->op->prepare(&s->ctx, s->inputs.data(), n_in, s->outputs.data(), n_out); });
    if (r != 0) return NPURT_ERROR(kFail, "the prepare callback of custom op '%s' returned %d", s->op_type.c_str(), r);
  }
  const int r =
      CallApplication([&] { return s->op->compute(&s->ctx, s->inputs.data(), n_in, s->outputs.data(), n_out); });
  if (r != 0) return NPURT_ERROR(kFail, "the compute callback of custom op '%s' returned %d", s->op_type.c_str(), r);
  return Status::Ok();
}

}  // namespace

extern const OpDef kOpCustom = {"Custom", 0, 64, 1, 64, CustomInfer, CustomPrepare, CustomEval,
                                /*view=*/false, /*keeps_half_values=*/false, /*custom=*/true};

bool IsReservedCustomAttr(const std::string& name) { return name.compare(0, 6, "npurt.") == 0; }

const rknn_custom_op* CustomOpTable::Find(const std::string& op_type) const {
  for (const auto& op : ops_) {
    if (op_type == op->op_type) return op.get();
  }
  return nullptr;
}

const rknn_custom_op* CustomOpTable::Add(const rknn_custom_op& op) {
  ops_.push_back(std::make_unique<rknn_custom_op>(op));
  return ops_.back().get();
}

void CustomOpTable::Remove(const std::string& op_type) {
  for (size_t k = 0; k < ops_.size(); ++k) {
    if (op_type == ops_[k]->op_type) {
      ops_.erase(ops_.begin() + static_cast<std::ptrdiff_t>(k));
      return;
    }
  }
}

CustomOpTable CustomOpTable::Clone() const {
  CustomOpTable copy;
  for (const auto& op : ops_) copy.Add(*op);
  return copy;
}

Status CheckCustomOp(const rknn_custom_op& op) {
  const size_t len = strnlen(op.op_type, RKNN_MAX_NAME_LEN);
  NPURT_CHECK_OR_RETURN(len > 0 && len < RKNN_MAX_NAME_LEN, kParamInvalid,
                        "op_type must be a NUL-terminated name of 1 to %d characters", RKNN_MAX_NAME_LEN - 1);
  int target;
  std::memcpy(&target, &op.target, sizeof(target));  // any int a C caller stored
  if (target == RKNN_TARGET_TYPE_GPU) {
    return NPURT_ERROR(kParamInvalid,
                       "custom op '%s' targets the GPU: npurt has no OpenCL device and runs custom ops on the CPU; "
                       "register a CPU implementation (target RKNN_TARGET_TYPE_CPU)",
                       op.op_type);
  }
  NPURT_CHECK_OR_RETURN(target == RKNN_TARGET_TYPE_CPU, kParamInvalid,
                        "custom op '%s': unknown target %d (RKNN_TARGET_TYPE_CPU is 1)", op.op_type, target);
  if (op.compute == nullptr) {
    return NPURT_ERROR(kParamInvalid, "custom op '%s': compute is required%s", op.op_type,
                       op.compute_native != nullptr ? " (compute_native is not supported by librknnrt 2.3.2)" : "");
  }
  return Status::Ok();
}

bool IsCustomNode(const OpNode& node) { return node.def != nullptr && node.def->custom; }

std::string CustomOpTypeOf(const OpNode& node) {
  std::string type;
  if (IsCustomNode(node) && !node.attrs.GetString(kCustomOpTypeAttr, "", &type).ok()) type.clear();
  return type;
}

Status BindCustomNode(OpNode* node) {
  if (!IsCustomNode(*node) || node->state == nullptr || node->custom_ops == nullptr) return Status::Ok();
  CustomState* s = node->state_as<CustomState>();
  if (s->op != nullptr) return Status::Ok();  // bound already
  const rknn_custom_op* op = node->custom_ops->Find(s->op_type);
  if (op == nullptr) return Status::Ok();
  s->op = op;
  s->ctx.priv_data = nullptr;
  if (op->init != nullptr) {
    PointTensors(node, s);
    const int r = CallApplication([&] {
      return op->init(&s->ctx, s->inputs.data(), static_cast<uint32_t>(s->inputs.size()), s->outputs.data(),
                      static_cast<uint32_t>(s->outputs.size()));
    });
    if (r != 0) {
      s->op = nullptr;
      return NPURT_ERROR(kFail, "the init callback of custom op '%s' (node '%s') returned %d%s", s->op_type.c_str(),
                         node->name.c_str(), r,
                         r == RKNN_WARNING_SKIP_CUSTOM_OP_COMPUTE
                             ? " (RKNN_WARNING_SKIP_CUSTOM_OP_COMPUTE: npurt has no built-in implementation of a "
                               "custom op type)"
                             : "");
    }
  }
  s->initialized = true;
  return Status::Ok();
}

void UnbindCustomNode(OpNode* node) {
  if (!IsCustomNode(*node) || node->state == nullptr) return;
  node->state_as<CustomState>()->Unbind();
}

bool LookupCustomOpAttr(const rknn_custom_op_context* op_ctx, const char* name, rknn_custom_op_attr* out) {
  std::memset(out, 0, sizeof(*out));
  std::strncpy(out->name, name, RKNN_MAX_NAME_LEN - 1);
  const NodeHandle* handle = FindHandle(op_ctx->internal_ctx);
  if (handle == nullptr) return false;
  const Attribute* a = handle->attrs->Find(name);
  if (a == nullptr) return true;  // the node has no such attribute: n_elems 0, data NULL
  switch (a->type) {
    case AttrType::kInt:
      out->dtype = RKNN_TENSOR_INT64;
      out->n_elems = 1;
      out->data = const_cast<int64_t*>(&a->i);
      break;
    case AttrType::kFloat:
      out->dtype = RKNN_TENSOR_FLOAT32;
      out->n_elems = 1;
      out->data = const_cast<float*>(&a->f);
      break;
    case AttrType::kInts:
      out->dtype = RKNN_TENSOR_INT64;
      out->n_elems = static_cast<uint32_t>(a->ints.size());
      out->data = a->ints.empty() ? nullptr : const_cast<int64_t*>(a->ints.data());
      break;
    case AttrType::kFloats:
      out->dtype = RKNN_TENSOR_FLOAT32;
      out->n_elems = static_cast<uint32_t>(a->floats.size());
      out->data = a->floats.empty() ? nullptr : const_cast<float*>(a->floats.data());
      break;
    case AttrType::kString:
      out->dtype = RKNN_TENSOR_UINT8;
      out->n_elems = static_cast<uint32_t>(a->s.size());
      out->data = const_cast<char*>(a->s.c_str());
      break;
  }
  return true;
}

}  // namespace npurt
