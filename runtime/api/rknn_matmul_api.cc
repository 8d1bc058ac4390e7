// The Matmul API (include/rknn_matmul_api.h): argument checks, the handle table, and the attrs the
// application sees; the computation is runtime/matmul/matmul_session.h. A Matmul context lives in the
// same handle table as a model's, so rknn_create_mem / rknn_destroy_mem take it as on the board.
#include "rknn_matmul_api.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/api/api_util.h"
#include "runtime/core/thread_pool.h"
#include "runtime/matmul/matmul_layout.h"
#include "runtime/matmul/matmul_session.h"

namespace npurt {
namespace {

using api::Fail;
using api::Guard;
using api::LookupMatmul;
using api::RawEnum;

rknn_tensor_type TensorTypeOf(MmElem e) {
  switch (e) {
    case MmElem::kInt4: return RKNN_TENSOR_INT4;
    case MmElem::kInt8: return RKNN_TENSOR_INT8;
    case MmElem::kInt16: return RKNN_TENSOR_INT16;
    case MmElem::kInt32: return RKNN_TENSOR_INT32;
    case MmElem::kFloat16: return RKNN_TENSOR_FLOAT16;
    case MmElem::kFloat32: return RKNN_TENSOR_FLOAT32;
    case MmElem::kBFloat16: return RKNN_TENSOR_BFLOAT16;
  }
  return RKNN_TENSOR_INT8;
}

const char* const kNames[3] = {"A", "B", "C"};

void FillAttr(const MmMatrix& m, int which, rknn_matmul_tensor_attr* attr) {
  std::memset(attr, 0, sizeof(*attr));
  std::strncpy(attr->name, kNames[which], RKNN_MAX_NAME_LEN - 1);
  attr->n_dims = static_cast<uint32_t>(m.dims.size());
  for (size_t i = 0; i < m.dims.size(); ++i) attr->dims[i] = m.dims[i];
  attr->size = static_cast<uint32_t>(m.bytes);
  attr->type = TensorTypeOf(m.elem);
}

void FillIoAttr(const MatmulGeometry& g, rknn_matmul_io_attr* io) {
  FillAttr(g.a, 0, &io->A);
  FillAttr(g.b, 1, &io->B);
  FillAttr(g.c, 2, &io->C);
}

// Which matrix a name is: 0 A, 1 B, 2 C, -1 none.
int MatrixNamed(const char* name) {
  const size_t len = strnlen(name, RKNN_MAX_NAME_LEN);
  for (int i = 0; i < 3; ++i) {
    if (len == 1 && name[0] == kNames[i][0]) return i;
  }
  return -1;
}

Status ConfigOf(const rknn_matmul_info& info, MatmulConfig* config) {
  Status st = CurrentMatmulPlatform(&config->platform);
  if (!st.ok()) return st;
  config->type = RawEnum(info.type);
  if (!MatmulTypesOf(config->type, &config->types)) {
    return NPURT_ERROR(kParamInvalid, "info.type %d is not an rknn_matmul_type", config->type);
  }
  config->b_layout = info.B_layout;
  config->ac_layout = info.AC_layout;
  config->b_quant_type = info.B_quant_type;
  config->group_size = info.group_size;
  if (info.AC_quant_type != RKNN_QUANT_TYPE_PER_LAYER_SYM && info.AC_quant_type != RKNN_QUANT_TYPE_PER_LAYER_ASYM) {
    return NPURT_ERROR(kParamInvalid, "AC_quant_type %d: A and C are quantized per layer only (0 or 1)",
                       info.AC_quant_type);
  }
  return Status::Ok();
}

int Create(const char* api, rknn_matmul_ctx* ctx, rknn_matmul_info* info, const std::vector<MatmulShape>& shapes,
           bool dynamic, rknn_matmul_io_attr* io_attrs) {
  MatmulConfig config;
  Status st = ConfigOf(*info, &config);
  if (!st.ok()) return Fail(api, st);
  std::unique_ptr<MatmulSession> session;
  st = MatmulSession::Create(config, shapes, dynamic, &session);
  if (!st.ok()) return Fail(api, st);
  for (int i = 0; i < session->shape_count(); ++i) FillIoAttr(session->geometry(i), &io_attrs[i]);
  auto entry = std::make_shared<ContextEntry>();
  entry->matmul = std::move(session);
  const uint64_t handle = HandleTable::Get().Add(std::move(entry));
  if (handle == 0) return Fail(api, StatusCode::kFail, "no context handle left");
  *ctx = static_cast<rknn_matmul_ctx>(handle);
  NPURT_LOG(kInfo, "%s: %s, %zu shape(s), B_layout %d, AC_layout %d on %s's rules", api,
            get_matmul_type_string(static_cast<rknn_matmul_type>(config.type)), shapes.size(), config.b_layout,
            config.ac_layout, config.platform->name.c_str());
  return RKNN_SUCC;
}

int NpuCores(const std::string& platform) { return platform == "rk3588" ? 3 : platform == "rk3576" ? 2 : 1; }

}  // namespace
}  // namespace npurt

