#include "runtime/core/status.h"

#include <cstdarg>
#include <cstdio>
#include <string>

namespace npurt {

Status MakeStatus(StatusCode code, const char* fmt, ...) {
  char buf[1024];
  va_list args, again;
  va_start(args, fmt);
  va_copy(again, args);
  const int n = std::vsnprintf(buf, sizeof(buf), fmt, args);
  va_end(args);
  if (n < static_cast<int>(sizeof(buf))) {
    va_end(again);
    return Status(code, n < 0 ? fmt : buf);
  }
  std::string long_message(static_cast<size_t>(n) + 1, '\0');  // a long message (the supported-op list) whole
  std::vsnprintf(long_message.data(), long_message.size(), fmt, again);
  va_end(again);
  long_message.resize(static_cast<size_t>(n));
  return Status(code, long_message);
}

}  // namespace npurt
