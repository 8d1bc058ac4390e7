#include "tests/common/test_models.h"

#include <cstdio>
#include <cstdlib>
#include <map>

#include "compiler/quant/quantize_graph.h"

namespace npurt {
namespace testing {

compiler::Graph ConvReluPoolGraph() { return ConvReluPoolGraph(4, 4); }

compiler::Graph ConvReluPoolGraph(int64_t h, int64_t w_size) {
  compiler::Graph g;
  const int x = g.AddTensor("x", {1, 3, h, w_size}, DataType::kFloat32);
  g.AddInput(x);
  std::vector<float> w(2 * 3 * 3 * 3, 0.0f);
  for (int o = 0; o < 2; ++o)
    for (int c = 0; c < 3; ++c) w[((o * 3 + c) * 3 + 1) * 3 + 1] = (o + 1) * 0.1f;
  const int wt = g.AddFloatConstant("conv.weight", {2, 3, 3, 3}, w);
  const int bt = g.AddFloatConstant("conv.bias", {2}, {0.5f, -100.0f});
  Attributes conv;
  conv.SetInts("kernel_shape", {3, 3});
  conv.SetInts("pads", {1, 1, 1, 1});
  const int c = g.AddNode("Conv", {x, wt, bt}, conv, 1, "conv");
  const int y = g.AddNode("Relu", {c}, {}, 1, "relu");
  g.tensors()[y].name = "y";
  const int z = g.AddNode("GlobalAveragePool", {x}, {}, 1, "gap");
  g.tensors()[z].name = "z";
  g.AddOutput(y);
  g.AddOutput(z);
  return g;
}

compiler::Graph ViewChainGraph() {
  compiler::Graph g;
  const int x = g.AddTensor("x", {1, 4, 2, 2}, DataType::kFloat32);
  g.AddInput(x);
  const int a = g.AddNode("Relu", {x}, {}, 1, "a");
  const int f = g.AddNode("Flatten", {a}, {}, 1, "f");
  const int b = g.AddNode("Relu", {f}, {}, 1, "b");
  const int r = g.AddNode("Reshape", {b, g.AddInt64Constant("shape", {4}, {1, 4, 2, 2})}, {}, 1, "r");
  const int y = g.AddNode("Add", {a, r}, {}, 1, "sum");
  g.tensors()[y].name = "y";
  g.AddOutput(y);
  return g;
}

compiler::Graph AddMulGraph() {
  compiler::Graph g;
  const int a = g.AddTensor("a", {2, 3}, DataType::kFloat32);
  const int b = g.AddTensor("b", {2, 3}, DataType::kFloat32);
  g.AddInput(a);
  g.AddInput(b);
  const int sum = g.AddNode("Add", {a, b}, {}, 1, "add");
  g.tensors()[sum].name = "sum";
  const int prod = g.AddNode("Mul", {sum, a}, {}, 1, "mul");
  g.tensors()[prod].name = "prod";
  g.AddOutput(sum);
  g.AddOutput(prod);
  return g;
}

std::vector<uint8_t> EmitOrDie(const compiler::Graph& graph_in, const std::string& platform,
                               const std::string& custom_string) {
  compiler::Graph graph = graph_in;
  Status s = graph.InferShapes();
  compiler::EmitOptions options;
  options.target_platform = platform;
  options.custom_string = custom_string;
  std::vector<uint8_t> file;
  if (s.ok()) s = compiler::EmitModel(graph, options, &file);
  if (!s.ok()) {
    std::fprintf(stderr, "test model emission failed: %s\n", s.message().c_str());
    std::abort();  // test code only: a broken fixture must stop the test binary loudly
  }
  return file;
}

std::vector<uint8_t> DynamicConvReluPoolModel() {
  std::vector<compiler::Graph> sets = {ConvReluPoolGraph(4, 4), ConvReluPoolGraph(8, 6), ConvReluPoolGraph(2, 2)};
  Status s;
  for (compiler::Graph& g : sets) {
    if (s.ok()) s = g.InferShapes();
  }
  std::vector<uint8_t> file;
  if (s.ok()) s = compiler::EmitDynamicModel(sets, 1, compiler::EmitOptions(), &file);
  if (!s.ok()) {
    std::fprintf(stderr, "test model emission failed: %s\n", s.message().c_str());
    std::abort();  // test code only, as EmitOrDie
  }
  return file;
}

std::vector<uint8_t> ConvReluPoolInt8Model(const std::string& platform) {
  compiler::Graph graph = ConvReluPoolGraph();
  Status s = graph.InferShapes();
  // Ranges by hand: x and its pool in [0, 255]; the convolution in [-100, 80] (y[1] = 0.2 * sum - 100 for
  // sums up to 750), its Relu in [0, 80].
  std::map<std::string, compiler::TensorStats> stats;
  for (const compiler::IrTensor& t : graph.tensors()) {
    if (t.is_constant) continue;
    compiler::TensorStats& st = stats[t.name];
    st.count = 1;
    if (t.name == "x" || t.name == "z") {
      st.min = 0.0f, st.max = 255.0f;
    } else if (t.name == "y") {
      st.min = 0.0f, st.max = 80.0f;
    } else {
      st.min = -100.0f, st.max = 80.0f;
    }
  }
  compiler::QuantizeOptions options;
  compiler::QuantizeReport report;
  if (s.ok()) s = compiler::QuantizeGraph(stats, options, &graph, &report);
  if (!s.ok()) {
    std::fprintf(stderr, "test model quantization failed: %s\n", s.message().c_str());
    std::abort();  // test code only
  }
  return EmitOrDie(graph, platform);
}

}  // namespace testing
}  // namespace npurt
