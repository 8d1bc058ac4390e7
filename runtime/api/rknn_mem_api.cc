// The RKNN memory API: tensor memory made by the runtime (rknn_create_mem,
// rknn_create_mem2) or wrapping the application's (rknn_create_mem_from_fd),
// bound to a context's inputs and outputs with rknn_set_io_mem, given as its
// weight or internal memory (rknn_set_weight_mem, rknn_set_internal_mem),
// synced with rknn_mem_sync and freed with rknn_destroy_mem.
//
// Device addresses: a CPU has no physical NPU memory, so each buffer the
// runtime makes gets an address in a device address space of npurt's own
// (rknn_tensor_mem.phys_addr), and rknn_create_mem_from_phys resolves such an
// address back to the bytes -- the round trip board code does with the
// addresses rknn_create_mem reports. Memory of the application's own
// allocator (MMZ on a board) comes with its virt_addr, which is what a CPU reads.
//
// Every rknn_tensor_mem handed out is recorded, so a pointer the runtime did
// not make (or already freed) is RKNN_ERR_PARAM_INVALID, not a crash. A bound
// buffer stays alive while a context uses it, even after rknn_destroy_mem.
#include <sys/mman.h>
#include <sys/stat.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "rknn_api.h"
#include "runtime/api/api_library.h"
#include "runtime/api/api_util.h"
#include "runtime/core/native_layout.h"
#include "runtime/device/dma_buffer.h"

namespace npurt {
namespace {

using api::Fail;
using api::Guard;
using api::Lookup;
using api::LookupAny;
using api::RawEnum;
using api::ValidFormat;

// The memory behind one rknn_tensor_mem: a runtime buffer, the application's
// mapping of an fd, or a mapping the runtime made of the application's fd.
struct MemRecord {
  std::shared_ptr<void> owner;  // keeps the memory valid (a DmaBuffer or the runtime's own mapping), or null
  uint8_t* data = nullptr;      // first byte of the tensor data (virt_addr + offset)
  uint64_t size = 0;
  bool any_context = false;     // RKNN_MEM_FLAG_ALLOC_NO_CONTEXT: any context (or none) may free it
  // A runtime buffer's device address (rknn_create_mem*), 0 for other memory. Kept here, not read back
  // from the rknn_tensor_mem, whose fields the application may overwrite.
  uint64_t device_address = 0;
};

// The device address space of the runtime's buffers: above 4 GiB (no 32-bit physical address of an
// application's allocator lands in it), page aligned, a guard page between buffers, never reused.
constexpr uint64_t kDeviceAddressBase = 0x100000000ull;
constexpr uint64_t kDevicePage = 4096;

class MemTable {
 public:
  static MemTable& Get() {
    static MemTable* table = new MemTable();
    return *table;
  }
  void Add(rknn_tensor_mem* mem, MemRecord record) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (record.device_address != 0) by_address_[record.device_address] = record;
    records_[mem] = std::move(record);
  }
  uint64_t NextDeviceAddress(uint64_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    const uint64_t address = next_address_;
    next_address_ += (size + kDevicePage - 1) / kDevicePage * kDevicePage + kDevicePage;
    return address;
  }
  // The runtime buffer holding device addresses [address, address + size), as a record of those bytes.
  bool FindAddress(uint64_t address, uint64_t size, MemRecord* record) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = by_address_.upper_bound(address);
    if (it == by_address_.begin()) return false;
    --it;
    const uint64_t offset = address - it->first;
    if (offset >= it->second.size || size > it->second.size - offset) return false;
    *record = it->second;
    record->data += offset;
    record->size = size;
    record->any_context = false;
    record->device_address = 0;  // a part of the buffer: destroying it leaves the buffer's address valid
    return true;
  }
  bool Find(const rknn_tensor_mem* mem, MemRecord* record) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = records_.find(mem);
    if (it == records_.end()) return false;
    *record = it->second;
    return true;
  }
  std::shared_ptr<void> OwnerOf(const uint8_t* p, uint64_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [mem, r] : records_) {
      if (r.owner != nullptr && p >= r.data && size <= r.size && p - r.data <= static_cast<ptrdiff_t>(r.size - size)) {
        return r.owner;
      }
    }
    return nullptr;
  }
  // The address of a runtime buffer stops resolving when its rknn_tensor_mem is destroyed (the memory
  // itself may live on while a context is bound to it).
  bool Remove(rknn_tensor_mem* mem) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = records_.find(mem);
    if (it == records_.end()) return false;
    if (it->second.device_address != 0) by_address_.erase(it->second.device_address);
    records_.erase(it);
    return true;
  }

 private:
  std::mutex mutex_;
  std::unordered_map<const rknn_tensor_mem*, MemRecord> records_;
  std::map<uint64_t, MemRecord> by_address_;  // the runtime's buffers by device address
  uint64_t next_address_ = kDeviceAddressBase;
};

