// The layout pass (runtime/core/layout_pass.h) on hand-built graphs: which
// activations become channels-last, what ties them, and which NHWC kernels
// are left relayouting.
#include "runtime/core/layout_pass.h"

#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <vector>

namespace npurt {
namespace {

// A graph of named tensors and nodes with the layout declarations prepare would make.
class Graph {
 public:
  explicit Graph(size_t tensors) : tensors_(tensors), movable_(tensors, true) {}

  Tensor* T(size_t i, Shape shape) {
    tensors_[i].name = "t" + std::to_string(i);
    tensors_[i].shape = std::move(shape);
    return &tensors_[i];
  }
  void Fixed(size_t i) { movable_[i] = false; }  // a graph input, output or constant
  OpNode& Node(const std::string& name, std::vector<size_t> in, std::vector<size_t> out) {
    nodes_.emplace_back();
    OpNode& n = nodes_.back();
    n.name = name;
    for (size_t i : in) n.inputs.push_back(&tensors_[i]);
    for (size_t o : out) n.outputs.push_back(&tensors_[o]);
    return n;
  }
  OpNode& Nhwc(const std::string& name, size_t in, size_t out) {  // a convolution
    OpNode& n = Node(name, {in}, {out});
    n.channels_last_io = true;
    return n;
  }
  int Run() {
    std::vector<OpNode> nodes;
    for (OpNode& n : nodes_) nodes.push_back(std::move(n));
    const int count = AssignChannelsLast(&nodes, &tensors_, movable_);
    relayout_ = NodesThatRelayout(nodes);
    for (size_t i = 0; i < nodes.size(); ++i) kernels_.push_back(nodes[i].kernel);
    return count;
  }
  bool Last(size_t i) const { return tensors_[i].channels_last; }
  const std::vector<std::string>& relayout() const { return relayout_; }
  const std::vector<std::string>& kernels() const { return kernels_; }

