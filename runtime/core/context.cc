#include "runtime/core/context.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "runtime/core/executor.h"
#include "runtime/core/half_storage.h"
#include "runtime/core/layout_pass.h"
#include "runtime/core/log.h"
#include "runtime/core/thread_pool.h"
#include "runtime/device/job_policy.h"

namespace npurt {
namespace {

// Arena and weight offsets in a model are multiples of 64 (the emitter's alignment), so memory the
// application gives must start on a 64-byte boundary for every tensor to stay aligned.
constexpr int kTensorAlignment = 64;

// A model read in place from the application's own buffer (RKNN_FLAG_MODEL_BUFFER_ZERO_COPY) lives only as
// long as the application keeps that buffer: a sharing context could outlive it.
Status WeightsNotLendable() {
  return NPURT_ERROR(kParamInvalid, "the context in extend->ctx reads its model in place from the application's "
                                    "buffer (RKNN_FLAG_MODEL_BUFFER_ZERO_COPY), which may be freed after it: its "
                                    "weights cannot be shared; init it from a path, a copy or rknn_create_mem memory");
}

Status InfoOnlyError() {
  return NPURT_ERROR(kCtxInvalid, "context was created with RKNN_FLAG_COLLECT_MODEL_INFO_ONLY and cannot run");
}

// Memory the application gives for the arena or the weights: large enough and aligned.
Status CheckGivenMemory(const char* what, const uint8_t* data, uint64_t size, uint64_t need, const char* field) {
  if (size < need) {
    return NPURT_ERROR(kParamInvalid, "%s memory of %llu bytes; the model needs %llu (RKNN_QUERY_MEM_SIZE %s)", what,
                       static_cast<unsigned long long>(size), static_cast<unsigned long long>(need), field);
  }
  if (reinterpret_cast<uintptr_t>(data) % kTensorAlignment != 0) {
    return NPURT_ERROR(kParamInvalid, "%s memory at %p is not %d-byte aligned (mind the offset)", what,
                       static_cast<const void*>(data), kTensorAlignment);
  }
  return Status::Ok();
}

// Arena and I/O buffers are anonymous mappings: page aligned, zero filled on
// first touch, so a large plan costs address space, not resident memory,
// until it is used.
uint8_t* MapZeroed(uint64_t bytes) {
  if (bytes == 0) bytes = 1;
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? nullptr : static_cast<uint8_t*>(p);
}

void Unmap(uint8_t* p, uint64_t bytes) {
  if (p != nullptr) ::munmap(p, bytes == 0 ? 1 : bytes);
}

// The context's own profiler and a caller's observer, for one run: the
// observer begins before and ends after the timed span.
class TeeProfiler final : public Profiler {
 public:
  TeeProfiler(Profiler* timed, Profiler* observer) : timed_(timed), observer_(observer) {}
  void BeginOp(int index, const OpNode& node) override {
    observer_->BeginOp(index, node);
    timed_->BeginOp(index, node);
  }
  void EndOp(int index, const OpNode& node) override {
    timed_->EndOp(index, node);
    observer_->EndOp(index, node);
  }