// A mapping the runtime made of an application fd; unmapped with the last user.
struct FdMapping {
  void* base = MAP_FAILED;
  size_t length = 0;
  ~FdMapping() {
    if (base != MAP_FAILED) ::munmap(base, length);
  }
};

rknn_tensor_mem* NewMem(MemRecord record, void* virt_addr, uint64_t phys_addr, int32_t fd, int32_t offset,
                        uint32_t flags) {
  auto* mem = new (std::nothrow) rknn_tensor_mem();
  if (mem == nullptr) return nullptr;
  mem->virt_addr = virt_addr;
  mem->phys_addr = phys_addr;
  mem->fd = fd;
  mem->offset = offset;
  mem->size = static_cast<uint32_t>(record.size);
  mem->flags = flags;
  mem->priv_data = nullptr;
  MemTable::Get().Add(mem, std::move(record));
  return mem;
}

rknn_tensor_mem* CreateRuntimeMem(const char* api, rknn_context ctx, uint64_t size, uint64_t alloc_flags) {
  rknn_tensor_mem* result = nullptr;
  Guard(api, [&]() -> int {
    const bool any_context = (alloc_flags & RKNN_MEM_FLAG_ALLOC_NO_CONTEXT) != 0;
    if (!(any_context && ctx == 0) && !LookupAny(api, ctx)) return RKNN_ERR_CTX_INVALID;
    const uint64_t kind = alloc_flags & ~static_cast<uint64_t>(RKNN_MEM_FLAG_ALLOC_NO_CONTEXT);
    const uint64_t known = RKNN_FLAG_MEMORY_CACHEABLE | RKNN_FLAG_MEMORY_NON_CACHEABLE | RKNN_FLAG_MEMORY_TRY_ALLOC_SRAM;
    if ((kind & ~known) != 0 ||
        ((kind & RKNN_FLAG_MEMORY_CACHEABLE) && (kind & RKNN_FLAG_MEMORY_NON_CACHEABLE))) {
      return Fail(api, NPURT_ERROR(kParamInvalid, "alloc_flags 0x%llx: unknown bits, or cacheable and non-cacheable "
                                                  "together", static_cast<unsigned long long>(alloc_flags)));
    }
    if (size == 0 || size > UINT32_MAX) {
      return Fail(api, NPURT_ERROR(kParamInvalid, "size %llu is not in 1..%u (rknn_tensor_mem.size is 32-bit)",
                                   static_cast<unsigned long long>(size), UINT32_MAX));
    }
    // TRY_ALLOC_SRAM: a CPU has no SRAM; the vendor's fallback is DRAM, and so is ours.
    std::unique_ptr<DmaBuffer> buffer;
    Status s = DmaBuffer::Allocate(size, (kind & RKNN_FLAG_MEMORY_NON_CACHEABLE) == 0, &buffer);
    if (!s.ok()) return Fail(api, s);
    MemRecord record;
    record.data = buffer->data();
    record.size = size;
    record.any_context = any_context;
    void* virt = buffer->data();
    const int fd = buffer->fd();
    record.owner = std::shared_ptr<DmaBuffer>(std::move(buffer));
    const uint64_t address = MemTable::Get().NextDeviceAddress(size);
    record.device_address = address;
    result = NewMem(std::move(record), virt, address, fd, 0, RKNN_TENSOR_MEMORY_FLAGS_ALLOC_INSIDE);
    if (result == nullptr) return Fail(api, StatusCode::kMallocFail, "out of memory");
    return RKNN_SUCC;
  });
  return result;
}

