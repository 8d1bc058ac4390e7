// NPURT_JOB_TIMEOUT_MS / NPURT_FAULT parsing (runtime/device/job_policy.h).
#include "runtime/device/job_policy.h"

#include <gtest/gtest.h>

namespace npurt {
namespace {

TEST(JobPolicy, ParsesTimeoutAndFaults) {
  JobPolicy p;
  const char* error = nullptr;
  ASSERT_TRUE(ParseJobPolicy("2.5", "fail:3,timeout:5", &p, &error));
  EXPECT_EQ(error, nullptr);
  EXPECT_DOUBLE_EQ(p.timeout_ms, 2.5);
  EXPECT_EQ(p.fail_every, 3u);
  EXPECT_EQ(p.timeout_every, 5u);
  JobPolicy unset;
  ASSERT_TRUE(ParseJobPolicy(nullptr, "", &unset, &error));
  EXPECT_EQ(unset.timeout_ms, 0.0);
  EXPECT_EQ(unset.fail_every, 0u);
  EXPECT_EQ(unset.timeout_every, 0u);
}

TEST(JobPolicy, MalformedValuesAreReportedAndIgnored) {
  for (const char* fault : {"fail", "fail:0", "fail:x", "fail:-2", "hang:3", "fail:3,", ":4"}) {
    JobPolicy p;
    const char* error = nullptr;
    EXPECT_FALSE(ParseJobPolicy(nullptr, fault, &p, &error)) << fault;
    ASSERT_NE(error, nullptr) << fault;
    EXPECT_NE(std::string(error).find("NPURT_FAULT"), std::string::npos);
  }
  // A bad item leaves the good ones.
  JobPolicy p;
  const char* error = nullptr;
  EXPECT_FALSE(ParseJobPolicy(nullptr, "timeout:4,nonsense", &p, &error));
  EXPECT_EQ(p.timeout_every, 4u);
  for (const char* timeout : {"0", "-1", "abc", "5ms"}) {
    JobPolicy q;
    EXPECT_FALSE(ParseJobPolicy(timeout, nullptr, &q, &error)) << timeout;
    EXPECT_NE(std::string(error).find("NPURT_JOB_TIMEOUT_MS"), std::string::npos);
    EXPECT_EQ(q.timeout_ms, 0.0);
  }
}

}  // namespace
}  // namespace npurt
