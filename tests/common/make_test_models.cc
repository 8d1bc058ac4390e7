// Writes the fixture models (tests/common/test_models.h) into a directory:
// conv_relu_pool.rknn, add_mul.rknn, dynamic_conv_relu_pool.rknn (three shape sets) and
// conv_relu_pool_int8.rknn.
#include <cstdio>
#include <string>
#include <sys/stat.h>

#include "tests/common/test_models.h"

namespace {

bool Write(const std::string& path, const std::vector<uint8_t>& bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) return false;
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  return std::fclose(f) == 0 && ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  ::mkdir(dir.c_str(), 0755);
  using namespace npurt::testing;
  if (!Write(dir + "/conv_relu_pool.rknn", EmitOrDie(ConvReluPoolGraph(), "rk3588", "fixture: conv_relu_pool")) ||
      !Write(dir + "/add_mul.rknn", EmitOrDie(AddMulGraph())) ||
      !Write(dir + "/dynamic_conv_relu_pool.rknn", DynamicConvReluPoolModel()) ||
      !Write(dir + "/conv_relu_pool_int8.rknn", ConvReluPoolInt8Model())) {
    std::fprintf(stderr, "cannot write models into %s\n", dir.c_str());
    return 1;
  }
  std::printf("wrote test models to %s\n", dir.c_str());
  return 0;
}