// Which of the model's tensors an attr names: the name decides (it is the
// queried attr); without a name, the index must be unambiguous.
Status ResolveIo(const Model& m, const rknn_tensor_attr& attr, bool* is_input) {
  const size_t name_len = strnlen(attr.name, RKNN_MAX_NAME_LEN);
  const std::string name(attr.name, name_len);
  const bool in_range_in = attr.index < m.inputs().size(), in_range_out = attr.index < m.outputs().size();
  if (!name.empty()) {
    if (in_range_in && m.tensors()[m.inputs()[attr.index].tensor].name == name) {
      *is_input = true;
      return Status::Ok();
    }
    if (in_range_out && m.tensors()[m.outputs()[attr.index].tensor].name == name) {
      *is_input = false;
      return Status::Ok();
    }
    return NPURT_ERROR(kParamInvalid, "attr names '%s' with index %u: no input or output of the model has that "
                                      "name and index (pass the attr from rknn_query)", name.c_str(), attr.index);
  }
  if (in_range_in == in_range_out) {
    return NPURT_ERROR(kParamInvalid, in_range_in ? "attr has no name and index %u is both an input and an output "
                                                    "(pass the attr from rknn_query)"
                                                  : "attr index %u is neither an input nor an output",
                       attr.index);
  }
  *is_input = in_range_in;
  return Status::Ok();
}

// The buffer forms the RV1106 / RV1103 runtime takes (C API reference, zero-copy chapter): an input as
// uint8 NHWC converted by the runtime, or int8 codes already in the native layout; an output as int8 codes
// in the native layout (NC1HWC2, or NHWC by RKNN_QUERY_NATIVE_NHWC_OUTPUT_ATTR). No float conversion there.
Status CheckMiniRuntimeBinding(bool is_input, int32_t type, int32_t fmt, bool pass_through) {
  const char* t = DataTypeName(static_cast<DataType>(type));
  const char* f = LayoutName(static_cast<Layout>(fmt));
  if (is_input) {
    const bool converted = type == RKNN_TENSOR_UINT8 && fmt == RKNN_TENSOR_NHWC && !pass_through;
    const bool native = type == RKNN_TENSOR_INT8 && pass_through && (fmt == RKNN_TENSOR_NHWC || fmt == RKNN_TENSOR_NC1HWC2);
    if (converted || native) return Status::Ok();
    return NPURT_ERROR(kParamInvalid, "librknnmrt (RV1106 / RV1103 class) takes an input as uint8 NHWC "
                                      "(pass_through 0) or as int8 in the native layout (pass_through 1, NHWC or "
                                      "NC1HWC2), not %s %s with pass_through %d", t, f, pass_through ? 1 : 0);
  }
  if (type == RKNN_TENSOR_INT8 && (fmt == RKNN_TENSOR_NC1HWC2 || fmt == RKNN_TENSOR_NHWC)) return Status::Ok();
  return NPURT_ERROR(kParamInvalid, "librknnmrt (RV1106 / RV1103 class) writes an output as int8 in the native layout "
                                    "(RKNN_QUERY_NATIVE_OUTPUT_ATTR: NC1HWC2, or RKNN_QUERY_NATIVE_NHWC_OUTPUT_ATTR), "
                                    "not %s %s; dequantize with the attr's zp and scale", t, f);
}

}  // namespace

