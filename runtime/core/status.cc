#include "runtime/core/status.h"

#include <cstdarg>
#include <cstdio>

namespace npurt {

Status MakeStatus(StatusCode code, const char* fmt, ...) {
  char buf[1024];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof(buf), fmt, args);
  va_end(args);
  return Status(code, buf);
}

}  // namespace npurt
