// How a "job" (one rknn_run) is submitted to the device: the driver's job
// timeout, and faults injected on purpose so applications can test their
// watchdogs and error paths without a board whose NPU hangs.
//
//   NPURT_JOB_TIMEOUT_MS=T   a run still going after T ms (may be fractional)
//                            stops after its current op: RKNN_ERR_TIMEOUT
//   NPURT_FAULT=fail:N       every Nth run of each context fails: RKNN_ERR_FAIL
//   NPURT_FAULT=timeout:N    every Nth run of each context times out: RKNN_ERR_TIMEOUT
//                            (both may be given, comma-separated: fail:5,timeout:7)
//
// Injected faults return at once, without running; the context stays usable
// and the next run behaves normally. Read once per process; a malformed
// value is ignored with a warning.
#pragma once

#include <cstdint>

namespace npurt {

struct JobPolicy {
  double timeout_ms = 0.0;  // 0: none
  uint64_t fail_every = 0;  // 0: never
  uint64_t timeout_every = 0;
};

const JobPolicy& GetJobPolicy();

// Parses the two settings (nullptr: unset) into *policy; false, with what was wrong in *error, when a
// value is malformed (the policy then keeps the settings that parsed).
bool ParseJobPolicy(const char* timeout_ms, const char* fault, JobPolicy* policy, const char** error);

}  // namespace npurt