using namespace npurt;

extern "C" {

int rknn_matmul_create(rknn_matmul_ctx* ctx, rknn_matmul_info* info, rknn_matmul_io_attr* io_attr) {
  static const char* kApi = "rknn_matmul_create";
  return Guard(kApi, [&]() -> int {
    if (ctx == nullptr || info == nullptr || io_attr == nullptr) {
      return Fail(kApi, StatusCode::kParamInvalid, "ctx, info or io_attr is NULL");
    }
    return Create(kApi, ctx, info, {MatmulShape{info->M, info->K, info->N}}, false, io_attr);
  });
}

int rknn_matmul_create_dynamic_shape(rknn_matmul_ctx* ctx, rknn_matmul_info* info, int shape_num,
                                     rknn_matmul_shape dynamic_shapes[], rknn_matmul_io_attr io_attrs[]) {
  static const char* kApi = "rknn_matmul_create_dynamic_shape";
  return Guard(kApi, [&]() -> int {
    if (ctx == nullptr || info == nullptr || dynamic_shapes == nullptr || io_attrs == nullptr) {
      return Fail(kApi, StatusCode::kParamInvalid, "ctx, info, dynamic_shapes or io_attrs is NULL");
    }
    if (shape_num <= 0) return Fail(kApi, NPURT_ERROR(kParamInvalid, "shape_num %d is not > 0", shape_num));
    std::vector<MatmulShape> shapes;
    for (int i = 0; i < shape_num; ++i) {
      shapes.push_back(MatmulShape{dynamic_shapes[i].M, dynamic_shapes[i].K, dynamic_shapes[i].N});
    }
    return Create(kApi, ctx, info, shapes, true, io_attrs);
  });
}

int rknn_matmul_set_io_mem(rknn_matmul_ctx ctx, rknn_tensor_mem* mem, rknn_matmul_tensor_attr* attr) {
  static const char* kApi = "rknn_matmul_set_io_mem";
  return Guard(kApi, [&]() -> int {
    auto e = LookupMatmul(kApi, ctx);
    if (!e) return RKNN_ERR_CTX_INVALID;
    if (mem == nullptr || attr == nullptr) return Fail(kApi, StatusCode::kParamInvalid, "mem or attr is NULL");
    uint8_t* data = nullptr;
    uint64_t size = 0;
    std::shared_ptr<void> owner;
    if (!api::FindMemory(mem, &data, &size, &owner)) {
      return Fail(kApi, StatusCode::kParamInvalid, "mem was not created by rknn_create_mem* or was already destroyed");
    }
    const int which = MatrixNamed(attr->name);
    if (which < 0) {
      return Fail(kApi, NPURT_ERROR(kParamInvalid, "attr name '%.*s' is not A, B or C (pass io_attr.A, .B or .C)",
                                    static_cast<int>(strnlen(attr->name, RKNN_MAX_NAME_LEN)), attr->name));
    }
    MatmulSession& s = *e->matmul;
    std::lock_guard<std::mutex> lock(s.mutex());
    // The attr must be the current shape's: its dims say which layout and size the bytes have.
    rknn_matmul_io_attr current;
    FillIoAttr(s.geometry(s.current_shape()), &current);
    const rknn_matmul_tensor_attr& want = which == 0 ? current.A : which == 1 ? current.B : current.C;
    if (attr->n_dims != want.n_dims || std::memcmp(attr->dims, want.dims, sizeof(want.dims[0]) * want.n_dims) != 0 ||
        attr->size != want.size) {
      return Fail(kApi, NPURT_ERROR(kParamInvalid, "attr %s (size %u) is not the current shape's (size %u): select "
                                                   "the shape with rknn_matmul_set_dynamic_shape and pass its io_attr",
                                    kNames[which], attr->size, want.size));
    }
    Status st = s.Bind(static_cast<MmWhich>(which), data, size, std::move(owner));
    return st.ok() ? RKNN_SUCC : Fail(kApi, st);
  });
}

int rknn_matmul_set_core_mask(rknn_matmul_ctx context, rknn_core_mask core_mask) {
  static const char* kApi = "rknn_matmul_set_core_mask";
  return Guard(kApi, [&]() -> int {
    auto e = LookupMatmul(kApi, context);
    if (!e) return RKNN_ERR_CTX_INVALID;
    MatmulSession& s = *e->matmul;
    const std::string& platform = s.config().platform->name;
    const int cores = NpuCores(platform);
    const int32_t mask = RawEnum(core_mask);
    if (cores == 1) {
      return Fail(kApi, NPURT_ERROR(kFail, "not supported on %s (a single-core NPU)", platform.c_str()));
    }
    const bool valid = mask == RKNN_NPU_CORE_AUTO || mask == RKNN_NPU_CORE_ALL || (mask > 0 && mask < (1 << cores));
    if (!valid) {
      return Fail(kApi, NPURT_ERROR(kParamInvalid, "core mask 0x%x is not valid on %s (%d cores)",
                                    static_cast<unsigned>(mask), platform.c_str(), cores));
    }
    // As rknn_set_core_mask: a thread per NPU core named; AUTO keeps the default.
    const int threads = mask == RKNN_NPU_CORE_AUTO ? ThreadPool::DefaultThreads()
                        : mask == RKNN_NPU_CORE_ALL ? cores
                                                    : __builtin_popcount(static_cast<unsigned>(mask));
    std::lock_guard<std::mutex> lock(s.mutex());
    s.SetThreads(std::min(threads, ThreadPool::HardwareThreads()));
    return RKNN_SUCC;
  });
}

int rknn_matmul_set_quant_params(rknn_matmul_ctx context, rknn_quant_params* params) {
  static const char* kApi = "rknn_matmul_set_quant_params";
  return Guard(kApi, [&]() -> int {
    auto e = LookupMatmul(kApi, context);
    if (!e) return RKNN_ERR_CTX_INVALID;
    if (params == nullptr) return Fail(kApi, StatusCode::kParamInvalid, "params is NULL");
    const int which = MatrixNamed(params->name);
    if (which < 0) {
      return Fail(kApi, NPURT_ERROR(kParamInvalid, "params name '%.*s' is not A, B or C (copy io_attr.X.name)",
                                    static_cast<int>(strnlen(params->name, RKNN_MAX_NAME_LEN)), params->name));
    }
    MatmulSession& s = *e->matmul;
    std::lock_guard<std::mutex> lock(s.mutex());
    Status st = s.SetQuant(static_cast<MmWhich>(which), params->scale, params->scale_len, params->zp, params->zp_len);
    return st.ok() ? RKNN_SUCC : Fail(kApi, st);
  });
}

int rknn_matmul_get_quant_params(rknn_matmul_ctx ctx, rknn_quant_params* params, float* scale) {
  static const char* kApi = "rknn_matmul_get_quant_params";
  return Guard(kApi, [&]() -> int {
    auto e = LookupMatmul(kApi, ctx);
    if (!e) return RKNN_ERR_CTX_INVALID;
    if (params == nullptr || scale == nullptr) return Fail(kApi, StatusCode::kParamInvalid, "params or scale is NULL");
    MatmulSession& s = *e->matmul;
    std::lock_guard<std::mutex> lock(s.mutex());
    Status st = s.BScale(scale);
    if (!st.ok()) return Fail(kApi, st);
    // The application's arrays stay its own: only the name says which matrix the scale is of.
    std::memset(params->name, 0, sizeof(params->name));
    params->name[0] = 'B';
    return RKNN_SUCC;
  });
}

int rknn_matmul_set_dynamic_shape(rknn_matmul_ctx ctx, rknn_matmul_shape* shape) {
  static const char* kApi = "rknn_matmul_set_dynamic_shape";
  return Guard(kApi, [&]() -> int {
    auto e = LookupMatmul(kApi, ctx);
    if (!e) return RKNN_ERR_CTX_INVALID;
    if (shape == nullptr) return Fail(kApi, StatusCode::kParamInvalid, "shape is NULL");
    MatmulSession& s = *e->matmul;
    std::lock_guard<std::mutex> lock(s.mutex());
    Status st = s.SelectShape(MatmulShape{shape->M, shape->K, shape->N});
    return st.ok() ? RKNN_SUCC : Fail(kApi, st);
  });
}

int rknn_matmul_run(rknn_matmul_ctx ctx) {
  static const char* kApi = "rknn_matmul_run";
  return Guard(kApi, [&]() -> int {
    auto e = LookupMatmul(kApi, ctx);
    if (!e) return RKNN_ERR_CTX_INVALID;
    MatmulSession& s = *e->matmul;
    std::lock_guard<std::mutex> lock(s.mutex());
    Status st = s.Run();
    return st.ok() ? RKNN_SUCC : Fail(kApi, st);
  });
}

int rknn_matmul_destroy(rknn_matmul_ctx ctx) {
  static const char* kApi = "rknn_matmul_destroy";
  return Guard(kApi, [&]() -> int {
    if (!LookupMatmul(kApi, ctx)) return RKNN_ERR_CTX_INVALID;
    std::shared_ptr<ContextEntry> e = HandleTable::Get().Remove(static_cast<uint64_t>(ctx));
    if (!e) return Fail(kApi, StatusCode::kCtxInvalid, "context was destroyed concurrently");
    // Wait for a call in flight on another thread; the session goes with the last reference.
    std::lock_guard<std::mutex> lock(e->matmul->mutex());
    return RKNN_SUCC;
  });
}

int rknn_B_normal_layout_to_native_layout(void* B_input, void* B_output, int K, int N, rknn_matmul_info* info) {
  static const char* kApi = "rknn_B_normal_layout_to_native_layout";
  return Guard(kApi, [&]() -> int {
    if (B_input == nullptr || B_output == nullptr || info == nullptr) {
      return Fail(kApi, StatusCode::kParamInvalid, "B_input, B_output or info is NULL");
    }
    MatmulConfig config;
    Status st = ConfigOf(*info, &config);
    if (!st.ok()) return Fail(kApi, st);
    MatmulGeometry native;
    st = MakeMatmulGeometry(*config.platform, config.types, RKNN_MM_LAYOUT_NATIVE, RKNN_MM_LAYOUT_NORM, 1, K, N,
                            &native);
    if (!st.ok()) return Fail(kApi, st);
    RowMajorToLayout(B_input, native.b, B_output);
    return RKNN_SUCC;
  });
}

}  // extern "C"
