// The RKNN C ABI. Only argument checks, handle lookup, per-context locking,
// translation between rknn_* structs and the core, and logging of the reason
// for every error. No exception crosses this boundary.
#include "rknn_api.h"

#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "runtime/api/api_library.h"
#include "runtime/api/api_util.h"
#include "runtime/api/handle_table.h"
#include "runtime/core/log.h"
#include "runtime/core/thread_pool.h"

namespace npurt {

static_assert(RKNN_SUCC == static_cast<int>(StatusCode::kOk), "status codes are RKNN codes");
static_assert(RKNN_ERR_PARAM_INVALID == static_cast<int>(StatusCode::kParamInvalid), "status codes are RKNN codes");
static_assert(RKNN_ERR_MODEL_INVALID == static_cast<int>(StatusCode::kModelInvalid), "status codes are RKNN codes");
static_assert(RKNN_ERR_CTX_INVALID == static_cast<int>(StatusCode::kCtxInvalid), "status codes are RKNN codes");
static_assert(RKNN_ERR_INPUT_INVALID == static_cast<int>(StatusCode::kInputInvalid), "status codes are RKNN codes");
static_assert(RKNN_ERR_OUTPUT_INVALID == static_cast<int>(StatusCode::kOutputInvalid), "status codes are RKNN codes");
static_assert(RKNN_ERR_TARGET_PLATFORM_UNMATCH == static_cast<int>(StatusCode::kTargetPlatformUnmatch),
              "status codes are RKNN codes");
static_assert(RKNN_TENSOR_BOOL == static_cast<int>(DataType::kBool), "tensor types are DataType");
static_assert(RKNN_TENSOR_NC1HWC2 == static_cast<int>(Layout::kNC1HWC2), "formats are Layout");

HandleTable& HandleTable::Get() {
  static HandleTable* table = new HandleTable();  // never destroyed: safe in atexit paths
  return *table;
}

uint64_t HandleTable::Add(std::shared_ptr<ContextEntry> entry) {
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t handle = next_++;
#if defined(__arm__)
  if (handle > UINT32_MAX) return 0;  // rknn_context is 32-bit there
#endif
  entries_.emplace(handle, std::move(entry));
  return handle;
}

std::shared_ptr<ContextEntry> HandleTable::Find(uint64_t handle) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(handle);
  return it == entries_.end() ? nullptr : it->second;
}

std::shared_ptr<ContextEntry> HandleTable::Remove(uint64_t handle) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(handle);
  if (it == entries_.end()) return nullptr;
  std::shared_ptr<ContextEntry> entry = std::move(it->second);
  entries_.erase(it);
  return entry;
}

