#include <gtest/gtest.h>

#include <set>
#include <string>

#include "runtime/ops/op.h"

namespace npurt {
namespace {

const char* const kListedOps[] = {
#define NPURT_OP(name, family) #name,
#include "runtime/ops/ops.def"
#undef NPURT_OP
};

TEST(OpRegistry, FullBuildLinksEveryListedOp) {
  for (const char* name : kListedOps) {
    const OpDef* op = FindOp(name);
    ASSERT_NE(op, nullptr) << name << " is listed in ops.def but not linked";
    EXPECT_STREQ(op->name, name);
    EXPECT_NE(op->infer, nullptr) << name;
    EXPECT_NE(op->eval, nullptr) << name;
  }
  EXPECT_EQ(AllOps().size(), sizeof(kListedOps) / sizeof(kListedOps[0]));
}

TEST(OpRegistry, NamesAreUnique) {
  std::set<std::string> names;
  for (const OpDef* op : AllOps()) EXPECT_TRUE(names.insert(op->name).second) << op->name;
}

TEST(OpRegistry, UnknownNameIsAbsent) { EXPECT_EQ(FindOp("NoSuchOp"), nullptr); }

}  // namespace
}  // namespace npurt
