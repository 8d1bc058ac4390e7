// What stands in for the NPU's DMA memory on a CPU: buffers an application
// can share by file descriptor (rknn_create_mem's `fd`), drawn from one
// process-wide budget that emulates the board's CMA/IOMMU pool.
//
// A DmaBuffer is a memfd (shared, page aligned, so every tensor start is
// 64-byte aligned) mapped read/write; its fd can be passed to another process
// or mapped again, as a dma-buf fd can. "Cacheable" is recorded only: CPU
// caches are coherent, so rknn_mem_sync has nothing to flush (documented in
// docs/c_api.md).
//
// DmaPool counts every byte the runtime holds as device memory -- buffers from
// rknn_create_mem and each context's arena, I/O buffers and weights -- against
// NPURT_DMA_POOL_MB (unset or 0: no limit). Exceeding it is
// RKNN_ERR_MALLOC_FAIL, as an exhausted CMA pool is on a board.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>

#include "runtime/core/status.h"

namespace npurt {

class DmaPool {
 public:
  static DmaPool& Get();
  // Takes `bytes` from the budget; kMallocFail (naming `what`) when it would exceed the limit.
  Status Reserve(uint64_t bytes, const char* what);
  void Release(uint64_t bytes);
  uint64_t used() const;
  uint64_t limit() const { return limit_; }  // 0: unlimited

 private:
  DmaPool();
  mutable std::mutex mutex_;
  uint64_t limit_ = 0;
  uint64_t used_ = 0;
};

// Holds `bytes` of the pool until destroyed.
class DmaReservation {
 public:
  DmaReservation() = default;
  ~DmaReservation() { Reset(); }
  DmaReservation(const DmaReservation&) = delete;
  DmaReservation& operator=(const DmaReservation&) = delete;
  Status Acquire(uint64_t bytes, const char* what);
  void Reset();
  uint64_t bytes() const { return bytes_; }

 private:
  uint64_t bytes_ = 0;
};

class DmaBuffer {
 public:
  // A new zero-filled buffer of `size` bytes (> 0) counted against the pool.
  static Status Allocate(uint64_t size, bool cacheable, std::unique_ptr<DmaBuffer>* out);
  ~DmaBuffer();
  DmaBuffer(const DmaBuffer&) = delete;
  DmaBuffer& operator=(const DmaBuffer&) = delete;

  uint8_t* data() const { return data_; }
  uint64_t size() const { return size_; }
  int fd() const { return fd_; }
  bool cacheable() const { return cacheable_; }

 private:
  DmaBuffer() = default;
  uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
  int fd_ = -1;
  bool cacheable_ = true;
  DmaReservation reservation_;
};

}  // namespace npurt
