// Inputs the loader fuzzer once found problems with (tests/fuzz/regressions/):
// each must be rejected cleanly, in the sanitizer build too. The fuzzer reseals
// checksums before loading, so these are resealed the same way.
#include <gtest/gtest.h>

#include <dirent.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "format/model_file.h"
#include "runtime/core/context.h"
#include "runtime/core/model.h"

namespace npurt {
namespace {

TEST(FuzzRegressions, EveryRecordedInputIsRejectedWithoutUndefinedBehaviour) {
  const std::string dir = NPURT_FUZZ_REGRESSION_DIR;
  DIR* d = opendir(dir.c_str());
  ASSERT_NE(d, nullptr) << dir;
  int count = 0;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    std::ifstream f(dir + "/" + e->d_name, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    ResealModelFile(bytes.data(), bytes.size());
    std::shared_ptr<const Model> model;
    const Status s = Model::Load(bytes.data(), bytes.size(), &model);
    EXPECT_EQ(s.code(), StatusCode::kModelInvalid) << e->d_name << ": " << s.message();
    ++count;
  }
  closedir(d);
  EXPECT_GE(count, 1);
}

}  // namespace
}  // namespace npurt