uint64_t api::NewDeviceAddress(uint64_t size) { return MemTable::Get().NextDeviceAddress(size); }

std::shared_ptr<void> api::MemoryOwnerOf(const void* data, uint64_t size) {
  return MemTable::Get().OwnerOf(static_cast<const uint8_t*>(data), size);
}

bool api::FindMemory(const rknn_tensor_mem* mem, uint8_t** data, uint64_t* size, std::shared_ptr<void>* owner) {
  MemRecord record;
  if (mem == nullptr || !MemTable::Get().Find(mem, &record)) return false;
  *data = record.data;
  *size = record.size;
  *owner = record.owner;
  return true;
}

}  // namespace npurt

using namespace npurt;

extern "C" {

rknn_tensor_mem* rknn_create_mem(rknn_context ctx, uint32_t size) {
  return CreateRuntimeMem("rknn_create_mem", ctx, size, RKNN_FLAG_MEMORY_CACHEABLE);
}

rknn_tensor_mem* rknn_create_mem2(rknn_context ctx, uint64_t size, uint64_t alloc_flags) {
  return CreateRuntimeMem("rknn_create_mem2", ctx, size, alloc_flags);
}

rknn_tensor_mem* rknn_create_mem_from_fd(rknn_context ctx, int32_t fd, void* virt_addr, uint32_t size,
                                         int32_t offset) {
  static const char* kApi = "rknn_create_mem_from_fd";
  rknn_tensor_mem* result = nullptr;
  Guard(kApi, [&]() -> int {
    if (!LookupAny(kApi, ctx)) return RKNN_ERR_CTX_INVALID;
    if (fd < 0) return Fail(kApi, NPURT_ERROR(kParamInvalid, "fd %d is not a file descriptor", fd));
    if (size == 0 || offset < 0) {
      return Fail(kApi, NPURT_ERROR(kParamInvalid, "size %u must be > 0 and offset %d >= 0", size, offset));
    }
    struct stat st;
    if (::fstat(fd, &st) != 0) {
      return Fail(kApi, NPURT_ERROR(kParamInvalid, "fd %d: %s", fd, std::strerror(errno)));
    }
    const uint64_t end = static_cast<uint64_t>(offset) + size;
    if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) < end) {
      return Fail(kApi, NPURT_ERROR(kParamInvalid, "fd %d holds %lld bytes; offset %d + size %u reaches past it", fd,
                                    static_cast<long long>(st.st_size), offset, size));
    }
    MemRecord record;
    record.size = size;
    if (virt_addr != nullptr) {
      // The application's own mapping of the fd: it stays the application's to unmap.
      record.data = static_cast<uint8_t*>(virt_addr) + offset;
    } else {
      auto mapping = std::make_shared<FdMapping>();
      mapping->length = static_cast<size_t>(end);
      mapping->base = ::mmap(nullptr, mapping->length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      if (mapping->base == MAP_FAILED) {
        return Fail(kApi, NPURT_ERROR(kParamInvalid, "cannot map fd %d (%llu bytes): %s", fd,
                                      static_cast<unsigned long long>(end), std::strerror(errno)));
      }
      virt_addr = mapping->base;
      record.data = static_cast<uint8_t*>(mapping->base) + offset;
      record.owner = std::move(mapping);
    }
    result = NewMem(std::move(record), virt_addr, 0, fd, offset, RKNN_TENSOR_MEMORY_FLAGS_FROM_FD);
    if (result == nullptr) return Fail(kApi, StatusCode::kMallocFail, "out of memory");
    return RKNN_SUCC;
  });
  return result;
}

