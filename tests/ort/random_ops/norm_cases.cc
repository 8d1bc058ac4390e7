// InstanceNormalization, GroupNormalization (opset 18, per-group affine), MeanVarianceNormalization,
// LpNormalization and LRN on random shapes and attributes.
#include <string>

#include "tests/ort/random_ops/random_case.h"

namespace random_ops {

void AddNormCases(Rng* rng, Suite* suite) {
  for (int k = 0; k < 2; ++k) {
    const Ints dims = {rng->Int(1, 2), rng->Int(1, 6), rng->Int(1, 5), rng->Int(2, 7)};
    Case c("instancenorm6_" + ShapeTag(dims), 6, rng);
    c.Output(c.Node("InstanceNormalization", {c.Input(dims, -3.0f, 3.0f), c.Weight({dims[1]}, 2.0f), c.Weight({dims[1]}, 1.0f)},
                    {AttrFloat("epsilon", k == 0 ? 1e-5f : 0.01f)}));
    suite->Add("InstanceNormalization", c);
  }
  for (int k = 0; k < 2; ++k) {
    const int64_t groups = rng->Int(1, 3);
    const Ints dims = {rng->Int(1, 2), groups * rng->Int(1, 3), rng->Int(1, 5), rng->Int(2, 6)};
    Case c("groupnorm18_g" + std::to_string(groups) + "_" + ShapeTag(dims), 18, rng);
    c.Output(c.Node("GroupNormalization", {c.Input(dims, -3.0f, 3.0f), c.Weight({groups}, 2.0f), c.Weight({groups}, 1.0f)},
                    {AttrInt("num_groups", groups)}));
    suite->Add("GroupNormalization", c);
  }
  for (const Ints& axes : {Ints{0, 2, 3}, Ints{1}, Ints{2, 3}}) {
    const Ints dims = {rng->Int(1, 3), rng->Int(1, 4), rng->Int(2, 5), rng->Int(2, 5)};
    Case c("mvn13_axes" + Join(axes, "_") + "_" + ShapeTag(dims), 13, rng);
    c.Output(c.Node("MeanVarianceNormalization", {c.Input(dims, -2.0f, 4.0f)}, {AttrInts("axes", axes)}));
    suite->Add("MeanVarianceNormalization", c);
  }
  for (int p : {1, 2}) {
    const Ints dims = {rng->Int(1, 3), rng->Int(2, 6), rng->Int(1, 7)};
    const int axis = rng->Int(-3, 2);
    Case c("lpnorm1_p" + std::to_string(p) + "_axis" + Num(axis) + "_" + ShapeTag(dims), 1, rng);
    c.Output(c.Node("LpNormalization", {c.Input(dims, 0.1f, 3.0f)}, {AttrInt("p", p), AttrInt("axis", axis)}));
    suite->Add("LpNormalization", c);
  }
  for (int size : {1, 3, 5}) {  // odd: ONNX Runtime refuses even sizes
    const Ints dims = {rng->Int(1, 2), rng->Int(2, 7), rng->Int(1, 4), rng->Int(1, 5)};
    Case c("lrn13_size" + std::to_string(size) + "_" + ShapeTag(dims), 13, rng);
    c.Output(c.Node("LRN", {c.Input(dims, -3.0f, 3.0f)},
                    {AttrInt("size", size), AttrFloat("alpha", 0.02f), AttrFloat("beta", 0.6f), AttrFloat("bias", 1.5f)}));
    suite->Add("LRN", c);
  }
}

}  // namespace random_ops
