// Status: the one error type of npurt. Codes map 1:1 to RKNN_ERR_* so the C API
// returns them unchanged; the message goes to the logger at the API boundary.
#pragma once

#include <string>
#include <utility>

namespace npurt {

enum class StatusCode : int {
  kOk = 0,
  kFail = -1,
  kTimeout = -2,
  kDeviceUnavailable = -3,
  kMallocFail = -4,
  kParamInvalid = -5,
  kModelInvalid = -6,
  kCtxInvalid = -7,
  kInputInvalid = -8,
  kOutputInvalid = -9,
  kDeviceUnmatch = -10,
  kTargetPlatformUnmatch = -13,
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  int rknn_code() const { return static_cast<int>(code_); }
  const std::string& message() const { return message_; }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// Builds a Status from printf-style arguments.
Status MakeStatus(StatusCode code, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

#define NPURT_ERROR(code, ...) ::npurt::MakeStatus(::npurt::StatusCode::code, __VA_ARGS__)

#define NPURT_RETURN_IF_ERROR(expr)         \
  do {                                      \
    ::npurt::Status npurt_status_ = (expr); \
    if (!npurt_status_.ok()) return npurt_status_; \
  } while (0)

// Semantic check with a message; returns the given code when `cond` fails.
#define NPURT_CHECK_OR_RETURN(cond, code, ...)                       \
  do {                                                              \
    if (!(cond)) return ::npurt::MakeStatus(::npurt::StatusCode::code, __VA_ARGS__); \
  } while (0)

}  // namespace npurt