namespace {

using api::Fail;
using api::Guard;
using api::Lookup;
using api::RawEnum;
using api::ValidFormat;

constexpr const char* kApiVersion = "2.3.2 (npurt 0.1.0)";
constexpr const char* kDriverVersion = "npurt-cpu 0.1.0";

constexpr uint32_t kUnsupportedInitFlags = RKNN_FLAG_FENCE_IN_OUTSIDE | RKNN_FLAG_FENCE_OUT_OUTSIDE;

// librknnmrt refuses what the RV1106 / RV1103-class runtime refuses. The board logs "<call>, context config
// invalid!" for the general API's calls there; the matching code is RKNN_ERR_CTX_INVALID.
int RefusedByMiniRuntime(const char* api, const char* instead) {
  return Fail(api, NPURT_ERROR(kCtxInvalid, "context config invalid! librknnmrt (RV1106 / RV1103 class) runs models "
                                            "through the zero-copy API only: %s", instead));
}

constexpr char kUseIoMem[] = "use rknn_create_mem + rknn_set_io_mem (inputs in the native layout, outputs "
                             "int8 NC1HWC2 or NHWC)";

// Query commands the RV1106 / RV1103-class runtime does not answer.
bool MiniRuntimeLacksQuery(int32_t cmd) {
  return cmd == RKNN_QUERY_PERF_DETAIL || cmd == RKNN_QUERY_PERF_RUN || cmd == RKNN_QUERY_INPUT_DYNAMIC_RANGE ||
         cmd == RKNN_QUERY_CURRENT_INPUT_ATTR || cmd == RKNN_QUERY_CURRENT_OUTPUT_ATTR ||
         cmd == RKNN_QUERY_CURRENT_NATIVE_INPUT_ATTR || cmd == RKNN_QUERY_CURRENT_NATIVE_OUTPUT_ATTR;
}

// The library's rules for a loaded model: librknnmrt runs its platforms' models only (and not their
// SHARE_WEIGHT / MODEL_BUFFER_ZERO_COPY); librknnrt runs any, and says where the board's rules differ.
int CheckModelForLibrary(const Model& m, uint32_t flag) {
  const bool mini_model = api::MiniRuntimePlatform(m.target_platform());
  if (api::MiniRuntime()) {
    if (!mini_model) {
      return Fail("rknn_init", NPURT_ERROR(kTargetPlatformUnmatch, "librknnmrt runs RV1106 / RV1103-class models; "
                                                                   "this model is for %s: link librknnrt.so",
                                           m.target_platform().c_str()));
    }
    if (flag & RKNN_FLAG_MODEL_BUFFER_ZERO_COPY) {
      return Fail("rknn_init", StatusCode::kParamInvalid,
                  "RKNN_FLAG_MODEL_BUFFER_ZERO_COPY is not supported by librknnmrt (RV1106 / RV1103 class)");
    }
    // The RV1106 / RV1103 NPU runs int8 models: their inputs and outputs are int8 codes.
    for (int pass = 0; pass < 2; ++pass) {
      const std::vector<IoDesc>& list = pass == 0 ? m.inputs() : m.outputs();
      for (const IoDesc& io : list) {
        const TensorDesc& t = m.tensors()[static_cast<size_t>(io.tensor)];
        if (t.dtype != DataType::kInt8 || t.quant.empty()) {
          return Fail("rknn_init", NPURT_ERROR(kModelInvalid, "librknnmrt (RV1106 / RV1103 class) runs int8 models; "
                                                              "%s '%s' is %s: convert the model with --quantize",
                                               pass == 0 ? "input" : "output", t.name.c_str(), DataTypeName(t.dtype)));
        }
      }
    }
  } else if (mini_model) {
    NPURT_LOG(kWarning, "rknn_init: a model for %s runs on the board in librknnmrt.so, which refuses "
                        "rknn_inputs_set / rknn_outputs_get / rknn_dup_context; link npurt's librknnmrt.so "
                        "to get its rules here", m.target_platform().c_str());
  }
  return RKNN_SUCC;
}

// RKNN_FLAG_MODEL_BUFFER_ZERO_COPY: the model is read where it is -- real_model_size bytes (0: the rest of
// `size`) at real_model_offset into the buffer `model` points to, normally memory of rknn_create_mem, which
// the context then keeps alive. model_buffer_fd / model_buffer_flags name that memory to the NPU driver;
// the CPU reads it at its address, so they are not needed here.
Status LoadModelInPlace(void* model, uint32_t size, const rknn_init_extend* extend, std::shared_ptr<const Model>* m) {
  if (size == 0) return NPURT_ERROR(kParamInvalid, "RKNN_FLAG_MODEL_BUFFER_ZERO_COPY needs the model in memory (size > 0), not a path");
  const int64_t offset = extend != nullptr ? extend->real_model_offset : 0;
  const int64_t bytes = extend != nullptr && extend->real_model_size != 0 ? extend->real_model_size : size - offset;
  if (offset < 0 || bytes <= 0 || offset + bytes > size) {
    return NPURT_ERROR(kParamInvalid, "real_model_offset %lld + real_model_size %lld is not inside the %u-byte buffer",
                       static_cast<long long>(offset), static_cast<long long>(bytes), size);
  }
  const uint8_t* data = static_cast<const uint8_t*>(model) + offset;
  return Model::LoadInPlace(data, static_cast<size_t>(bytes), api::MemoryOwnerOf(data, static_cast<uint64_t>(bytes)), m);
}




void CopyName(char* dst, size_t cap, const std::string& src) {
  const size_t n = src.size() < cap - 1 ? src.size() : cap - 1;
  std::memcpy(dst, src.data(), n);
  dst[n] = '\0';
}

void FillAttr(const ModelGraph& graph, bool is_input, uint32_t index, AttrView view, rknn_tensor_attr* attr) {
  const IoDesc& io = is_input ? graph.inputs[index] : graph.outputs[index];
  const TensorDesc& t = graph.tensors[io.tensor];
  const IoAttr a = DescribeIo(graph, is_input, static_cast<int>(index), view);
  std::memset(attr, 0, sizeof(*attr));
  attr->index = index;
  attr->n_dims = static_cast<uint32_t>(a.dims.size());
  for (size_t i = 0; i < a.dims.size() && i < RKNN_MAX_DIMS; ++i) attr->dims[i] = static_cast<uint32_t>(a.dims[i]);
  CopyName(attr->name, RKNN_MAX_NAME_LEN, t.name);
  attr->n_elems = static_cast<uint32_t>(a.n_elems);
  attr->size = static_cast<uint32_t>(a.size);
  attr->fmt = static_cast<rknn_tensor_format>(a.fmt);
  attr->type = static_cast<rknn_tensor_type>(a.dtype);
  const bool quantized = !t.quant.scale.empty() && a.dtype != DataType::kFloat32 && a.dtype != DataType::kFloat16;
  attr->qnt_type = quantized ? RKNN_TENSOR_QNT_AFFINE_ASYMMETRIC : RKNN_TENSOR_QNT_NONE;
  attr->scale = quantized ? t.quant.scale[0] : 1.0f;
  attr->zp = quantized && !t.quant.zero_point.empty() ? t.quant.zero_point[0] : 0;
  attr->w_stride = a.w_stride;
  attr->size_with_stride = static_cast<uint32_t>(a.size_with_stride);
  attr->pass_through = 0;
  attr->h_stride = 0;
}

// `graph`: the model's first for the plain queries, the context's current one for RKNN_QUERY_CURRENT_*.
int QueryAttr(const ModelGraph& graph, bool is_input, AttrView view, void* info, uint32_t size) {
  if (size < sizeof(rknn_tensor_attr)) {
    return Fail("rknn_query", StatusCode::kParamInvalid, "info size is smaller than sizeof(rknn_tensor_attr)");
  }
  rknn_tensor_attr* attr = static_cast<rknn_tensor_attr*>(info);
  const size_t count = is_input ? graph.inputs.size() : graph.outputs.size();
  if (attr->index >= count) {
    return Fail("rknn_query", NPURT_ERROR(kParamInvalid, "%s index %u out of range (model has %zu)",
                                          is_input ? "input" : "output", attr->index, count));
  }
  FillAttr(graph, is_input, attr->index, view, attr);
  return RKNN_SUCC;
}

// RKNN_QUERY_INPUT_DYNAMIC_RANGE: input `range->index`'s shape in every shape set, in its attr's layout.
int QueryDynamicRange(const Model& m, void* info, uint32_t size) {
  if (size < sizeof(rknn_input_range)) {
    return Fail("rknn_query", StatusCode::kParamInvalid, "info size is smaller than sizeof(rknn_input_range)");
  }
  if (!m.dynamic()) {
    NPURT_LOG(kWarning, "rknn_query: RKNN_QUERY_INPUT_DYNAMIC_RANGE on a static-shape model");
    return RKNN_ERR_MODEL_INVALID;
  }
  auto* range = static_cast<rknn_input_range*>(info);
  const uint32_t index = range->index;
  if (index >= m.inputs().size()) {
    return Fail("rknn_query", NPURT_ERROR(kParamInvalid, "input index %u out of range (model has %zu)", index,
                                          m.inputs().size()));
  }
  std::memset(range, 0, sizeof(*range));
  range->index = index;
  range->shape_number = static_cast<uint32_t>(m.shape_sets().size());
  for (size_t s = 0; s < m.shape_sets().size(); ++s) {
    const IoAttr a = DescribeIo(m.shape_sets()[s], true, static_cast<int>(index), AttrView::kNormal);
    range->fmt = static_cast<rknn_tensor_format>(a.fmt);
    range->n_dims = static_cast<uint32_t>(a.dims.size());
    for (size_t d = 0; d < a.dims.size() && d < RKNN_MAX_DIMS; ++d) {
      range->dyn_range[s][d] = static_cast<uint32_t>(a.dims[d]);
    }
  }
  CopyName(range->name, RKNN_MAX_NAME_LEN, m.tensors()[m.inputs()[index].tensor].name);
  return RKNN_SUCC;
}

// The model-layout shape that attr->dims describe in attr->fmt (NHWC dims of a 4-D input are reordered).
bool ShapeOfAttr(const rknn_tensor_attr& attr, Shape* shape) {
  if (attr.n_dims == 0 || attr.n_dims > RKNN_MAX_DIMS) return false;
  shape->assign(attr.dims, attr.dims + attr.n_dims);
  if (attr.fmt == RKNN_TENSOR_NHWC && attr.n_dims == 4) *shape = {(*shape)[0], (*shape)[3], (*shape)[1], (*shape)[2]};
  return attr.fmt == RKNN_TENSOR_NHWC || attr.fmt == RKNN_TENSOR_NCHW || attr.fmt == RKNN_TENSOR_UNDEFINED;
}

// rknn_set_input_shapes: the shape set whose inputs all have the shapes the attrs give.
int SetInputShapes(const char* api, Context& ctx, uint32_t n_inputs, const rknn_tensor_attr* attr) {
  const Model& m = ctx.model();
  if (!m.dynamic()) {
    return Fail(api, StatusCode::kFail,
                "the model has static shapes (convert it with --dynamic-input for shape sets)");
  }
  const size_t count = m.inputs().size();
  if (n_inputs != count) {
    return Fail(api, NPURT_ERROR(kParamInvalid, "%u input shapes for a model with %zu inputs (give all of them)",
                                 n_inputs, count));
  }
  std::vector<Shape> wanted(count);
  std::vector<bool> given(count, false);
  for (uint32_t i = 0; i < n_inputs; ++i) {
    const uint32_t index = attr[i].index;
    if (index >= count || given[index]) {
      return Fail(api, NPURT_ERROR(kParamInvalid, "attr[%u].index %u is out of range or repeated", i, index));
    }
    if (!ShapeOfAttr(attr[i], &wanted[index])) {
      return Fail(api, NPURT_ERROR(kParamInvalid, "attr[%u]: %u dims in format %s (expected NHWC for 4-D inputs, "
                                                  "NCHW or UNDEFINED)", i, attr[i].n_dims,
                                   get_format_string(attr[i].fmt)));
    }
    given[index] = true;
  }
  for (size_t s = 0; s < m.shape_sets().size(); ++s) {
    const ModelGraph& g = m.shape_sets()[s];
    bool match = true;
    for (size_t i = 0; i < count && match; ++i) match = g.tensors[g.inputs[i].tensor].shape == wanted[i];
    if (!match) continue;
    Status st = ctx.SetShapeSet(s);
    return st.ok() ? RKNN_SUCC : Fail(api, st);
  }
  std::string sets;
  for (const ModelGraph& g : m.shape_sets()) {
    sets += (sets.empty() ? "" : ", ") + ShapeToString(g.tensors[g.inputs[0].tensor].shape);
  }
  return Fail(api, NPURT_ERROR(kParamInvalid, "no shape set of the model has these input shapes (input 0 %s; "
                                              "the model's sets for input 0, NCHW: %s)",
                               ShapeToString(wanted[0]).c_str(), sets.c_str()));
}

void LogModelInfo(const Model& m) {
  NPURT_LOG(kInfo, "RKNN Runtime Information, librknnrt version: %s", kApiVersion);
  NPURT_LOG(kInfo, "RKNN Driver Information, version: %s", kDriverVersion);
  NPURT_LOG(kInfo,
            "RKNN Model Information, version: %u, toolkit version: %s, target platform: %s, framework name: %s, "
            "framework layout: NCHW, model inference type: %s",
            m.format_version(), m.toolkit_version().c_str(), m.target_platform().c_str(), m.framework().c_str(),
            m.dynamic() ? "dynamic_shape" : "static_shape");
}



// rknn_set_core_mask / rknn_set_batch_core_num exist on the multi-core NPUs only.
int NpuCoreCount(const std::string& platform) {
  if (platform == "rk3588") return 3;
  if (platform == "rk3576") return 2;
  return 1;
}

// A core mask's threads: one per NPU core it names (ALL: every core of the platform); AUTO, which
// runs a model on one idle core, keeps the default (ThreadPool::DefaultThreads). The pool caps the
// count at the CPUs this process has.
int CoreMaskThreads(int32_t mask, int platform_cores) {
  if (mask == RKNN_NPU_CORE_AUTO) return ThreadPool::DefaultThreads();
  if (mask == RKNN_NPU_CORE_ALL) return platform_cores;
  return __builtin_popcount(static_cast<unsigned>(mask));
}

}  // namespace
}  // namespace npurt