rknn_tensor_mem* rknn_create_mem_from_phys(rknn_context ctx, uint64_t phys_addr, void* virt_addr, uint32_t size) {
  static const char* kApi = "rknn_create_mem_from_phys";
  rknn_tensor_mem* result = nullptr;
  Guard(kApi, [&]() -> int {
    if (!LookupAny(kApi, ctx)) return RKNN_ERR_CTX_INVALID;
    if (size == 0) return Fail(kApi, StatusCode::kParamInvalid, "size is 0");
    MemRecord record;
    if (virt_addr != nullptr) {
      // The application's mapping of its own physical memory (an MMZ block): the CPU reads it there, and
      // it stays the application's to free.
      record.data = static_cast<uint8_t*>(virt_addr);
      record.size = size;
    } else if (MemTable::Get().FindAddress(phys_addr, size, &record)) {
      virt_addr = record.data;  // a runtime buffer's address: the bytes stay alive while this mem exists
    } else {
      return Fail(kApi, NPURT_ERROR(kParamInvalid, "physical address 0x%llx (%u bytes) with virt_addr NULL: no "
                                                   "buffer of rknn_create_mem holds it (off-board there is no "
                                                   "other device memory; pass the block's virt_addr too)",
                                    static_cast<unsigned long long>(phys_addr), size));
    }
    result = NewMem(std::move(record), virt_addr, phys_addr, -1, 0, RKNN_TENSOR_MEMORY_FLAGS_FROM_PHYS);
    if (result == nullptr) return Fail(kApi, StatusCode::kMallocFail, "out of memory");
    return RKNN_SUCC;
  });
  return result;
}

rknn_tensor_mem* rknn_create_mem_from_mb_blk(rknn_context ctx, void* mb_blk, int32_t) {
  Guard("rknn_create_mem_from_mb_blk", [&]() -> int {
    if (!Lookup("rknn_create_mem_from_mb_blk", ctx)) return RKNN_ERR_CTX_INVALID;
    return Fail("rknn_create_mem_from_mb_blk", StatusCode::kFail,
                mb_blk == nullptr ? "mb_blk is NULL" : "MB blocks exist only in Rockchip's MPI; not supported");
  });
  return nullptr;
}

int rknn_destroy_mem(rknn_context ctx, rknn_tensor_mem* mem) {
  static const char* kApi = "rknn_destroy_mem";
  return Guard(kApi, [&]() -> int {
    MemRecord record;
    const bool known = mem != nullptr && MemTable::Get().Find(mem, &record);
    if (!(ctx == 0 && known && record.any_context) && !LookupAny(kApi, ctx)) return RKNN_ERR_CTX_INVALID;
    if (mem == nullptr) return Fail(kApi, StatusCode::kParamInvalid, "mem is NULL");
    if (!known) {
      return Fail(kApi, StatusCode::kParamInvalid, "mem was not created by rknn_create_mem* or was already destroyed");
    }
    MemTable::Get().Remove(mem);
    delete mem;  // the memory itself goes with the last context still bound to it
    return RKNN_SUCC;
  });
}

int rknn_mem_sync(rknn_context ctx, rknn_tensor_mem* mem, rknn_mem_sync_mode mode) {
  static const char* kApi = "rknn_mem_sync";
  return Guard(kApi, [&]() -> int {
    if (!LookupAny(kApi, ctx)) return RKNN_ERR_CTX_INVALID;
    if (mem == nullptr) return Fail(kApi, StatusCode::kParamInvalid, "mem is NULL");
    MemRecord record;
    if (!MemTable::Get().Find(mem, &record)) {
      return Fail(kApi, StatusCode::kParamInvalid, "mem was not created by rknn_create_mem* or was already destroyed");
    }
    const int32_t m = RawEnum(mode);
    if (m != RKNN_MEMORY_SYNC_TO_DEVICE && m != RKNN_MEMORY_SYNC_FROM_DEVICE && m != RKNN_MEMORY_SYNC_BIDIRECTIONAL) {
      return Fail(kApi, NPURT_ERROR(kParamInvalid, "mode %d is not an rknn_mem_sync_mode", m));
    }
    // The "device" is this CPU: its caches are coherent, so there is nothing to flush or invalidate.
    // A full fence still orders the application's writes before a run on another thread.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    return RKNN_SUCC;
  });
}

