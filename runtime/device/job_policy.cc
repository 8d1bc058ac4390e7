#include "runtime/device/job_policy.h"

#include <cstdlib>
#include <cstring>
#include <string>

#include "runtime/core/log.h"

namespace npurt {
namespace {

bool ParseCount(const std::string& text, uint64_t* value) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return false;
  *value = std::strtoull(text.c_str(), nullptr, 10);
  return *value > 0;
}

}  // namespace

bool ParseJobPolicy(const char* timeout_ms, const char* fault, JobPolicy* policy, const char** error) {
  *error = nullptr;
  if (timeout_ms != nullptr && *timeout_ms != '\0') {
    char* end = nullptr;
    const double ms = std::strtod(timeout_ms, &end);
    if (end == timeout_ms || *end != '\0' || !(ms > 0.0)) {
      *error = "NPURT_JOB_TIMEOUT_MS must be a positive number of milliseconds";
    } else {
      policy->timeout_ms = ms;
    }
  }
  if (fault != nullptr && *fault != '\0') {
    const std::string text = fault;
    for (size_t start = 0;;) {
      const size_t comma = text.find(',', start);
      const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      const size_t colon = item.find(':');
      const std::string kind = item.substr(0, colon);
      uint64_t every = 0;
      if (colon != std::string::npos && (kind == "fail" || kind == "timeout") &&
          ParseCount(item.substr(colon + 1), &every)) {
        (kind == "fail" ? policy->fail_every : policy->timeout_every) = every;
      } else {
        *error = "NPURT_FAULT items are fail:N or timeout:N (N > 0), comma-separated";
      }
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return *error == nullptr;
}

const JobPolicy& GetJobPolicy() {
  static const JobPolicy* policy = [] {
    auto* p = new JobPolicy();
    const char* error = nullptr;
    const char* timeout = std::getenv("NPURT_JOB_TIMEOUT_MS");
    const char* fault = std::getenv("NPURT_FAULT");
    if (!ParseJobPolicy(timeout, fault, p, &error)) {
      NPURT_LOG(kWarning, "%s (NPURT_JOB_TIMEOUT_MS='%s', NPURT_FAULT='%s'); ignored", error,
                timeout != nullptr ? timeout : "", fault != nullptr ? fault : "");
    }
    return p;
  }();
  return *policy;
}

}  // namespace npurt
