// Builds the demo model: a small image classifier (Conv-Relu-MaxPool-Conv-Relu-
// GlobalAveragePool-Flatten-Gemm-Softmax) on 1x3x32x32 with ImageNet mean/std
// folded into the input conversion. The weights are seeded pseudo-random: this
// model exercises the runtime; it is not trained.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "compiler/emit/emitter.h"
#include "compiler/ir/graph.h"

using npurt::Attributes;
using npurt::DataType;
using npurt::compiler::Graph;

namespace {

std::vector<float> Weights(size_t n, float scale, uint32_t seed) {
  std::vector<float> w(n);
  uint32_t s = seed;
  for (float& v : w) {
    s = s * 1664525u + 1013904223u;
    v = (static_cast<float>(s >> 8) / 16777216.0f - 0.5f) * 2.0f * scale;
  }
  return w;
}

int Conv(Graph& g, int x, int cin, int cout, const char* name, uint32_t seed) {
  const int w = g.AddFloatConstant(std::string(name) + ".weight", {cout, cin, 3, 3},
                                   Weights(static_cast<size_t>(cout) * cin * 9, std::sqrt(2.0f / (cin * 9)), seed));
  const int b = g.AddFloatConstant(std::string(name) + ".bias", {cout}, Weights(cout, 0.1f, seed + 1));
  Attributes a;
  a.SetInts("kernel_shape", {3, 3});
  a.SetInts("pads", {1, 1, 1, 1});
  const int c = g.AddNode("Conv", {x, w, b}, a, 1, name);
  return g.AddNode("Relu", {c}, {}, 1, std::string(name) + "_relu");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTPUT.rknn\n", argv[0]);
    return 2;
  }
  Graph g;
  const int x = g.AddTensor("image", {1, 3, 32, 32}, DataType::kFloat32);
  auto& in = g.AddInput(x);
  in.mean = {123.675f, 116.28f, 103.53f};
  in.std = {58.395f, 57.12f, 57.375f};
  int t = Conv(g, x, 3, 16, "conv1", 1);
  Attributes pool;
  pool.SetInts("kernel_shape", {2, 2});
  pool.SetInts("strides", {2, 2});
  t = g.AddNode("MaxPool", {t}, pool, 1, "pool1");
  t = Conv(g, t, 16, 32, "conv2", 3);
  t = g.AddNode("GlobalAveragePool", {t}, {}, 1, "gap");
  t = g.AddNode("Flatten", {t}, {}, 1, "flatten");
  const int fw = g.AddFloatConstant("fc.weight", {10, 32}, Weights(320, 0.5f, 5));
  const int fb = g.AddFloatConstant("fc.bias", {10}, Weights(10, 0.1f, 6));
  Attributes gemm;
  gemm.SetInt("transB", 1);
  t = g.AddNode("Gemm", {t, fw, fb}, gemm, 1, "fc");
  Attributes softmax;
  softmax.SetInt("axis", 1);
  t = g.AddNode("Softmax", {t}, softmax, 1, "softmax");
  g.tensors()[t].name = "probabilities";
  g.AddOutput(t);

  npurt::Status s = g.InferShapes();
  std::vector<uint8_t> file;
  npurt::compiler::EmitOptions options;
  options.custom_string = "npurt demo: tiny CNN classifier, untrained";
  if (s.ok()) s = npurt::compiler::EmitModel(g, options, &file);
  if (!s.ok()) {
    std::fprintf(stderr, "cannot build the demo model: %s\n", s.message().c_str());
    return 1;
  }
  FILE* f = std::fopen(argv[1], "wb");
  if (f == nullptr || std::fwrite(file.data(), 1, file.size(), f) != file.size() || std::fclose(f) != 0) {
    std::fprintf(stderr, "cannot write %s\n", argv[1]);
    return 1;
  }
  std::printf("wrote %s (%zu bytes)\n", argv[1], file.size());
  return 0;
}
