// Maps rknn_context handles to contexts. Handles are never reused, so a stale
// or destroyed handle is always reported as RKNN_ERR_CTX_INVALID instead of
// reaching another context.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "runtime/core/context.h"

namespace npurt {

class MatmulSession;

// A model's context (rknn_init) or a Matmul API context (rknn_matmul_create): one of the two is set.
struct ContextEntry {
  std::unique_ptr<Context> context;
  std::shared_ptr<MatmulSession> matmul;
  uint32_t core_mask = 0;
  uint64_t frame_id = 0;
  uint64_t model_device_address = 0;  // RKNN_QUERY_DEVICE_MEM_INFO's phys_addr, given at the first query
};

class HandleTable {
 public:
  static HandleTable& Get();
  uint64_t Add(std::shared_ptr<ContextEntry> entry);
  std::shared_ptr<ContextEntry> Find(uint64_t handle);
  std::shared_ptr<ContextEntry> Remove(uint64_t handle);

 private:
  std::mutex mutex_;
  std::unordered_map<uint64_t, std::shared_ptr<ContextEntry>> entries_;
  uint64_t next_ = 1;
};

}  // namespace npurt
