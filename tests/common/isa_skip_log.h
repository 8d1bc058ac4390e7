// The skip log of tests/common/isa_skip.h without GoogleTest, for test programs that are not gtest
// binaries (npurt_conformance --cpu-target): one line "<set> <what>" appended to the file
// NPURT_ISA_SKIP_LOG names; nothing when the variable is unset.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "runtime/kernels/dispatch.h"

namespace npurt {

// The exit status of a test program skipped for lack of an instruction set (ctest's SKIP_RETURN_CODE).
constexpr int kSkippedForLackOfIsa = 77;

inline void LogIsaSkip(CpuTarget wanted, const std::string& what) {
  const char* log = std::getenv("NPURT_ISA_SKIP_LOG");
  if (log == nullptr || *log == '\0') return;
  const std::string line = std::string(CpuTargetName(wanted)) + (what.empty() ? "" : " " + what) + "\n";
  // One O_APPEND write: the test processes ctest runs in parallel never interleave their lines.
  const int fd = ::open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return;
  if (::write(fd, line.data(), line.size()) < 0) {
    // A lost line only makes the report's count low; the skip itself stands.
  }
  ::close(fd);
}

}  // namespace npurt