// rknn_set_weight_mem / rknn_set_internal_mem: the application's memory for the weights or the arena.
static int SetContextMemory(const char* api, rknn_context ctx, rknn_tensor_mem* mem, bool weights) {
  return Guard(api, [&]() -> int {
    auto e = Lookup(api, ctx);
    if (!e) return RKNN_ERR_CTX_INVALID;
    if (mem == nullptr) return Fail(api, StatusCode::kParamInvalid, "mem is NULL");
    MemRecord record;
    if (!MemTable::Get().Find(mem, &record)) {
      return Fail(api, StatusCode::kParamInvalid, "mem was not created by rknn_create_mem* or was already destroyed");
    }
    std::lock_guard<std::mutex> lock(e->context->mutex());
    Context& context = *e->context;
    Status s = weights ? context.SetWeightMemory(record.data, record.size, record.owner)
                       : context.SetInternalMemory(record.data, record.size, record.owner);
    return s.ok() ? RKNN_SUCC : Fail(api, s);
  });
}

int rknn_set_weight_mem(rknn_context ctx, rknn_tensor_mem* mem) {
  return SetContextMemory("rknn_set_weight_mem", ctx, mem, true);
}

int rknn_set_internal_mem(rknn_context ctx, rknn_tensor_mem* mem) {
  return SetContextMemory("rknn_set_internal_mem", ctx, mem, false);
}

int rknn_set_io_mem(rknn_context ctx, rknn_tensor_mem* mem, rknn_tensor_attr* attr) {
  static const char* kApi = "rknn_set_io_mem";
  return Guard(kApi, [&]() -> int {
    auto e = Lookup(kApi, ctx);
    if (!e) return RKNN_ERR_CTX_INVALID;
    if (mem == nullptr) return Fail(kApi, StatusCode::kParamInvalid, "mem is NULL");
    if (attr == nullptr) return Fail(kApi, StatusCode::kParamInvalid, "attr is NULL");
    MemRecord record;
    if (!MemTable::Get().Find(mem, &record)) {
      return Fail(kApi, StatusCode::kParamInvalid, "mem was not created by rknn_create_mem* or was already destroyed");
    }
    const int32_t type = RawEnum(attr->type), fmt = RawEnum(attr->fmt);
    if (!IsValidDataType(type)) return Fail(kApi, NPURT_ERROR(kParamInvalid, "attr type %d is not a tensor type", type));
    if (!ValidFormat(fmt)) return Fail(kApi, NPURT_ERROR(kParamInvalid, "attr fmt %d is not a tensor format", fmt));
    std::lock_guard<std::mutex> lock(e->context->mutex());
    Context& context = *e->context;
    bool is_input = true;
    Status s = ResolveIo(context.model(), *attr, &is_input);
    if (!s.ok()) return Fail(kApi, s);
    if (api::MiniRuntime()) {
      s = CheckMiniRuntimeBinding(is_input, type, fmt, attr->pass_through != 0);
      if (!s.ok()) return Fail(kApi, s);
    }
    IoBinding binding;
    binding.buffer.data = record.data;
    binding.buffer.size = record.size;
    binding.buffer.dtype = static_cast<DataType>(type);
    binding.buffer.fmt = static_cast<Layout>(fmt);
    binding.buffer.w_stride = attr->w_stride;
    binding.pass_through = is_input && attr->pass_through != 0;
    binding.keep_alive = record.owner;
    s = context.BindIo(is_input, attr->index, std::move(binding));
    return s.ok() ? RKNN_SUCC : Fail(kApi, s);
  });
}

}  // extern "C"
