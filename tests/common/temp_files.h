// Scratch files for tests: a fresh directory removed at the end of the test,
// and float32 .npy files (calibration and accuracy-analysis samples).
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "runtime/core/npy.h"

namespace npurt {
namespace testing {

class TempDir {
 public:
  TempDir() {
    std::string tmpl = ::testing::TempDir() + "npurt_test_XXXXXX";
    path_ = mkdtemp(tmpl.data()) != nullptr ? tmpl : "";
    EXPECT_FALSE(path_.empty());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

inline void WriteNpyFloats(const std::string& path, const Shape& shape, const std::vector<float>& values) {
  npy::NpyArray a;
  a.dtype = DataType::kFloat32;
  a.shape = shape;
  a.data.resize(values.size() * sizeof(float));
  std::memcpy(a.data.data(), values.data(), a.data.size());
  const Status s = npy::WriteNpy(path, a);
  ASSERT_TRUE(s.ok()) << s.message();
}

}  // namespace testing
}  // namespace npurt
