// Helpers shared by the files of the RKNN C ABI (rknn_api.cc, rknn_mem_api.cc):
// error reporting, the exception guard, context lookup and raw enum reads.
#pragma once

#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>

#include "rknn_api.h"
#include "runtime/api/handle_table.h"
#include "runtime/core/log.h"
#include "runtime/core/status.h"

namespace npurt {
namespace api {

// Logs "api: message" and returns the RKNN code of `s`.
inline int Fail(const char* api, const Status& s) {
  NPURT_LOG(kError, "%s: %s", api, s.message().c_str());
  return s.rknn_code();
}

inline int Fail(const char* api, StatusCode code, const char* message) { return Fail(api, Status(code, message)); }

// Runs `body` and turns any escaping exception into an error code.
template <typename Body>
int Guard(const char* api, Body body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return Fail(api, StatusCode::kMallocFail, "out of memory");
  } catch (const std::exception& e) {
    return Fail(api, StatusCode::kFail, e.what());
  } catch (...) {
    return Fail(api, StatusCode::kFail, "unexpected internal error");
  }
}

// Looks up a model's or a Matmul context (the memory functions serve both); logs and returns
// RKNN_ERR_CTX_INVALID when unknown.
inline std::shared_ptr<ContextEntry> LookupAny(const char* api, rknn_context ctx) {
  if (ctx == 0) {
    Fail(api, StatusCode::kCtxInvalid, "context is 0 (not initialized)");
    return nullptr;
  }
  std::shared_ptr<ContextEntry> e = HandleTable::Get().Find(static_cast<uint64_t>(ctx));
  if (!e) Fail(api, StatusCode::kCtxInvalid, ("unknown or destroyed context " + std::to_string(ctx)).c_str());
  return e;
}

// Looks up a model's context (rknn_init); a Matmul context is RKNN_ERR_CTX_INVALID here.
inline std::shared_ptr<ContextEntry> Lookup(const char* api, rknn_context ctx) {
  std::shared_ptr<ContextEntry> e = LookupAny(api, ctx);
  if (e && !e->context) {
    Fail(api, StatusCode::kCtxInvalid,
         ("context " + std::to_string(ctx) + " is a Matmul context (rknn_matmul_create); use rknn_matmul_*").c_str());
    return nullptr;
  }
  return e;
}

// Looks up a Matmul context; a model's context is RKNN_ERR_CTX_INVALID here.
inline std::shared_ptr<ContextEntry> LookupMatmul(const char* api, rknn_context ctx) {
  std::shared_ptr<ContextEntry> e = LookupAny(api, ctx);
  if (e && !e->matmul) {
    Fail(api, StatusCode::kCtxInvalid,
         ("context " + std::to_string(ctx) + " is a model's context (rknn_init), not a Matmul context").c_str());
    return nullptr;
  }
  return e;
}

// A fresh address in the runtime's device address space for `size` bytes (rknn_mem_api.cc).
uint64_t NewDeviceAddress(uint64_t size);

// What keeps memory of rknn_create_mem* alive, when [data, data + size) lies in such memory; else null
// (the application's own memory). Defined in rknn_mem_api.cc.
std::shared_ptr<void> MemoryOwnerOf(const void* data, uint64_t size);

// The bytes of an rknn_tensor_mem made by rknn_create_mem* (data = virt_addr + offset) and what keeps
// them valid; false for a pointer the runtime did not make or already freed. Defined in rknn_mem_api.cc.
bool FindMemory(const rknn_tensor_mem* mem, uint8_t** data, uint64_t* size, std::shared_ptr<void>* owner);

inline bool ValidFormat(int fmt) { return fmt >= RKNN_TENSOR_NCHW && fmt < RKNN_TENSOR_FORMAT_MAX; }

// A C caller may store any int in an enum field; reading it as the C++ enum
// type would be undefined behaviour, so enum values are read as raw integers.
template <typename Enum>
int32_t RawEnum(const Enum& value) {
  static_assert(sizeof(Enum) == sizeof(int32_t), "RKNN enums are 4 bytes");
  int32_t raw;
  std::memcpy(&raw, &value, sizeof(raw));
  return raw;
}

}  // namespace api
}  // namespace npurt
