#include "runtime/core/status.h"

#include <gtest/gtest.h>

#include <string>

namespace npurt {
namespace {

TEST(Status, FormattedMessagesKeepEveryCharacter) {
  EXPECT_EQ(NPURT_ERROR(kModelInvalid, "node '%s': %d", "conv", 7).message(), "node 'conv': 7");
  // Longer than the formatting buffer (the importer's list of supported operators): whole, not cut.
  const std::string list(3000, 'x');
  const Status s = NPURT_ERROR(kModelInvalid, "supported: %s.", list.c_str());
  EXPECT_EQ(s.code(), StatusCode::kModelInvalid);
  EXPECT_EQ(s.message(), "supported: " + list + ".");
  const std::string edge(1023 - 2, 'y');  // exactly fills the buffer with its terminator
  EXPECT_EQ(NPURT_ERROR(kFail, "%s!!", edge.c_str()).message(), edge + "!!");
}

}  // namespace
}  // namespace npurt
