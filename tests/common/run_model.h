// Runs a model file once through the runtime (Model + Context, as rknn_init /
// rknn_run do) on float32 NCHW inputs and returns every output as float32.
// On failure it records a test failure and returns an empty list.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "runtime/core/context.h"
#include "runtime/core/model.h"

namespace npurt {
namespace testing {

inline std::vector<std::vector<float>> RunModelFile(const std::vector<uint8_t>& file,
                                                    const std::vector<std::vector<float>>& inputs,
                                                    int shape_set = -1) {
  std::shared_ptr<const Model> model;
  Status s = Model::Load(file.data(), file.size(), &model);
  EXPECT_TRUE(s.ok()) << s.message();
  if (!s.ok()) return {};
  std::unique_ptr<Context> ctx;
  s = Context::Create(model, ContextOptions(), &ctx);
  EXPECT_TRUE(s.ok()) << s.message();
  if (!s.ok()) return {};
  if (shape_set >= 0) {
    s = ctx->SetShapeSet(static_cast<size_t>(shape_set));
    EXPECT_TRUE(s.ok()) << s.message();
    if (!s.ok()) return {};
  }
  std::vector<InputArg> args(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    args[i].index = static_cast<uint32_t>(i);
    args[i].buffer.data = inputs[i].data();
    args[i].buffer.size = inputs[i].size() * sizeof(float);
    args[i].buffer.dtype = DataType::kFloat32;
    args[i].buffer.fmt = Layout::kNCHW;
  }
  s = ctx->SetInputs(args);
  EXPECT_TRUE(s.ok()) << s.message();
  if (s.ok()) s = ctx->Run();
  EXPECT_TRUE(s.ok()) << s.message();
  if (!s.ok()) return {};
  std::vector<std::vector<float>> outputs(model->outputs().size());
  for (uint32_t i = 0; i < outputs.size(); ++i) {
    outputs[i].resize(ctx->OutputBytes(i, true) / sizeof(float));
    s = ctx->GetOutput(i, true, outputs[i].data(), outputs[i].size() * sizeof(float));
    EXPECT_TRUE(s.ok()) << s.message();
  }
  return outputs;
}

}  // namespace testing
}  // namespace npurt
