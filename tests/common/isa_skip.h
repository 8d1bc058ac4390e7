// Skipping a test that needs an instruction set this CPU target lacks, and
// saying so: under ctest each skip appends "<set> <Suite>.<Test>" to the file
// NPURT_ISA_SKIP_LOG names, and npurt_isa_report (isa_report.cc) counts the
// lines at the end of the run, so a machine that exercises only part of the
// kernels shows it. Without the variable (a test binary run by hand) the skip
// is only gtest's.
//
//   TEST(RequantizeRowsAvx512, BitExactWithReference) {
//     NPURT_SKIP_UNLESS_CPU(CpuTarget::kAvx512);
//     ...
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "runtime/kernels/dispatch.h"
#include "tests/common/isa_skip_log.h"

namespace npurt {

// True, after logging the skip, when ActiveCpuTarget() (NPURT_CPU_TARGET's cap
// included) is below `wanted`.
inline bool SkipForLackOf(CpuTarget wanted) {
  if (ActiveCpuTarget() >= wanted) return false;
  std::string test_name;
  if (const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info()) {
    test_name = std::string(test->test_suite_name()) + "." + test->name();
  }
  LogIsaSkip(wanted, test_name);
  return true;
}

}  // namespace npurt

// In a TEST body: returns as skipped, "no avx512 on this CPU target", when the target is below `target`.
#define NPURT_SKIP_UNLESS_CPU(target)               \
  if (!::npurt::SkipForLackOf(target)) {            \
  } else                                            \
    GTEST_SKIP() << "no " << ::npurt::CpuTargetName(target) << " on this CPU target"
