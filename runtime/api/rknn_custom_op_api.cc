// The C ABI of rknn_custom_op.h: registering the application's operators on a context and reading a
// node's attributes from its callbacks. librknnrt only (RV1106 / RV1103's librknnmrt has no custom ops).
#include "rknn_custom_op.h"
#include "runtime/api/api_util.h"

using namespace npurt;

extern "C" {

int rknn_register_custom_ops(rknn_context ctx, rknn_custom_op* op, uint32_t custom_op_num) {
  return api::Guard("rknn_register_custom_ops", [&]() -> int {
    auto e = api::Lookup("rknn_register_custom_ops", ctx);
    if (!e) return RKNN_ERR_CTX_INVALID;
    if (op == nullptr) return api::Fail("rknn_register_custom_ops", StatusCode::kParamInvalid, "op is NULL");
    if (custom_op_num == 0) {
      return api::Fail("rknn_register_custom_ops", StatusCode::kParamInvalid, "custom_op_num is 0");
    }
    std::lock_guard<std::mutex> lock(e->context->mutex());
    Status s = e->context->RegisterCustomOps(op, custom_op_num);
    if (!s.ok()) return api::Fail("rknn_register_custom_ops", s);
    for (uint32_t k = 0; k < custom_op_num; ++k) {
      NPURT_LOG(kInfo, "rknn_register_custom_ops: registered '%s' (CPU)", op[k].op_type);
    }
    return RKNN_SUCC;
  });
}

void rknn_custom_op_get_op_attr(rknn_custom_op_context* op_ctx, const char* attr_name, rknn_custom_op_attr* op_attr) {
  static_cast<void>(api::Guard("rknn_custom_op_get_op_attr", [&]() -> int {
    if (op_attr == nullptr) return api::Fail("rknn_custom_op_get_op_attr", StatusCode::kParamInvalid, "op_attr is NULL");
    std::memset(op_attr, 0, sizeof(*op_attr));
    if (op_ctx == nullptr || attr_name == nullptr) {
      return api::Fail("rknn_custom_op_get_op_attr", StatusCode::kParamInvalid,
                       op_ctx == nullptr ? "op_ctx is NULL" : "attr_name is NULL");
    }
    if (!LookupCustomOpAttr(op_ctx, attr_name, op_attr)) {
      return api::Fail("rknn_custom_op_get_op_attr", StatusCode::kParamInvalid,
                       "op_ctx is not the context of a live custom op node (pass the one the callback received)");
    }
    return RKNN_SUCC;
  }));
}

}  // extern "C"
