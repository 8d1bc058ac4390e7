#include "runtime/device/dma_buffer.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>

#include "runtime/core/log.h"

namespace npurt {

DmaPool& DmaPool::Get() {
  static DmaPool* pool = new DmaPool();  // never destroyed: buffers may outlive static destruction order
  return *pool;
}

DmaPool::DmaPool() {
  const char* env = std::getenv("NPURT_DMA_POOL_MB");
  if (env == nullptr || *env == '\0') return;
  char* end = nullptr;
  const unsigned long long mb = std::strtoull(env, &end, 10);
  if (end == env || *end != '\0') {
    NPURT_LOG(kWarning, "NPURT_DMA_POOL_MB='%s' is not a number of MiB; the device memory pool is unlimited", env);
    return;
  }
  limit_ = static_cast<uint64_t>(mb) << 20;
}

Status DmaPool::Reserve(uint64_t bytes, const char* what) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (limit_ != 0 && (bytes > limit_ || used_ > limit_ - bytes)) {
    return NPURT_ERROR(kMallocFail,
                       "cannot allocate %llu bytes of device memory for %s: %llu of the %llu-byte pool in use "
                       "(NPURT_DMA_POOL_MB)",
                       static_cast<unsigned long long>(bytes), what, static_cast<unsigned long long>(used_),
                       static_cast<unsigned long long>(limit_));
  }
  used_ += bytes;
  return Status::Ok();
}

void DmaPool::Release(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  used_ -= bytes < used_ ? bytes : used_;
}

uint64_t DmaPool::used() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return used_;
}

Status DmaReservation::Acquire(uint64_t bytes, const char* what) {
  Reset();
  NPURT_RETURN_IF_ERROR(DmaPool::Get().Reserve(bytes, what));
  bytes_ = bytes;
  return Status::Ok();
}

void DmaReservation::Reset() {
  if (bytes_ != 0) DmaPool::Get().Release(bytes_);
  bytes_ = 0;
}

Status DmaBuffer::Allocate(uint64_t size, bool cacheable, std::unique_ptr<DmaBuffer>* out) {
  if (size == 0) return NPURT_ERROR(kParamInvalid, "cannot allocate a 0-byte device buffer");
  std::unique_ptr<DmaBuffer> b(new (std::nothrow) DmaBuffer());
  if (!b) return NPURT_ERROR(kMallocFail, "out of memory");
  NPURT_RETURN_IF_ERROR(b->reservation_.Acquire(size, "a tensor memory"));
  b->fd_ = ::memfd_create("npurt-dma", MFD_CLOEXEC);
  if (b->fd_ < 0) return NPURT_ERROR(kMallocFail, "memfd_create failed: %s", std::strerror(errno));
  if (::ftruncate(b->fd_, static_cast<off_t>(size)) != 0) {
    return NPURT_ERROR(kMallocFail, "cannot size a %llu-byte device buffer: %s",
                       static_cast<unsigned long long>(size), std::strerror(errno));
  }
  void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd_, 0);
  if (p == MAP_FAILED) {
    return NPURT_ERROR(kMallocFail, "cannot map a %llu-byte device buffer: %s",
                       static_cast<unsigned long long>(size), std::strerror(errno));
  }
  b->data_ = static_cast<uint8_t*>(p);
  b->size_ = size;
  b->cacheable_ = cacheable;
  *out = std::move(b);
  return Status::Ok();
}

DmaBuffer::~DmaBuffer() {
  if (data_ != nullptr) ::munmap(data_, size_);
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace npurt
