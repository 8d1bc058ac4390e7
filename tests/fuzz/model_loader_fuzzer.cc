// libFuzzer target: arbitrary bytes into the model loader and context
// creation (what rknn_init does). The checksum is resealed first so the fuzzer
// also reaches the FlatBuffers verifier and the semantic checks behind it.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "format/model_file.h"
#include "runtime/core/context.h"
#include "runtime/core/model.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  for (int reseal = 0; reseal < 2; ++reseal) {
    std::vector<uint8_t> bytes(data, data + size);
    if (reseal) npurt::ResealModelFile(bytes.data(), bytes.size());
    std::shared_ptr<const npurt::Model> model;
    if (bytes.empty() || !npurt::Model::Load(bytes.data(), bytes.size(), &model).ok()) continue;
    std::unique_ptr<npurt::Context> ctx;
    npurt::ContextOptions options;
    (void)npurt::Context::Create(model, options, &ctx);
  }
  return 0;
}