using namespace npurt;

extern "C" {

int rknn_init(rknn_context* context, void* model, uint32_t size, uint32_t flag, rknn_init_extend* extend) {
  return Guard("rknn_init", [&]() -> int {
    if (context == nullptr) return Fail("rknn_init", StatusCode::kParamInvalid, "context pointer is NULL");
    if (model == nullptr) return Fail("rknn_init", StatusCode::kParamInvalid, "model is NULL");
    if (flag & kUnsupportedInitFlags) {
      return Fail("rknn_init", NPURT_ERROR(kParamInvalid, "init flag 0x%x is not supported by npurt yet",
                                           flag & kUnsupportedInitFlags));
    }
    std::shared_ptr<const Model> m;
    Status s = (flag & RKNN_FLAG_MODEL_BUFFER_ZERO_COPY) != 0 ? LoadModelInPlace(model, size, extend, &m)
                                                             : Model::Load(model, size, &m);
    if (!s.ok()) return Fail("rknn_init", s);
    if (int r = CheckModelForLibrary(*m, flag); r != RKNN_SUCC) return r;
    ContextOptions options;
    options.collect_perf = (flag & RKNN_FLAG_COLLECT_PERF_MASK) != 0;
    options.model_info_only = (flag & RKNN_FLAG_COLLECT_MODEL_INFO_ONLY) != 0;
    options.weights_outside = (flag & RKNN_FLAG_MEM_ALLOC_OUTSIDE) != 0;
    options.async = (flag & RKNN_FLAG_ASYNC_MASK) != 0;
    options.internal_outside = (flag & (RKNN_FLAG_MEM_ALLOC_OUTSIDE | RKNN_FLAG_INTERNAL_ALLOC_OUTSIDE)) != 0;
    auto entry = std::make_shared<ContextEntry>();
    // RKNN_FLAG_SHARE_WEIGHT_MEM: the context lending its weights, held (not locked: what Create reads of it,
    // its model and resolved constants, never changes after its own rknn_init).
    std::shared_ptr<ContextEntry> owner;
    if (flag & RKNN_FLAG_SHARE_WEIGHT_MEM) {
      if (api::MiniRuntime()) {
        return Fail("rknn_init", StatusCode::kParamInvalid,
                    "RKNN_FLAG_SHARE_WEIGHT_MEM is not supported by librknnmrt (RV1106 / RV1103 class)");
      }
      if (extend == nullptr) {
        return Fail("rknn_init", StatusCode::kParamInvalid,
                    "RKNN_FLAG_SHARE_WEIGHT_MEM needs extend->ctx: the context whose weights to share");
      }
      owner = Lookup("rknn_init (extend->ctx)", extend->ctx);
      if (!owner) return RKNN_ERR_CTX_INVALID;
      options.weights_from = owner->context.get();
      if (!m->has_shared_constants()) {
        NPURT_LOG(kWarning, "rknn_init: RKNN_FLAG_SHARE_WEIGHT_MEM with a model that has its own weights (not "
                            "converted with remove_weight): nothing is shared");
      }
    }
    s = Context::Create(m, options, &entry->context);
    if (!s.ok()) return Fail("rknn_init", s);
    std::string custom;
    for (const std::string& type : entry->context->CustomOpTypes()) custom += (custom.empty() ? "" : ", ") + type;
    if (!custom.empty() && api::MiniRuntime()) {
      return Fail("rknn_init", NPURT_ERROR(kModelInvalid, "the model has custom ops (%s): librknnmrt (RV1106 / RV1103 "
                                                          "class) has no custom op API", custom.c_str()));
    }
    if (!custom.empty()) {
      NPURT_LOG(kInfo, "rknn_init: the model has custom ops: register %s with rknn_register_custom_ops before rknn_run",
                custom.c_str());
    }
    LogModelInfo(*m);
    const uint64_t handle = HandleTable::Get().Add(std::move(entry));
    if (handle == 0) return Fail("rknn_init", StatusCode::kMallocFail, "out of context handles");
    *context = static_cast<rknn_context>(handle);
    return RKNN_SUCC;
  });
}

int rknn_dup_context(rknn_context* context_in, rknn_context* context_out) {
  return Guard("rknn_dup_context", [&]() -> int {
    if (context_in == nullptr || context_out == nullptr) {
      return Fail("rknn_dup_context", StatusCode::kParamInvalid, "context pointer is NULL");
    }
    auto src = Lookup("rknn_dup_context", *context_in);
    if (!src) return RKNN_ERR_CTX_INVALID;
    if (api::MiniRuntime()) return RefusedByMiniRuntime("rknn_dup_context", "init another context instead");
    auto entry = std::make_shared<ContextEntry>();
    {
      std::lock_guard<std::mutex> lock(src->context->mutex());
      Status s = src->context->Duplicate(&entry->context);
      if (!s.ok()) return Fail("rknn_dup_context", s);
    }
    const uint64_t handle = HandleTable::Get().Add(std::move(entry));
    if (handle == 0) return Fail("rknn_dup_context", StatusCode::kMallocFail, "out of context handles");
    *context_out = static_cast<rknn_context>(handle);
    return RKNN_SUCC;
  });
}

int rknn_destroy(rknn_context context) {
  return Guard("rknn_destroy", [&]() -> int {
    if (context == 0) return Fail("rknn_destroy", StatusCode::kCtxInvalid, "context is 0 (not initialized)");
    std::shared_ptr<ContextEntry> found = HandleTable::Get().Find(static_cast<uint64_t>(context));
    if (found && !found->context) {
      return Fail("rknn_destroy", NPURT_ERROR(kCtxInvalid, "context %llu is a Matmul context: rknn_matmul_destroy "
                                                           "frees it", static_cast<unsigned long long>(context)));
    }
    std::shared_ptr<ContextEntry> e = HandleTable::Get().Remove(static_cast<uint64_t>(context));
    if (!e) {
      return Fail("rknn_destroy", NPURT_ERROR(kCtxInvalid, "unknown or already destroyed context %llu",
                                              static_cast<unsigned long long>(context)));
    }
    // Wait for a call in flight on another thread, then free with the last reference.
    std::lock_guard<std::mutex> lock(e->context->mutex());
    return RKNN_SUCC;
  });
}

int rknn_query(rknn_context context, rknn_query_cmd cmd, void* info, uint32_t size) {
  return Guard("rknn_query", [&]() -> int {
    auto e = Lookup("rknn_query", context);
    if (!e) return RKNN_ERR_CTX_INVALID;
    if (info == nullptr) return Fail("rknn_query", StatusCode::kParamInvalid, "info is NULL");
    std::lock_guard<std::mutex> lock(e->context->mutex());
    Context& ctx = *e->context;
    const Model& m = ctx.model();
    const int32_t raw_cmd = RawEnum(cmd);
    if (api::MiniRuntime() && MiniRuntimeLacksQuery(raw_cmd)) {
      return Fail("rknn_query", NPURT_ERROR(kParamInvalid, "query %d is not supported by librknnmrt (RV1106 / RV1103 "
                                                           "class)", raw_cmd));
    }
    auto too_small = [&](size_t need) {
      return size < need ? Fail("rknn_query", NPURT_ERROR(kParamInvalid, "query %d: info size %u, expected %zu",
                                                          raw_cmd, size, need))
                         : RKNN_SUCC;
    };
    const bool info_only = ctx.options().model_info_only;
    if (info_only && raw_cmd != RKNN_QUERY_MEM_SIZE) {
      return Fail("rknn_query", StatusCode::kCtxInvalid,
                  "a RKNN_FLAG_COLLECT_MODEL_INFO_ONLY context answers RKNN_QUERY_MEM_SIZE only");
    }
    switch (raw_cmd) {
      case RKNN_QUERY_IN_OUT_NUM: {
        if (int r = too_small(sizeof(rknn_input_output_num))) return r;
        auto* num = static_cast<rknn_input_output_num*>(info);
        num->n_input = static_cast<uint32_t>(m.inputs().size());
        num->n_output = static_cast<uint32_t>(m.outputs().size());
        return RKNN_SUCC;
      }
      // A dynamic-shape model's plain queries report its largest shape set, CURRENT_* the one set last.
      case RKNN_QUERY_INPUT_ATTR: return QueryAttr(m.graph(), true, AttrView::kNormal, info, size);
      case RKNN_QUERY_CURRENT_INPUT_ATTR: return QueryAttr(ctx.graph(), true, AttrView::kNormal, info, size);
      case RKNN_QUERY_OUTPUT_ATTR: return QueryAttr(m.graph(), false, AttrView::kNormal, info, size);
      case RKNN_QUERY_CURRENT_OUTPUT_ATTR: return QueryAttr(ctx.graph(), false, AttrView::kNormal, info, size);
      case RKNN_QUERY_NATIVE_INPUT_ATTR: return QueryAttr(m.graph(), true, AttrView::kNative, info, size);
      case RKNN_QUERY_CURRENT_NATIVE_INPUT_ATTR: return QueryAttr(ctx.graph(), true, AttrView::kNative, info, size);
      case RKNN_QUERY_NATIVE_OUTPUT_ATTR: return QueryAttr(m.graph(), false, AttrView::kNative, info, size);
      case RKNN_QUERY_CURRENT_NATIVE_OUTPUT_ATTR: return QueryAttr(ctx.graph(), false, AttrView::kNative, info, size);
      case RKNN_QUERY_NATIVE_NHWC_INPUT_ATTR: return QueryAttr(m.graph(), true, AttrView::kNativeNhwc, info, size);
      case RKNN_QUERY_NATIVE_NHWC_OUTPUT_ATTR: return QueryAttr(m.graph(), false, AttrView::kNativeNhwc, info, size);
      case RKNN_QUERY_PERF_DETAIL: {
        if (int r = too_small(sizeof(rknn_perf_detail))) return r;
        if (!ctx.options().collect_perf) {
          return Fail("rknn_query", StatusCode::kFail,
                      "RKNN_QUERY_PERF_DETAIL needs RKNN_FLAG_COLLECT_PERF_MASK at rknn_init");
        }
        if (!ctx.has_run()) return Fail("rknn_query", StatusCode::kFail, "RKNN_QUERY_PERF_DETAIL before rknn_run");
        auto* perf = static_cast<rknn_perf_detail*>(info);
        perf->perf_data = const_cast<char*>(ctx.perf_detail().c_str());
        perf->data_len = ctx.perf_detail().size();
        return RKNN_SUCC;
      }
      case RKNN_QUERY_PERF_RUN: {
        if (int r = too_small(sizeof(rknn_perf_run))) return r;
        if (!ctx.has_run()) return Fail("rknn_query", StatusCode::kFail, "RKNN_QUERY_PERF_RUN before rknn_run");
        static_cast<void>(ctx.WaitIdle());  // async: the frame in flight's time; its status is the next run's
        static_cast<rknn_perf_run*>(info)->run_duration = ctx.last_run_us();
        return RKNN_SUCC;
      }
      case RKNN_QUERY_SDK_VERSION: {
        if (int r = too_small(sizeof(rknn_sdk_version))) return r;
        auto* v = static_cast<rknn_sdk_version*>(info);
        std::memset(v, 0, sizeof(*v));
        CopyName(v->api_version, sizeof(v->api_version), kApiVersion);
        CopyName(v->drv_version, sizeof(v->drv_version), kDriverVersion);
        return RKNN_SUCC;
      }
      case RKNN_QUERY_MEM_SIZE: {
        if (int r = too_small(sizeof(rknn_mem_size))) return r;
        const MemorySizes s = ctx.memory_sizes();
        auto* mem = static_cast<rknn_mem_size*>(info);
        std::memset(mem, 0, sizeof(*mem));
        mem->total_weight_size = static_cast<uint32_t>(s.weights);
        mem->total_internal_size = static_cast<uint32_t>(s.internal);
        mem->total_dma_allocated_size = s.total_allocated;
        return RKNN_SUCC;
      }
      case RKNN_QUERY_CUSTOM_STRING: {
        if (int r = too_small(sizeof(rknn_custom_string))) return r;
        auto* cs = static_cast<rknn_custom_string*>(info);
        std::memset(cs, 0, sizeof(*cs));
        CopyName(cs->string, sizeof(cs->string), m.custom_string());
        return RKNN_SUCC;
      }
      case RKNN_QUERY_INPUT_DYNAMIC_RANGE: return QueryDynamicRange(m, info, size);
      case RKNN_QUERY_DEVICE_MEM_INFO: {
        // The CN reference: "the model buffer the runtime allocated: its fd, physical address ...", answered on
        // the RV1106 / RV1103 class only. Here: the runtime's copy (or mapping) of the model file.
        if (!api::MiniRuntimePlatform(m.target_platform())) {
          return Fail("rknn_query", NPURT_ERROR(kParamInvalid, "RKNN_QUERY_DEVICE_MEM_INFO is answered for RV1106 / "
                                                               "RV1103-class models only; this model is for %s",
                                                m.target_platform().c_str()));
        }
        if (int r = too_small(sizeof(rknn_tensor_mem))) return r;
        if (e->model_device_address == 0) e->model_device_address = api::NewDeviceAddress(m.file_size());
        auto* mem = static_cast<rknn_tensor_mem*>(info);
        std::memset(mem, 0, sizeof(*mem));
        mem->virt_addr = const_cast<uint8_t*>(m.file_data());
        mem->phys_addr = e->model_device_address;
        mem->fd = -1;  // no dma-buf off the board
        mem->size = static_cast<uint32_t>(m.file_size());
        mem->flags = RKNN_TENSOR_MEMORY_FLAGS_ALLOC_INSIDE;
        return RKNN_SUCC;
      }
      default:
        return Fail("rknn_query", NPURT_ERROR(kParamInvalid, "unknown query command %d", raw_cmd));
    }
  });
}

int rknn_inputs_set(rknn_context context, uint32_t n_inputs, rknn_input inputs[]) {
  return Guard("rknn_inputs_set", [&]() -> int {
    auto e = Lookup("rknn_inputs_set", context);
    if (!e) return RKNN_ERR_CTX_INVALID;
    if (api::MiniRuntime()) return RefusedByMiniRuntime("rknn_inputs_set", kUseIoMem);
    if (inputs == nullptr) return Fail("rknn_inputs_set", StatusCode::kParamInvalid, "inputs is NULL");
    std::lock_guard<std::mutex> lock(e->context->mutex());
    const size_t count = e->context->model().inputs().size();
    if (n_inputs == 0 || n_inputs > count) {
      return Fail("rknn_inputs_set",
                  NPURT_ERROR(kParamInvalid, "n_inputs is %u, the model has %zu inputs", n_inputs, count));
    }
    std::vector<InputArg> args(n_inputs);
    for (uint32_t i = 0; i < n_inputs; ++i) {
      const rknn_input& in = inputs[i];
      if (in.buf == nullptr) return Fail("rknn_inputs_set", NPURT_ERROR(kParamInvalid, "inputs[%u].buf is NULL", i));
      const int32_t type = RawEnum(in.type), fmt = RawEnum(in.fmt);
      if (!IsValidDataType(type)) {
        return Fail("rknn_inputs_set", NPURT_ERROR(kInputInvalid, "inputs[%u].type %d is not a tensor type", i, type));
      }
      if (!ValidFormat(fmt)) {
        return Fail("rknn_inputs_set", NPURT_ERROR(kInputInvalid, "inputs[%u].fmt %d is not a tensor format", i, fmt));
      }
      args[i].index = in.index;
      args[i].pass_through = in.pass_through != 0;
      args[i].buffer.data = in.buf;
      args[i].buffer.size = in.size;
      args[i].buffer.dtype = static_cast<DataType>(type);
      args[i].buffer.fmt = static_cast<Layout>(fmt);
    }
    Status s = e->context->SetInputs(args);
    return s.ok() ? RKNN_SUCC : Fail("rknn_inputs_set", s);
  });
}

int rknn_set_batch_core_num(rknn_context context, int core_num) {
  return Guard("rknn_set_batch_core_num", [&]() -> int {
    auto e = Lookup("rknn_set_batch_core_num", context);
    if (!e) return RKNN_ERR_CTX_INVALID;
    const std::string& platform = e->context->model().target_platform();
    const int cores = NpuCoreCount(platform);
    if (cores == 1) {
      return Fail("rknn_set_batch_core_num",
                  NPURT_ERROR(kFail, "not supported on %s (a single-core NPU); only rk3588 and rk3576 have it",
                              platform.c_str()));
    }
    if (core_num < 1 || core_num > cores) {
      return Fail("rknn_set_batch_core_num",
                  NPURT_ERROR(kParamInvalid, "core_num %d is not in 1..%d for %s", core_num, cores, platform.c_str()));
    }
    std::lock_guard<std::mutex> lock(e->context->mutex());
    e->context->SetThreads(core_num);
    NPURT_LOG(kInfo, "rknn_set_batch_core_num: the context's ops use %d thread(s)", core_num);
    return RKNN_SUCC;
  });
}

int rknn_set_core_mask(rknn_context context, rknn_core_mask core_mask) {
  return Guard("rknn_set_core_mask", [&]() -> int {
    auto e = Lookup("rknn_set_core_mask", context);
    if (!e) return RKNN_ERR_CTX_INVALID;
    const std::string& platform = e->context->model().target_platform();
    const int cores = NpuCoreCount(platform);
    const int32_t mask = RawEnum(core_mask);
    if (cores == 1) {
      return Fail("rknn_set_core_mask",
                  NPURT_ERROR(kFail, "not supported on %s (a single-core NPU); only rk3588 and rk3576 have it",
                              platform.c_str()));
    }
    const bool valid = mask == RKNN_NPU_CORE_AUTO || mask == RKNN_NPU_CORE_ALL ||
                       (mask > 0 && mask < (1 << cores) && (mask == RKNN_NPU_CORE_0 || mask == RKNN_NPU_CORE_1 ||
                                                            mask == RKNN_NPU_CORE_2 || mask == RKNN_NPU_CORE_0_1 ||
                                                            mask == RKNN_NPU_CORE_0_1_2));
    if (!valid) {
      return Fail("rknn_set_core_mask",
                  NPURT_ERROR(kParamInvalid, "core mask 0x%x is not valid on %s (%d cores)",
                              static_cast<unsigned>(mask), platform.c_str(), cores));
    }
    std::lock_guard<std::mutex> lock(e->context->mutex());
    e->core_mask = static_cast<uint32_t>(mask);
    const int threads = CoreMaskThreads(mask, cores);
    e->context->SetThreads(threads);
    NPURT_LOG(kInfo, "rknn_set_core_mask: core mask 0x%x, the context's ops use %d thread(s)",
              static_cast<unsigned>(mask), threads);
    return RKNN_SUCC;
  });
}

int rknn_run(rknn_context context, rknn_run_extend* extend) {
  return Guard("rknn_run", [&]() -> int {
    auto e = Lookup("rknn_run", context);
    if (!e) return RKNN_ERR_CTX_INVALID;
    std::lock_guard<std::mutex> lock(e->context->mutex());
    Status s = e->context->Run();
    if (!s.ok()) return Fail("rknn_run", s);
    ++e->frame_id;
    if (extend != nullptr) extend->frame_id = e->frame_id;
    return RKNN_SUCC;
  });
}

int rknn_wait(rknn_context context, rknn_run_extend* extend) {
  return Guard("rknn_wait", [&]() -> int {
    auto e = Lookup("rknn_wait", context);
    if (!e) return RKNN_ERR_CTX_INVALID;
    // Like librknnrt 2.3.2 (rknn_wait is unsupported on every platform): rknn_run always blocks.
    return Fail("rknn_wait", StatusCode::kFail, "not supported by RKNN runtime 2.3.2; rknn_run blocks until done");
  });
}

int rknn_outputs_get(rknn_context context, uint32_t n_outputs, rknn_output outputs[], rknn_output_extend* extend) {
  return Guard("rknn_outputs_get", [&]() -> int {
    auto e = Lookup("rknn_outputs_get", context);
    if (!e) return RKNN_ERR_CTX_INVALID;
    if (api::MiniRuntime()) return RefusedByMiniRuntime("rknn_outputs_get", kUseIoMem);
    if (outputs == nullptr) return Fail("rknn_outputs_get", StatusCode::kParamInvalid, "outputs is NULL");
    std::lock_guard<std::mutex> lock(e->context->mutex());
    Context& ctx = *e->context;
    const size_t count = ctx.model().outputs().size();
    if (n_outputs == 0 || n_outputs > count) {
      return Fail("rknn_outputs_get",
                  NPURT_ERROR(kParamInvalid, "n_outputs is %u, the model has %zu outputs", n_outputs, count));
    }
    if (!ctx.has_run()) return Fail("rknn_outputs_get", StatusCode::kFail, "no outputs: no rknn_run yet, or the last one failed");
    for (uint32_t i = 0; i < n_outputs; ++i) {
      const rknn_output& o = outputs[i];
      if (o.index >= count) {
        return Fail("rknn_outputs_get", NPURT_ERROR(kParamInvalid, "outputs[%u].index %u out of range (%zu outputs)",
                                                    i, o.index, count));
      }
      if (o.is_prealloc) {
        const uint64_t need = ctx.OutputBytes(o.index, o.want_float != 0);
        if (o.buf == nullptr) return Fail("rknn_outputs_get", NPURT_ERROR(kParamInvalid, "outputs[%u].buf is NULL", i));
        if (o.size < need) {
          return Fail("rknn_outputs_get", NPURT_ERROR(kOutputInvalid, "outputs[%u].size is %u, output %u needs %llu",
                                                      i, o.size, o.index, static_cast<unsigned long long>(need)));
        }
      }
    }
    std::vector<void*> allocated;
    for (uint32_t i = 0; i < n_outputs; ++i) {
      rknn_output& o = outputs[i];
      const bool want_float = o.want_float != 0;
      const uint64_t need = ctx.OutputBytes(o.index, want_float);
      void* dst = o.buf;
      size_t cap = o.size;
      if (!o.is_prealloc) {
        dst = ctx.AllocateUserOutput(need);
        if (dst == nullptr) {
          for (void* p : allocated) ctx.FreeUserOutput(p);
          return Fail("rknn_outputs_get", StatusCode::kMallocFail, "cannot allocate an output buffer");
        }
        allocated.push_back(dst);
        cap = need;
      }
      Status s = ctx.GetOutput(o.index, want_float, dst, cap);
      if (!s.ok()) {
        for (void* p : allocated) ctx.FreeUserOutput(p);
        return Fail("rknn_outputs_get", s);
      }
      if (!o.is_prealloc) {
        o.buf = dst;
        o.size = static_cast<uint32_t>(need);
      }
    }
    if (extend != nullptr) extend->frame_id = ctx.output_frame();
    return RKNN_SUCC;
  });
}

int rknn_outputs_release(rknn_context context, uint32_t n_ouputs, rknn_output outputs[]) {
  return Guard("rknn_outputs_release", [&]() -> int {
    auto e = Lookup("rknn_outputs_release", context);
    if (!e) return RKNN_ERR_CTX_INVALID;
    if (api::MiniRuntime()) return RefusedByMiniRuntime("rknn_outputs_release", kUseIoMem);
    if (outputs == nullptr) return Fail("rknn_outputs_release", StatusCode::kParamInvalid, "outputs is NULL");
    std::lock_guard<std::mutex> lock(e->context->mutex());
    int result = RKNN_SUCC;
    for (uint32_t i = 0; i < n_ouputs; ++i) {
      rknn_output& o = outputs[i];
      if (o.is_prealloc || o.buf == nullptr) continue;  // caller's memory, or already released
      if (!e->context->FreeUserOutput(o.buf)) {
        result = Fail("rknn_outputs_release",
                      NPURT_ERROR(kParamInvalid, "outputs[%u].buf was not returned by rknn_outputs_get on this "
                                                 "context, or was already released", i));
        continue;
      }
      o.buf = nullptr;
    }
    return result;
  });
}

// The deprecated one-input form: a model with one input only.
int rknn_set_input_shape(rknn_context context, rknn_tensor_attr* attr) {
  return Guard("rknn_set_input_shape", [&]() -> int {
    auto e = Lookup("rknn_set_input_shape", context);
    if (!e) return RKNN_ERR_CTX_INVALID;
    if (api::MiniRuntime()) return RefusedByMiniRuntime("rknn_set_input_shape", "dynamic shapes are not supported there");
    if (attr == nullptr) return Fail("rknn_set_input_shape", StatusCode::kParamInvalid, "attr is NULL");
    std::lock_guard<std::mutex> lock(e->context->mutex());
    const size_t count = e->context->model().inputs().size();
    if (count != 1) {
      return Fail("rknn_set_input_shape",
                  NPURT_ERROR(kParamInvalid, "the model has %zu inputs: use rknn_set_input_shapes", count));
    }
    return SetInputShapes("rknn_set_input_shape", *e->context, 1, attr);
  });
}

int rknn_set_input_shapes(rknn_context context, uint32_t n_inputs, rknn_tensor_attr attr[]) {
  return Guard("rknn_set_input_shapes", [&]() -> int {
    auto e = Lookup("rknn_set_input_shapes", context);
    if (!e) return RKNN_ERR_CTX_INVALID;
    if (api::MiniRuntime()) return RefusedByMiniRuntime("rknn_set_input_shapes", "dynamic shapes are not supported there");
    if (attr == nullptr) return Fail("rknn_set_input_shapes", StatusCode::kParamInvalid, "attr is NULL");
    std::lock_guard<std::mutex> lock(e->context->mutex());
    return SetInputShapes("rknn_set_input_shapes", *e->context, n_inputs, attr);
  });
}

}  // extern "C"