 private:
  Profiler* timed_;
  Profiler* observer_;
};

}  // namespace

Context::Context(std::shared_ptr<const Model> model, const ContextOptions& options)
    : model_(std::move(model)), options_(options), graph_(&model_->graph()), weights_(model_->weights()) {}

Context::~Context() {
  if (worker_.joinable()) {
    {
      std::lock_guard<std::mutex> lock(job_mutex_);
      stopping_ = true;
    }
    job_cv_.notify_all();
    worker_.join();  // the frame in flight finishes first
  }
  if (arena_owned_) Unmap(arena_, model_->max_arena_size());
  if (scratch_ != nullptr) Unmap(scratch_, scratch_bytes_);
  for (size_t i = 0; i < input_buffers_.size(); ++i) Unmap(input_buffers_[i], model_->max_io_bytes(true, i));
  for (size_t i = 0; i < output_buffers_.size(); ++i) Unmap(output_buffers_[i], model_->max_io_bytes(false, i));
  for (void* p : user_outputs_) std::free(p);
}

Status Context::Create(std::shared_ptr<const Model> model, const ContextOptions& options,
                       std::unique_ptr<Context>* out) {
  return Create(std::move(model), options, CustomOpTable(), out);
}

Status Context::Create(std::shared_ptr<const Model> model, const ContextOptions& options, CustomOpTable custom_ops,
                       std::unique_ptr<Context>* out) {
  std::unique_ptr<Context> ctx(new (std::nothrow) Context(std::move(model), options));
  if (!ctx) return NPURT_ERROR(kMallocFail, "out of memory creating a context");
  ctx->custom_ops_ = std::move(custom_ops);  // before Init: each node's init runs as it is prepared
  NPURT_RETURN_IF_ERROR(ctx->Init());
  *out = std::move(ctx);
  return Status::Ok();
}

Status Context::Duplicate(std::unique_ptr<Context>* out) const {
  ContextOptions options = options_;
  options.shares_weights = true;
  options.weights_from = this;  // a remove_weight model's copy reads the same shared weights
  return Create(model_, options, custom_ops_.Clone(), out);  // and calls the same callbacks
}

Status Context::RegisterCustomOps(const rknn_custom_op* ops, uint32_t count) {
  static_cast<void>(WaitIdle());  // the async worker runs the nodes
  if (options_.model_info_only) return InfoOnlyError();
  for (uint32_t k = 0; k < count; ++k) {
    Status s = CheckCustomOp(ops[k]);
    if (!s.ok()) return Status(s.code(), "op " + std::to_string(k) + ": " + s.message());
    const char* type = ops[k].op_type;
    bool repeated = custom_ops_.Find(type) != nullptr;
    for (uint32_t j = 0; j < k; ++j) repeated |= std::strcmp(type, ops[j].op_type) == 0;
    NPURT_CHECK_OR_RETURN(!repeated, kParamInvalid, "op %u: custom op type '%s' is registered already", k, type);
  }
  const std::vector<std::string> used = CustomOpTypes();
  for (uint32_t k = 0; k < count; ++k) {
    const std::string type = ops[k].op_type;
    if (std::find(used.begin(), used.end(), type) == used.end()) {
      NPURT_LOG(kWarning, "rknn_register_custom_ops: the model has no custom op of type '%s'", type.c_str());
    }
    custom_ops_.Add(ops[k]);
  }
  // All or nothing: an init that fails takes back every type of this call (destroy runs for the nodes
  // whose init ran), so the application may fix the cause and register the same array again.
  for (OpNode& node : nodes_) {
    Status s = BindCustomNode(&node);
    if (s.ok()) continue;
    for (uint32_t k = 0; k < count; ++k) {
      for (OpNode& n : nodes_) {
        if (CustomOpTypeOf(n) == ops[k].op_type) UnbindCustomNode(&n);
      }
      custom_ops_.Remove(ops[k].op_type);
    }
    return s;
  }
  return Status::Ok();
}

std::vector<std::string> Context::CustomOpTypes() const {
  std::vector<std::string> types;
  for (const OpDesc& op : graph_->ops) {
    std::string type;
    if (!op.def->custom || !op.attrs.GetString(kCustomOpTypeAttr, "", &type).ok()) continue;
    if (std::find(types.begin(), types.end(), type) == types.end()) types.push_back(type);
  }
  return types;
}

Status Context::ResolveSharedConstants(const Context* owner) {
  if (!model_->has_shared_constants()) return Status::Ok();
  if (owner == nullptr) {
    return NPURT_ERROR(kModelInvalid, "the model was converted with remove_weight: its weights are another "
                                      "model's; init it with RKNN_FLAG_SHARE_WEIGHT_MEM and extend->ctx set to "
                                      "a context of the model that has them");
  }
  if (options_.weights_outside || owner->options_.weights_outside) {
    return NPURT_ERROR(kParamInvalid, "shared weights (RKNN_FLAG_SHARE_WEIGHT_MEM) are read where the sharing "
                                      "context's model holds them: neither context may take RKNN_FLAG_MEM_ALLOC_OUTSIDE");
  }
  for (const std::shared_ptr<const Model>& lender : owner->weight_models_) {
    if (!lender->weights_outlive_caller()) return WeightsNotLendable();
  }
  if (!owner->model_->weights_outlive_caller()) return WeightsNotLendable();
  for (const ModelGraph* g : model_->all_graphs()) {
    std::vector<const uint8_t*>& data = shared_constants_[g];
    data.assign(g->tensors.size(), nullptr);
    for (size_t i = 0; i < g->tensors.size(); ++i) {
      const TensorDesc& d = g->tensors[i];
      if (d.storage != Storage::kShared) continue;
      data[i] = owner->FindConstant(d.content_hash, d.size, d.dtype);
      if (data[i] == nullptr) {
        return NPURT_ERROR(kModelInvalid, "weight '%s' (%s, %llu bytes) of this remove_weight model is not among the "
                                          "weights of the context given in extend->ctx: convert both models from the "
                                          "same weights and settings (float type, quantization)",
                           d.name.c_str(), DataTypeName(d.dtype), static_cast<unsigned long long>(d.size));
      }
    }
  }
  weight_models_ = owner->weight_models_;
  weight_models_.push_back(owner->model_);
  return Status::Ok();
}

const uint8_t* Context::FindConstant(uint64_t content_hash, uint64_t size, DataType dtype) const {
  for (const ModelGraph* g : model_->all_graphs()) {
    for (size_t i = 0; i < g->tensors.size(); ++i) {
      const TensorDesc& d = g->tensors[i];
      if (d.content_hash != content_hash || d.size != size || d.dtype != dtype) continue;
      if (d.storage == Storage::kConstant) return model_->weights() + d.offset;
      if (d.storage == Storage::kShared) {
        auto it = shared_constants_.find(g);
        if (it != shared_constants_.end() && it->second[i] != nullptr) return it->second[i];
      }
    }
  }
  return nullptr;
}

Status Context::Init() {
  const Model& m = *model_;
  const Context* weights_from = options_.weights_from;
  options_.weights_from = nullptr;  // not kept: the lending context may go away first
  if (options_.model_info_only) return Status::Ok();  // sizes only: nothing to read, shared or not
  NPURT_RETURN_IF_ERROR(ResolveSharedConstants(weights_from));
  {
    const MemorySizes sizes = memory_sizes();
    NPURT_RETURN_IF_ERROR(device_memory_.Acquire(sizes.total_allocated - (options_.internal_outside ? 0 : sizes.internal),
                                                 "the model's weights and I/O"));
  }
  // With the internal memory outside, arena tensors point nowhere until SetInternalMemory. A
  // dynamic-shape model's arena and I/O buffers fit its largest shape set.
  const uint64_t arena_bytes = m.max_arena_size();
  if (!options_.internal_outside) {
    NPURT_RETURN_IF_ERROR(arena_memory_.Acquire(arena_bytes, "the model's arena"));
    arena_ = MapZeroed(arena_bytes);
    if (arena_ == nullptr) {
      return NPURT_ERROR(kMallocFail, "cannot allocate the %llu-byte arena", static_cast<unsigned long long>(arena_bytes));
    }
    arena_owned_ = true;
    internal_set_ = true;
  }
  weights_set_ = !options_.weights_outside;
  for (int pass = 0; pass < 2; ++pass) {
    const bool is_input = pass == 0;
    std::vector<uint8_t*>& buffers = is_input ? input_buffers_ : output_buffers_;
    buffers.assign(is_input ? m.inputs().size() : m.outputs().size(), nullptr);
    for (size_t i = 0; i < buffers.size(); ++i) {
      const uint64_t bytes = m.max_io_bytes(is_input, i);
      buffers[i] = MapZeroed(bytes);
      if (buffers[i] == nullptr) {
        return NPURT_ERROR(kMallocFail, "cannot allocate %llu bytes for %s %zu", static_cast<unsigned long long>(bytes),
                           is_input ? "input" : "output", i);
      }
    }
  }
  threads_ = ThreadPool::DefaultThreads();
  // Every shape set's ops prepare now, so that rknn_set_input_shapes cannot meet a broken set later.
  for (size_t k = 0; k < m.shape_sets().size(); ++k) {
    Status s = BindGraph(m.shape_sets()[k]);
    if (!s.ok()) return Status(s.code(), "shape set " + std::to_string(k) + ": " + s.message());
  }
  NPURT_RETURN_IF_ERROR(BindGraph(m.graph()));
  input_set_.assign(m.inputs().size(), false);
  input_bindings_.resize(m.inputs().size());
  output_bindings_.resize(m.outputs().size());
  return Status::Ok();
}

Status Context::BindGraph(const ModelGraph& g) {
  graph_ = &g;
  tensors_.assign(g.tensors.size(), Tensor());
  for (size_t i = 0; i < tensors_.size(); ++i) {
    const TensorDesc& d = g.tensors[i];
    Tensor& t = tensors_[i];
    t.name = d.name;
    t.shape = d.shape;
    t.dtype = d.dtype;
    t.bytes = d.size;
    t.quant = d.quant;
    switch (d.storage) {
      case Storage::kConstant:
        // Ops never write constants (the model verifier rejects it), so sharing is safe.
        t.data = const_cast<uint8_t*>(weights_ + d.offset);
        t.constant = true;
        break;
      case Storage::kShared:
        t.data = const_cast<uint8_t*>(shared_constants_.at(&g)[i]);  // resolved in Init
        t.constant = true;
        break;
      case Storage::kArena: t.data = arena_ != nullptr ? arena_ + d.offset : nullptr; break;
      case Storage::kInput: t.data = input_buffers_[d.offset]; break;
      case Storage::kOutput: t.data = output_buffers_[d.offset]; break;
    }
  }
  nodes_.clear();
  nodes_.resize(g.ops.size());
  round_to_half_ = model_->float_dtype() == DataType::kFloat16 ? ChooseRoundToHalf() : nullptr;
  for (size_t k = 0; k < nodes_.size(); ++k) {
    const OpDesc& d = g.ops[k];
    OpNode& n = nodes_[k];
    n.threads = threads_;
    // A view's values are its input's; ops that keep fp16 values leave nothing to round.
    n.round_to_half = d.def->view || d.def->keeps_half_values ? nullptr : round_to_half_;
    n.may_pack_constants = !options_.weights_outside;
    n.custom_ops = &custom_ops_;
    n.def = d.def;
    n.name = d.name;
    n.attrs = d.attrs;
    for (int i : d.inputs) n.inputs.push_back(i < 0 ? nullptr : &tensors_[i]);
    for (int o : d.outputs) n.outputs.push_back(&tensors_[o]);
  }
  NPURT_RETURN_IF_ERROR(PrepareNodes(&nodes_));
  NPURT_RETURN_IF_ERROR(BindScratch());
  // Layer dumps read every tensor in the ONNX layout too.
  if (!options_.keep_onnx_layouts && !LogEnabled(LogLevel::kLayer)) {
    std::vector<bool> movable(tensors_.size());
    // Inputs too: ImportInput writes them in whichever layout their first kernels read, so a uint8
    // NHWC image goes to an NHWC convolution in one pass. Outputs and weights keep the ONNX layout.
    for (size_t i = 0; i < movable.size(); ++i) {
      movable[i] = g.tensors[i].storage == Storage::kArena || g.tensors[i].storage == Storage::kInput;
    }
    const int channels_last = AssignChannelsLast(&nodes_, &tensors_, movable);
    if (LogEnabled(LogLevel::kDebug)) {
      const std::vector<std::string> relayout = NodesThatRelayout(nodes_);
      std::string list;
      for (const std::string& name : relayout) list += (list.empty() ? "" : ", ") + name;
      NPURT_LOG(kDebug, "layout pass: %d tensors channels-last; %zu NHWC kernels relayout (<in, >out): %s",
                channels_last, relayout.size(), list.c_str());
    }
  }
  if (LogEnabled(LogLevel::kLayer)) {
    profiler_ = std::make_unique<LayerDebugProfiler>(nodes_.size());
  } else if (options_.collect_perf) {
    profiler_ = std::make_unique<OpTimeProfiler>(nodes_.size());
  }
  perf_detail_stale_ = true;
  return Status::Ok();
}

Status Context::BindScratch() {
  uint64_t bytes = 0;
  for (const OpNode& node : nodes_) bytes = std::max<uint64_t>(bytes, node.scratch_bytes);
  if (bytes > scratch_bytes_) {
    // A larger shape set's prepare asked for more: the block only grows, and only here (rknn_init,
    // rknn_set_input_shapes), never in rknn_run.
    uint8_t* larger = MapZeroed(bytes);
    if (larger == nullptr) {
      return NPURT_ERROR(kMallocFail, "cannot allocate %llu bytes of kernel scratch", static_cast<unsigned long long>(bytes));
    }
    if (scratch_ != nullptr) Unmap(scratch_, scratch_bytes_);
    scratch_ = larger;
    scratch_bytes_ = bytes;
  }
  for (OpNode& node : nodes_) node.scratch = node.scratch_bytes > 0 ? scratch_ : nullptr;
  return Status::Ok();
}

Status Context::SetShapeSet(size_t index) {
  // Async: the frame in flight finishes on the old graph and is dropped with its status -- its
  // outputs have the old shapes, which can no longer be read (documented in docs/c_api.md).
  static_cast<void>(WaitIdle());
  if (options_.model_info_only) return InfoOnlyError();
  NPURT_RETURN_IF_ERROR(unusable_);
  const std::vector<ModelGraph>& sets = model_->shape_sets();
  if (index >= sets.size()) {
    return NPURT_ERROR(kParamInvalid, "shape set %zu out of range (the model has %zu)", index, sets.size());
  }
  if (graph_ == &sets[index]) return Status::Ok();
  // New sizes: what was set or bound for the old shapes no longer applies (as on the board).
  input_set_.assign(input_set_.size(), false);
  for (IoBinding& b : input_bindings_) b = IoBinding();
  for (IoBinding& b : output_bindings_) b = IoBinding();
  has_run_ = false;
  previous_tensors_.clear();
  previous_outputs_.clear();
  frame_in_tensors_ = false;
  output_frame_ = 0;
  job_status_ = Status::Ok();
  const ModelGraph* previous = graph_;
  Status s = BindGraph(sets[index]);
  if (!s.ok()) {
    // Every set prepared at init, so this is out of memory: back to the graph the context had, or,
    // if even that fails, a context that refuses to run rather than one with half-prepared ops.
    Status back = BindGraph(*previous);
    if (!back.ok()) unusable_ = Status(back.code(), "the context could not restore its shape set: " + back.message());
    return s;
  }
  return Status::Ok();
}

Status Context::SetInputs(const std::vector<InputArg>& inputs) {
  static_cast<void>(WaitIdle());  // a frame in flight reads these tensors; its status waits for the next Run
  if (options_.model_info_only) return InfoOnlyError();
  for (const InputArg& in : inputs) {
    if (in.index >= graph_->inputs.size()) {
      return NPURT_ERROR(kParamInvalid, "input index %u out of range (model has %zu inputs)", in.index,
                         graph_->inputs.size());
    }
  }
  for (const InputArg& in : inputs) {
    NPURT_RETURN_IF_ERROR(ImportOne(in));
    input_set_[in.index] = true;
  }
  return Status::Ok();
}

Status Context::ResolveInputLayout(uint32_t index, bool pass_through, StatusCode error, HostBuffer* b) const {
  if (pass_through) {
    // Pass-through data is already in the native layout and type.
    const IoAttr native = DescribeIo(*graph_, true, static_cast<int>(index), AttrView::kNative);
    if (b->dtype != native.dtype) {
      return Status(error, "input " + std::to_string(index) + ": pass_through needs " + DataTypeName(native.dtype) +
                               " data (the native type), got " + DataTypeName(b->dtype));
    }
    b->fmt = native.fmt;
    b->w_stride = native.w_stride;
    b->c2 = native.c2;
  } else if (tensors_[graph_->inputs[index].tensor].shape.size() == 4 && b->fmt == Layout::kNC1HWC2) {
    return Status(error, "input " + std::to_string(index) + ": NC1HWC2 data needs pass_through=1");
  }
  return Status::Ok();
}

Status Context::ImportOne(const InputArg& in) {
  const IoDesc& io = graph_->inputs[in.index];
  HostBuffer src = in.buffer;
  NPURT_RETURN_IF_ERROR(ResolveInputLayout(in.index, in.pass_through, StatusCode::kInputInvalid, &src));
  Tensor& t = tensors_[io.tensor];
  Status s = ImportInput(src, io, !in.pass_through && in.normalize, &t);
  if (!s.ok()) return Status(s.code(), "input " + std::to_string(in.index) + ": " + s.message());
  // An fp16 model reads its float inputs as the NPU does: converted to fp16 (after the normalization).
  if (round_to_half_ != nullptr && t.dtype == DataType::kFloat32) {
    const int64_t overflowed = round_to_half_(t.as<float>(), t.num_elements());
    if (overflowed != 0) {
      NPURT_LOG(kWarning, "input %u: %lld values beyond fp16's range (|x| > 65504) became +-inf in the fp16 model",
                in.index, static_cast<long long>(overflowed));
    }
  }
  return Status::Ok();
}

Status Context::BindIo(bool is_input, uint32_t index, IoBinding binding) {
  static_cast<void>(WaitIdle());  // a frame in flight reads these tensors; its status waits for the next Run
  if (options_.model_info_only) return InfoOnlyError();
  const ModelGraph& g = *graph_;
  const size_t count = is_input ? g.inputs.size() : g.outputs.size();
  const char* kind = is_input ? "input" : "output";
  if (index >= count) return NPURT_ERROR(kParamInvalid, "%s index %u out of range (model has %zu)", kind, index, count);
  const IoDesc& io = is_input ? g.inputs[index] : g.outputs[index];
  const Tensor& t = tensors_[io.tensor];
  HostBuffer& b = binding.buffer;
  if (is_input) {
    NPURT_RETURN_IF_ERROR(ResolveInputLayout(index, binding.pass_through, StatusCode::kParamInvalid, &b));
  } else if (t.shape.size() == 4 && b.fmt == Layout::kNC1HWC2) {
    const IoAttr native = DescribeIo(g, false, static_cast<int>(index), AttrView::kNative);
    b.c2 = native.c2;
    if (b.w_stride == 0) b.w_stride = native.w_stride;
  }
  const uint64_t need = HostBufferBytes(t.shape, b);
  if (b.size < need) {
    return NPURT_ERROR(kParamInvalid, "%s %u: the memory holds %zu bytes, %s %s %s needs %llu", kind, index, b.size,
                       ShapeToString(t.shape).c_str(), LayoutName(b.fmt), DataTypeName(b.dtype),
                       static_cast<unsigned long long>(need));
  }
  (is_input ? input_bindings_ : output_bindings_)[index] = std::move(binding);
  if (is_input) input_set_[index] = true;
  return Status::Ok();
}

Status Context::Run(Profiler* observer) {
  if (options_.model_info_only) return InfoOnlyError();
  NPURT_RETURN_IF_ERROR(unusable_);
  Status previous = Status::Ok();
  if (options_.async) {
    previous = WaitIdle();
    job_status_ = Status::Ok();
  }
  if (!weights_set_) {
    return NPURT_ERROR(kFail, "RKNN_FLAG_MEM_ALLOC_OUTSIDE: call rknn_set_weight_mem before rknn_run");
  }
  if (!internal_set_) {
    return NPURT_ERROR(kFail, "the internal memory is allocated outside: call rknn_set_internal_mem before rknn_run");
  }
  for (size_t i = 0; i < input_set_.size(); ++i) {
    if (!input_set_[i]) {
      return NPURT_ERROR(kInputInvalid, "input %zu was never set (call rknn_inputs_set or rknn_set_io_mem first)", i);
    }
  }
  if (options_.async) {
    // The frame that just finished becomes "the previous frame": its outputs are kept apart, so this
    // frame can overwrite the output tensors while the application reads them.
    const std::vector<IoDesc>& outputs = graph_->outputs;
    if (previous_tensors_.empty()) {
      previous_outputs_.resize(outputs.size());
      previous_tensors_.resize(outputs.size());
      for (size_t i = 0; i < outputs.size(); ++i) {
        const Tensor& t = tensors_[outputs[i].tensor];
        previous_outputs_[i].assign(t.bytes, 0);  // before the first frame ends: zeros, frame 0
        previous_tensors_[i] = t;
        previous_tensors_[i].data = previous_outputs_[i].data();
      }
    }
    if (frame_in_tensors_) {
      frame_in_tensors_ = false;
      if (!previous.ok()) {
        return Status(previous.code(), "frame " + std::to_string(frames_) + " failed: " + previous.message());
      }
      for (size_t i = 0; i < outputs.size(); ++i) {
        const Tensor& t = tensors_[outputs[i].tensor];
        std::memcpy(previous_outputs_[i].data(), t.data, t.bytes);
      }
      output_frame_ = frames_;
      // Bound output memory holds the previous frame too: written here, never while the application
      // may be reading it.
      NPURT_RETURN_IF_ERROR(ExportBoundOutputs());
    }
  }
  for (size_t i = 0; i < input_bindings_.size(); ++i) {
    const IoBinding& b = input_bindings_[i];
    if (b.buffer.data == nullptr) continue;
    InputArg in;
    in.index = static_cast<uint32_t>(i);
    in.buffer = b.buffer;
    in.pass_through = b.pass_through;
    NPURT_RETURN_IF_ERROR(ImportOne(in));
  }
  if (!options_.async) {
    // A failed run leaves its outputs half written: nothing to get until a run succeeds.
    has_run_ = false;
    NPURT_RETURN_IF_ERROR(RunFrame(observer));
    NPURT_RETURN_IF_ERROR(ExportBoundOutputs());
    output_frame_ = ++frames_;
    has_run_ = true;
    return Status::Ok();
  }
  {
    std::lock_guard<std::mutex> lock(job_mutex_);
    if (!worker_.joinable()) worker_ = std::thread([this] { WorkerLoop(); });
    job_pending_ = true;
  }
  job_cv_.notify_all();
  ++frames_;
  frame_in_tensors_ = true;
  has_run_ = true;  // outputs (of the previous frame) can be read from now on
  return Status::Ok();
}

Status Context::RunFrame(Profiler* observer) {
  const JobPolicy& policy = GetJobPolicy();
  const uint64_t job = ++jobs_;
  if (policy.fail_every != 0 && job % policy.fail_every == 0) {
    return NPURT_ERROR(kFail, "job %llu failed (injected by NPURT_FAULT=fail:%llu)", static_cast<unsigned long long>(job),
                       static_cast<unsigned long long>(policy.fail_every));
  }
  if (policy.timeout_every != 0 && job % policy.timeout_every == 0) {
    return NPURT_ERROR(kTimeout, "job %llu timed out (injected by NPURT_FAULT=timeout:%llu)",
                       static_cast<unsigned long long>(job), static_cast<unsigned long long>(policy.timeout_every));
  }
  const int64_t start = NowNs();
  const int64_t deadline = policy.timeout_ms > 0.0 ? start + static_cast<int64_t>(policy.timeout_ms * 1e6) : 0;
  Profiler* profiler = profiler_.get();
  TeeProfiler tee(profiler, observer);
  if (observer != nullptr) profiler = profiler == nullptr ? observer : &tee;
  HalfOverflows overflows;
  Status s = RunNodes(&nodes_, profiler, deadline, &overflows);
  last_run_us_ = (NowNs() - start) / 1000;
  if (!s.ok()) return s;
  if (overflows.first_op >= 0) {  // once per run, naming where it started (the inf / NaN spread from there)
    const OpNode& first = nodes_[static_cast<size_t>(overflows.first_op)];
    NPURT_LOG(kWarning, "fp16 overflow: op '%s' (%s) wrote %lld values beyond fp16's range (|x| > 65504) as +-inf, "
              "%lld in all this run; `npurt accuracy` names the layers, --float-dtype float32 avoids it",
              first.name.c_str(), first.def->name, static_cast<long long>(overflows.first_op_values),
              static_cast<long long>(overflows.values));
  }
  perf_detail_stale_ = true;
  return Status::Ok();
}

Status Context::ExportBoundOutputs() {
  for (size_t i = 0; i < output_bindings_.size(); ++i) {
    const IoBinding& b = output_bindings_[i];
    if (b.buffer.data == nullptr) continue;
    Status s = ExportOutput(tensors_[graph_->outputs[i].tensor], b.buffer);
    if (!s.ok()) return Status(s.code(), "output " + std::to_string(i) + ": " + s.message());
  }
  return Status::Ok();
}

void Context::WorkerLoop() {
  std::unique_lock<std::mutex> lock(job_mutex_);
  for (;;) {
    job_cv_.wait(lock, [this] { return job_pending_ || stopping_; });
    if (stopping_ && !job_pending_) return;
    job_pending_ = false;
    job_running_ = true;
    lock.unlock();
    Status s;
    try {  // nothing may leave the thread: a custom op's callback is the application's code
      s = RunFrame(nullptr);
    } catch (const std::bad_alloc&) {
      s = NPURT_ERROR(kMallocFail, "out of memory running the frame");
    } catch (...) {
      s = NPURT_ERROR(kFail, "an exception escaped the frame (a custom op callback?)");
    }
    lock.lock();
    job_status_ = s;
    job_running_ = false;
    job_cv_.notify_all();
  }
}

void Context::SetThreads(int threads) {
  static_cast<void>(WaitIdle());  // the async worker reads the nodes
  threads_ = std::max(1, threads);
  for (OpNode& node : nodes_) node.threads = threads_;
}

Status Context::WaitIdle() {
  std::unique_lock<std::mutex> lock(job_mutex_);
  job_cv_.wait(lock, [this] { return !job_pending_ && !job_running_; });
  return job_status_;
}

const std::string& Context::perf_detail() {
  static_cast<void>(WaitIdle());
  if (perf_detail_stale_ && profiler_ && has_run_) {
    perf_detail_ = FormatPerfTable(nodes_, profiler_->elapsed_ns());
    perf_detail_stale_ = false;
  }
  return perf_detail_;
}

uint64_t Context::OutputBytes(uint32_t index, bool want_float) const {
  const IoDesc& io = graph_->outputs[index];
  const TensorDesc& t = graph_->tensors[io.tensor];
  const DataType type = want_float ? DataType::kFloat32 : io.dtype;
  return static_cast<uint64_t>(NumElements(t.shape)) * DataTypeSize(type);
}

Status Context::GetOutput(uint32_t index, bool want_float, void* dst, size_t dst_size) const {
  const IoDesc& io = graph_->outputs[index];
  if (options_.async) {
    HostBuffer out;
    out.data = dst;
    out.size = dst_size;
    out.dtype = want_float ? DataType::kFloat32 : io.dtype;
    out.fmt = Layout::kNCHW;
    return ExportOutput(previous_tensors_[index], out);
  }
  HostBuffer out;
  out.data = dst;
  out.size = dst_size;
  out.dtype = want_float ? DataType::kFloat32 : io.dtype;
  out.fmt = Layout::kNCHW;
  return ExportOutput(tensors_[io.tensor], out);
}

void* Context::AllocateUserOutput(size_t bytes) {
  void* p = std::malloc(bytes == 0 ? 1 : bytes);
  if (p != nullptr) user_outputs_.insert(p);
  return p;
}

bool Context::FreeUserOutput(void* buf) {
  auto it = user_outputs_.find(buf);
  if (it == user_outputs_.end()) return false;
  std::free(buf);
  user_outputs_.erase(it);
  return true;
}

Status Context::SetInternalMemory(uint8_t* data, uint64_t size, std::shared_ptr<void> keep_alive) {
  static_cast<void>(WaitIdle());  // a frame in flight reads these tensors; its status waits for the next Run
  if (options_.model_info_only) return InfoOnlyError();
  const uint64_t arena_bytes = model_->max_arena_size();
  NPURT_RETURN_IF_ERROR(CheckGivenMemory("internal", data, size, arena_bytes, "total_internal_size"));
  for (size_t i = 0; i < tensors_.size(); ++i) {
    const TensorDesc& d = graph_->tensors[i];
    if (d.storage == Storage::kArena) tensors_[i].data = data + d.offset;
  }
  if (arena_owned_) Unmap(arena_, arena_bytes);
  arena_owned_ = false;
  arena_memory_.Reset();
  arena_ = data;
  internal_owner_ = std::move(keep_alive);
  internal_set_ = true;
  return Status::Ok();
}

Status Context::SetWeightMemory(uint8_t* data, uint64_t size, std::shared_ptr<void> keep_alive) {
  static_cast<void>(WaitIdle());  // a frame in flight reads these tensors; its status waits for the next Run
  if (options_.model_info_only) return InfoOnlyError();
  const Model& m = *model_;
  NPURT_RETURN_IF_ERROR(CheckGivenMemory("weight", data, size, m.weights_size(), "total_weight_size"));
  // As the NPU driver does: the weights are copied into the given memory, and the ops read them there.
  if (m.weights_size() > 0) std::memcpy(data, m.weights(), m.weights_size());
  for (size_t i = 0; i < tensors_.size(); ++i) {
    const TensorDesc& d = graph_->tensors[i];
    if (d.storage == Storage::kConstant) tensors_[i].data = data + d.offset;
  }
  weights_ = data;
  weight_owner_ = std::move(keep_alive);
  weights_set_ = true;
  return Status::Ok();
}

MemorySizes Context::memory_sizes() const {
  MemorySizes s;
  s.weights = model_->weights_size();
  s.internal = model_->max_arena_size();
  uint64_t io = 0;
  for (size_t i = 0; i < model_->inputs().size(); ++i) io += model_->max_io_bytes(true, i);
  for (size_t i = 0; i < model_->outputs().size(); ++i) io += model_->max_io_bytes(false, i);
  // A duplicate shares its weights with the first context: counted once. Memory the application gives
  // (MEM_ALLOC_OUTSIDE, INTERNAL_ALLOC_OUTSIDE, a model buffer read in place) is the application's.
  const bool own_weights = !options_.shares_weights && !options_.weights_outside &&
                           !model_->weights_in_caller_memory();
  s.total_allocated = (own_weights ? s.weights : 0) + (options_.internal_outside ? 0 : s.internal) + io;
  return s;
}

}  // namespace npurt
