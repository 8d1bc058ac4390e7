#include "compiler/quant/custom_op_plugins.h"

#include <dlfcn.h>

#include <algorithm>
#include <mutex>

namespace npurt {
namespace compiler {
namespace {

struct Plugins {
  std::mutex mutex;
  std::vector<std::string> paths;
  std::vector<rknn_custom_op> ops;
};

Plugins& Loaded() {
  static Plugins* plugins = new Plugins();  // never destroyed: contexts may outlive static destruction order
  return *plugins;
}

}  // namespace

Status UseCustomOpPlugin(const std::string& path) {
  Plugins& p = Loaded();
  std::lock_guard<std::mutex> lock(p.mutex);
  if (std::find(p.paths.begin(), p.paths.end(), path) != p.paths.end()) return Status::Ok();
  void* library = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = ::dlerror();
    return NPURT_ERROR(kParamInvalid, "custom op plugin '%s': cannot load it: %s", path.c_str(), why ? why : "?");
  }
  auto entry = reinterpret_cast<get_custom_op_func>(::dlsym(library, "get_rknn_custom_op"));
  if (entry == nullptr) {
    ::dlclose(library);
    return NPURT_ERROR(kParamInvalid, "custom op plugin '%s' has no get_rknn_custom_op() (the vendor's plugin entry)",
                       path.c_str());
  }
  const rknn_custom_op* op = entry();
  if (op == nullptr) {
    return NPURT_ERROR(kParamInvalid, "custom op plugin '%s': get_rknn_custom_op() returned NULL", path.c_str());
  }
  Status s = CheckCustomOp(*op);
  if (!s.ok()) return NPURT_ERROR(kParamInvalid, "custom op plugin '%s': %s", path.c_str(), s.message().c_str());
  for (const rknn_custom_op& known : p.ops) {
    if (std::string(known.op_type) == op->op_type) {
      return NPURT_ERROR(kParamInvalid, "custom op plugin '%s': op type '%s' is implemented by another plugin already",
                         path.c_str(), op->op_type);
    }
  }
  p.ops.push_back(*op);  // the library stays loaded: its callbacks are called until the process ends
  p.paths.push_back(path);
  return Status::Ok();
}

bool HasCustomOpImplementation(const std::string& op_type) {
  Plugins& p = Loaded();
  std::lock_guard<std::mutex> lock(p.mutex);
  for (const rknn_custom_op& op : p.ops) {
    if (op_type == op.op_type) return true;
  }
  return false;
}

Status RegisterCustomOpImplementations(Context* context) {
  std::vector<rknn_custom_op> wanted;
  {
    Plugins& p = Loaded();
    std::lock_guard<std::mutex> lock(p.mutex);
    const std::vector<std::string> types = context->CustomOpTypes();
    for (const rknn_custom_op& op : p.ops) {
      if (std::find(types.begin(), types.end(), op.op_type) != types.end()) wanted.push_back(op);
    }
  }
  if (wanted.empty()) return Status::Ok();
  return context->RegisterCustomOps(wanted.data(), static_cast<uint32_t>(wanted.size()));
}

}  // namespace compiler
}  // namespace npurt
