#include "runtime/core/context.h"

#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <new>

#include "runtime/core/executor.h"
#include "runtime/core/log.h"

namespace npurt {
namespace {

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
    : model_(std::move(model)), options_(options) {}

Context::~Context() {
  Unmap(arena_, model_->arena_size());
  const Model& m = *model_;
  for (size_t i = 0; i < input_buffers_.size(); ++i) Unmap(input_buffers_[i], m.tensors()[m.inputs()[i].tensor].size);
  for (size_t i = 0; i < output_buffers_.size(); ++i) {
    Unmap(output_buffers_[i], m.tensors()[m.outputs()[i].tensor].size);
  }
  for (void* p : user_outputs_) std::free(p);
}

Status Context::Create(std::shared_ptr<const Model> model, const ContextOptions& options,
                       std::unique_ptr<Context>* out) {
  std::unique_ptr<Context> ctx(new (std::nothrow) Context(std::move(model), options));
  if (!ctx) return NPURT_ERROR(kMallocFail, "out of memory creating a context");
  NPURT_RETURN_IF_ERROR(ctx->Init());
  *out = std::move(ctx);
  return Status::Ok();
}

Status Context::Duplicate(std::unique_ptr<Context>* out) const {
  ContextOptions options = options_;
  options.shares_weights = true;
  return Create(model_, options, out);
}

Status Context::Init() {
  const Model& m = *model_;
  if (options_.model_info_only) return Status::Ok();
  {
    const MemorySizes sizes = memory_sizes();
    NPURT_RETURN_IF_ERROR(device_memory_.Acquire(sizes.total_allocated, "the model's weights, arena and I/O"));
  }
  arena_ = MapZeroed(m.arena_size());
  if (arena_ == nullptr) {
    return NPURT_ERROR(kMallocFail, "cannot allocate the %llu-byte arena",
                       static_cast<unsigned long long>(m.arena_size()));
  }
  tensors_.resize(m.tensors().size());
  input_buffers_.assign(m.inputs().size(), nullptr);
  output_buffers_.assign(m.outputs().size(), nullptr);
  for (size_t i = 0; i < tensors_.size(); ++i) {
    const TensorDesc& d = m.tensors()[i];
    Tensor& t = tensors_[i];
    t.name = d.name;
    t.shape = d.shape;
    t.dtype = d.dtype;
    t.bytes = d.size;
    t.quant = d.quant;
    switch (d.storage) {
      case Storage::kConstant:
        // Ops never write constants (the model verifier rejects it), so sharing is safe.
        t.data = const_cast<uint8_t*>(m.weights() + d.offset);
        t.constant = true;
        break;
      case Storage::kArena: t.data = arena_ + d.offset; break;
      case Storage::kInput:
      case Storage::kOutput: {
        uint8_t* buf = MapZeroed(d.size);
        if (buf == nullptr) return NPURT_ERROR(kMallocFail, "cannot allocate %llu bytes for '%s'",
                                               static_cast<unsigned long long>(d.size), d.name.c_str());
        (d.storage == Storage::kInput ? input_buffers_ : output_buffers_)[d.offset] = buf;
        t.data = buf;
        break;
      }
    }
  }
  nodes_.resize(m.ops().size());
  for (size_t k = 0; k < nodes_.size(); ++k) {
    const OpDesc& d = m.ops()[k];
    OpNode& n = nodes_[k];
    n.def = d.def;
    n.name = d.name;
    n.attrs = d.attrs;
    for (int i : d.inputs) n.inputs.push_back(i < 0 ? nullptr : &tensors_[i]);
    for (int o : d.outputs) n.outputs.push_back(&tensors_[o]);
  }
  NPURT_RETURN_IF_ERROR(PrepareNodes(&nodes_));
  input_set_.assign(m.inputs().size(), false);
  input_bindings_.resize(m.inputs().size());
  output_bindings_.resize(m.outputs().size());
  if (LogEnabled(LogLevel::kLayer)) {
    profiler_ = std::make_unique<LayerDebugProfiler>(nodes_.size());
  } else if (options_.collect_perf) {
    profiler_ = std::make_unique<OpTimeProfiler>(nodes_.size());
  }
  return Status::Ok();
}

Status Context::SetInputs(const std::vector<InputArg>& inputs) {
  if (options_.model_info_only) {
    return NPURT_ERROR(kCtxInvalid, "context was created with RKNN_FLAG_COLLECT_MODEL_INFO_ONLY and cannot run");
  }
  const Model& m = *model_;
  for (const InputArg& in : inputs) {
    if (in.index >= m.inputs().size()) {
      return NPURT_ERROR(kParamInvalid, "input index %u out of range (model has %zu inputs)", in.index,
                         m.inputs().size());
    }
  }
  for (const InputArg& in : inputs) {
    NPURT_RETURN_IF_ERROR(ImportOne(in));
    input_set_[in.index] = true;
  }
  return Status::Ok();
}

Status Context::ImportOne(const InputArg& in) {
  const Model& m = *model_;
  const IoDesc& io = m.inputs()[in.index];
  Tensor& t = tensors_[io.tensor];
  HostBuffer src = in.buffer;
  if (in.pass_through) {
    // Pass-through data is already in the native layout and type.
    const IoAttr native = DescribeIo(m, true, static_cast<int>(in.index), AttrView::kNative);
    if (src.dtype != native.dtype) {
      return NPURT_ERROR(kInputInvalid, "input %u: pass_through needs %s data (the native type), got %s", in.index,
                         DataTypeName(native.dtype), DataTypeName(src.dtype));
    }
    src.fmt = native.fmt;
    src.w_stride = native.w_stride;
    src.c2 = native.c2;
  } else if (t.shape.size() == 4 && src.fmt == Layout::kNC1HWC2) {
    return NPURT_ERROR(kInputInvalid, "input %u: NC1HWC2 data needs pass_through=1", in.index);
  }
  Status s = ImportInput(src, io, !in.pass_through && in.normalize, &t);
  if (!s.ok()) return Status(s.code(), "input " + std::to_string(in.index) + ": " + s.message());
  return Status::Ok();
}

Status Context::BindIo(bool is_input, uint32_t index, IoBinding binding) {
  if (options_.model_info_only) {
    return NPURT_ERROR(kCtxInvalid, "context was created with RKNN_FLAG_COLLECT_MODEL_INFO_ONLY and cannot run");
  }
  const Model& m = *model_;
  const size_t count = is_input ? m.inputs().size() : m.outputs().size();
  const char* kind = is_input ? "input" : "output";
  if (index >= count) return NPURT_ERROR(kParamInvalid, "%s index %u out of range (model has %zu)", kind, index, count);
  const IoDesc& io = is_input ? m.inputs()[index] : m.outputs()[index];
  const Tensor& t = tensors_[io.tensor];
  HostBuffer& b = binding.buffer;
  if (is_input && binding.pass_through) {
    const IoAttr native = DescribeIo(m, true, static_cast<int>(index), AttrView::kNative);
    if (b.dtype != native.dtype) {
      return NPURT_ERROR(kParamInvalid, "input %u: pass_through needs %s data (the native type), got %s", index,
                         DataTypeName(native.dtype), DataTypeName(b.dtype));
    }
    b.fmt = native.fmt;
    b.w_stride = native.w_stride;
    b.c2 = native.c2;
  } else if (t.shape.size() == 4 && b.fmt == Layout::kNC1HWC2) {
    if (is_input) return NPURT_ERROR(kParamInvalid, "input %u: NC1HWC2 data needs pass_through=1", index);
    const IoAttr native = DescribeIo(m, false, static_cast<int>(index), AttrView::kNative);
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
  if (options_.model_info_only) {
    return NPURT_ERROR(kCtxInvalid, "context was created with RKNN_FLAG_COLLECT_MODEL_INFO_ONLY and cannot run");
  }
  for (size_t i = 0; i < input_set_.size(); ++i) {
    if (!input_set_[i]) {
      return NPURT_ERROR(kInputInvalid, "input %zu was never set (call rknn_inputs_set or rknn_set_io_mem first)", i);
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
  const int64_t start = NowNs();
  Profiler* profiler = profiler_.get();
  TeeProfiler tee(profiler, observer);
  if (observer != nullptr) profiler = profiler == nullptr ? observer : &tee;
  Status s = RunNodes(&nodes_, profiler);
  last_run_us_ = (NowNs() - start) / 1000;
  if (!s.ok()) return s;
  for (size_t i = 0; i < output_bindings_.size(); ++i) {
    const IoBinding& b = output_bindings_[i];
    if (b.buffer.data == nullptr) continue;
    s = ExportOutput(tensors_[model_->outputs()[i].tensor], b.buffer);
    if (!s.ok()) return Status(s.code(), "output " + std::to_string(i) + ": " + s.message());
  }
  has_run_ = true;
  perf_detail_stale_ = true;
  return Status::Ok();
}

const std::string& Context::perf_detail() {
  if (perf_detail_stale_ && profiler_ && has_run_) {
    perf_detail_ = FormatPerfTable(nodes_, profiler_->elapsed_ns());
    perf_detail_stale_ = false;
  }
  return perf_detail_;
}

uint64_t Context::OutputBytes(uint32_t index, bool want_float) const {
  const IoDesc& io = model_->outputs()[index];
  const TensorDesc& t = model_->tensors()[io.tensor];
  const DataType type = want_float ? DataType::kFloat32 : io.dtype;
  return static_cast<uint64_t>(NumElements(t.shape)) * DataTypeSize(type);
}

Status Context::GetOutput(uint32_t index, bool want_float, void* dst, size_t dst_size) const {
  const IoDesc& io = model_->outputs()[index];
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

MemorySizes Context::memory_sizes() const {
  MemorySizes s;
  s.weights = model_->weights_size();
  s.internal = model_->arena_size();
  uint64_t io = 0;
  for (const TensorDesc& t : model_->tensors()) {
    if (t.storage == Storage::kInput || t.storage == Storage::kOutput) io += t.size;
  }
  // A duplicate shares its weights with the first context: counted once.
  s.total_allocated = (options_.shares_weights ? 0 : s.weights) + s.internal + io;
  return s;
}

}  // namespace npurt
