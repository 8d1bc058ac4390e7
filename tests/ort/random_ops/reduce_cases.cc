// Reductions (ReduceSum ... ReduceSumSquare) and ArgMax / ArgMin on random 3-D and 4-D inputs: axes as
// the attribute (opset 13) and as the constant input (opset 18), keepdims both ways, negative axes;
// CumSum (exclusive, reverse) along random axes.
#include <string>

#include "tests/ort/random_ops/random_case.h"

namespace random_ops {
namespace {

Ints RandomDims(Rng* rng) {
  if (rng->Chance(0.5)) return {rng->Int(1, 3), rng->Int(1, 6), rng->Int(1, 9)};
  return {rng->Int(1, 2), rng->Int(1, 5), rng->Int(1, 6), rng->Int(1, 7)};
}

// One or two distinct axes of a rank-`rank` tensor, sometimes negative.
Ints RandomAxes(Rng* rng, int rank) {
  const int first = rng->Int(0, rank - 1);
  Ints axes = {rng->Chance(0.3) ? first - rank : first};
  if (rng->Chance(0.5)) {
    const int second = (first + rng->Int(1, rank - 1)) % rank;
    axes.push_back(second);
  }
  return axes;
}

// `lo`, `hi`: the input's range (positive for the logarithms).
void AddReduce(Rng* rng, Suite* suite, const std::string& op, float lo, float hi) {
  for (int opset : {13, 18}) {
    if (op == "ReduceSum" && opset == 13) continue;  // its axes became an input at 13: the 18 form covers it
    const Ints dims = RandomDims(rng);
    const Ints axes = RandomAxes(rng, static_cast<int>(dims.size()));
    const int keepdims = rng->Int(0, 1);
    Case c(Lower(op) + std::to_string(opset) + "_axes" + Join(axes, "_") + "_keep" + std::to_string(keepdims) +
               "_" + ShapeTag(dims),
           opset, rng);
    const std::string x = c.Input(dims, lo, hi);
    Attrs attrs = {AttrInt("keepdims", keepdims)};
    if (opset >= 18) {
      c.Output(c.Node(op, {x, c.Int64Constant({static_cast<int64_t>(axes.size())}, axes)}, attrs));
    } else {
      attrs.push_back(AttrInts("axes", axes));
      c.Output(c.Node(op, {x}, attrs));
    }
    suite->Add(op, c);
  }
}

void AddArgReduce(Rng* rng, Suite* suite, const std::string& op) {
  for (int k = 0; k < 3; ++k) {
    const Ints dims = RandomDims(rng);
    const int rank = static_cast<int>(dims.size());
    const int axis = rng->Int(-rank, rank - 1);
    const int keepdims = rng->Int(0, 1), last = rng->Int(0, 1);
    Case c(Lower(op) + "13_axis" + Num(axis) + "_keep" + std::to_string(keepdims) + "_last" +
               std::to_string(last) + "_" + ShapeTag(dims),
           13, rng);
    c.Output(c.Node(op, {c.Input(dims, -4.0f, 4.0f)},
                    {AttrInt("axis", axis), AttrInt("keepdims", keepdims), AttrInt("select_last_index", last)}),
             onnx::TensorProto::INT64);
    suite->Add(op, c);
  }
}

void AddCumSum(Rng* rng, Suite* suite) {
  for (int k = 0; k < 4; ++k) {
    const Ints dims = RandomDims(rng);
    const int rank = static_cast<int>(dims.size());
    const int axis = rng->Int(-rank, rank - 1), exclusive = k & 1, reverse = k >> 1;
    Case c("cumsum14_axis" + Num(axis) + "_ex" + std::to_string(exclusive) + "_rev" + std::to_string(reverse) + "_" +
               ShapeTag(dims),
           14, rng);
    c.Output(c.Node("CumSum", {c.Input(dims, -2.0f, 2.0f), c.Int64Constant({}, {axis})},
                    {AttrInt("exclusive", exclusive), AttrInt("reverse", reverse)}));
    suite->Add("CumSum", c);
  }
}

}  // namespace

void AddReduceCases(Rng* rng, Suite* suite) {
  for (const char* op : {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
                         "ReduceSumSquare", "ReduceLogSumExp"}) {
    AddReduce(rng, suite, op, -2.0f, 2.0f);
  }
  AddReduce(rng, suite, "ReduceLogSum", 0.01f, 3.0f);
  AddArgReduce(rng, suite, "ArgMax");
  AddArgReduce(rng, suite, "ArgMin");
  AddCumSum(rng, suite);
}

}  // namespace random_ops