 private:
  std::vector<Tensor> tensors_;  // never resized: nodes point into it
  std::vector<bool> movable_;
  std::deque<OpNode> nodes_;
  std::vector<std::string> relayout_, kernels_;
};

const Shape kMap = {1, 8, 6, 6};

TEST(LayoutPass, ChainOfNhwcKernelsAndElementwiseOpsStaysChannelsLast) {
  Graph g(5);
  g.T(0, kMap), g.T(1, kMap), g.T(2, kMap), g.T(3, {1, 8, 1, 1}), g.T(4, kMap);
  g.Fixed(0), g.Fixed(4), g.Fixed(3);
  g.Nhwc("conv_a", 0, 1);
  g.Node("mul", {1, 3}, {2}).layout_agnostic = true;  // a per-channel constant: read the same in both layouts
  g.Nhwc("conv_b", 2, 4);
  EXPECT_EQ(g.Run(), 2);
  EXPECT_TRUE(g.Last(1));
  EXPECT_TRUE(g.Last(2));
  EXPECT_FALSE(g.Last(0));  // graph input and output keep the ONNX layout
  EXPECT_FALSE(g.Last(4));
  EXPECT_EQ(g.relayout(), (std::vector<std::string>{"conv_a <in", "conv_b >out"}));
}

// A convolution's residual (an input of its output's shape) is read in either layout; the weights are not.
TEST(LayoutPass, AResidualStaysChannelsLastAndCountsAsARead) {
  Graph g(7);
  g.T(0, kMap), g.T(1, kMap), g.T(2, {8, 8, 3, 3}), g.T(3, kMap), g.T(4, kMap), g.T(5, kMap), g.T(6, {1, 288});
  g.Fixed(0), g.Fixed(2), g.Fixed(4);
  g.Nhwc("conv_a", 0, 1);
  OpNode& fused = g.Node("conv_res", {1, 2, 1}, {3});  // the residual is conv_a's output, as in a ResNet block
  fused.channels_last_io = true;
  OpNode& fused_b = g.Node("conv_res_b", {3, 2, 3}, {4});  // ends at a graph output
  fused_b.channels_last_io = true;
  g.Nhwc("conv_c", 1, 5);
  g.Node("flatten", {5}, {6});  // reads t5 in the ONNX layout
  g.Run();
  EXPECT_TRUE(g.Last(1));   // read by conv_res twice (input and residual) and by conv_c: all either way
  EXPECT_TRUE(g.Last(3));   // conv_res_b's input and residual
  EXPECT_FALSE(g.Last(2));  // a constant
  EXPECT_FALSE(g.Last(5));
}

TEST(LayoutPass, AReaderThatNeedsNchwTurnsItsElementwiseNeighboursBack) {
  Graph g(5);
  g.T(0, kMap), g.T(1, kMap), g.T(2, kMap), g.T(3, kMap), g.T(4, {1, 288});
  g.Nhwc("conv_a", 0, 1);
  g.Node("add", {1, 1}, {2}).layout_agnostic = true;
  g.Nhwc("conv_b", 2, 3);
  g.Node("flatten", {2}, {4});  // reads t2 in the ONNX layout
  g.Run();
  EXPECT_FALSE(g.Last(2));
  EXPECT_FALSE(g.Last(1));  // tied to t2 through the Add
  EXPECT_TRUE(g.Last(3));
  EXPECT_EQ(g.relayout(), (std::vector<std::string>{"conv_a >out", "conv_b <in"}));
}

TEST(LayoutPass, OneChannelOrOnePixelTensorsAreChannelsLastWhateverReadsThem) {
  Graph g(5);
  g.T(0, kMap), g.T(1, {1, 8, 1, 1}), g.T(2, {1, 8}), g.T(3, {1, 1, 6, 6}), g.T(4, {1, 36});
  g.Node("pool", {0}, {1}).channels_last_io = true;  // a global pool
  g.Node("flatten", {1}, {2});
  g.Nhwc("conv_to_one_channel", 0, 3);
  g.Node("flatten_map", {3}, {4});
  g.Run();
  EXPECT_TRUE(g.Last(1));  // the same bytes in both layouts: the pool needs no relayout for Flatten
  EXPECT_TRUE(g.Last(3));
  EXPECT_TRUE(g.relayout().empty());
}

TEST(LayoutPass, TiedOperandsGoTogether) {
  // Concat of two convolutions' outputs into a third convolution: all channels-last; a fixed input breaks it.
  for (bool fixed_input : {false, true}) {
    Graph g(7);
    g.T(0, kMap), g.T(1, kMap), g.T(2, kMap), g.T(3, {1, 16, 6, 6}), g.T(4, kMap), g.T(5, kMap);
    g.T(6, {1, 24, 6, 6});
    g.Nhwc("conv_a", 0, 1);
    g.Nhwc("conv_b", 0, 2);
    if (fixed_input) g.Fixed(5);
    g.Node("concat", {1, 2, 5}, {6}).layout_tied = true;
    g.Nhwc("conv_c", 6, 4);
    g.Run();
    EXPECT_EQ(g.Last(1), !fixed_input);
    EXPECT_EQ(g.Last(2), !fixed_input);
    EXPECT_EQ(g.Last(6), !fixed_input);
  }
}

TEST(LayoutPass, ChannelsLastKernelNameReplacesThePreparedOne) {
  Graph g(4);
  g.T(0, kMap), g.T(1, kMap), g.T(2, {1, 8, 1, 1}), g.T(3, {1, 8, 1, 1});
  g.Fixed(0);
  g.Nhwc("conv", 0, 1);
  OpNode& pool = g.Node("pool", {1}, {2});
  pool.channels_last_io = true;
  pool.channels_last_kernel = "global_pool__nhwc";
  OpNode& ref_pool = g.Node("pool_of_input", {0}, {3});
  ref_pool.channels_last_io = true;
  ref_pool.channels_last_kernel = "global_pool__nhwc";
  g.Run();
  EXPECT_EQ(g.kernels()[1], "global_pool__nhwc");
  EXPECT_EQ(g.kernels()[2], "ref");  // its input is a graph input: NCHW
}

}  // namespace
}  // namespace npurt
