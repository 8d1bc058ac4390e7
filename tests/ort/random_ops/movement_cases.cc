// Data movement: DepthToSpace (DCR, CRD), SpaceToDepth, Tile, GatherElements, ScatterND and
// ScatterElements on random shapes (indices constant, distinct where a write order would matter).
#include <string>
#include <utility>

#include "tests/ort/random_ops/random_case.h"

namespace random_ops {

namespace {

// `count` distinct values of [0, n) in random order (count <= n).
Ints Distinct(Rng* rng, int64_t n, int64_t count) {
  Ints all(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) all[static_cast<size_t>(i)] = i;
  for (int64_t i = n - 1; i > 0; --i) std::swap(all[static_cast<size_t>(i)], all[static_cast<size_t>(rng->Int(0, static_cast<int>(i)))]);
  all.resize(static_cast<size_t>(count));
  return all;
}

int64_t Count(const Ints& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

void AddGatherScatter(Rng* rng, Suite* suite) {
  for (int k = 0; k < 3; ++k) {
    const Ints data = {rng->Int(2, 4), rng->Int(2, 5), rng->Int(1, 4)};
    const int axis = rng->Int(0, 2);
    Ints idx = data;
    idx[static_cast<size_t>(axis)] = rng->Int(1, 6);
    Ints values;
    for (int64_t i = 0; i < Count(idx); ++i) values.push_back(rng->Int(-static_cast<int>(data[axis]), static_cast<int>(data[axis]) - 1));
    Case c("gatherelements13_axis" + std::to_string(axis) + "_" + ShapeTag(data) + "_" + ShapeTag(idx), 13, rng);
    c.Output(c.Node("GatherElements", {c.Input(data), c.Int64Constant(idx, values)}, {AttrInt("axis", axis)}));
    suite->Add("GatherElements", c);
  }
  for (const char* reduction : {"none", "add", "mul", "max", "min"}) {
    // ScatterND on rows of a [rows, cols] matrix: distinct rows (a write order would matter for none).
    const int64_t rows = rng->Int(3, 8), cols = rng->Int(1, 5), count = rng->Int(1, static_cast<int>(rows));
    Case c("scatternd18_" + std::string(reduction) + "_" + Join({rows, cols}) + "_n" + std::to_string(count), 18, rng);
    c.Output(c.Node("ScatterND", {c.Input({rows, cols}), c.Int64Constant({count, 1}, Distinct(rng, rows, count)),
                                  c.Input({count, cols})},
                    {AttrString("reduction", reduction)}));
    suite->Add("ScatterND", c);
  }
  for (const char* reduction : {"none", "add", "max"}) {
    const Ints data = {rng->Int(2, 5), rng->Int(2, 5)};
    const int axis = rng->Int(0, 1);
    // One index per column (axis 0) or row (axis 1): distinct targets.
    const int64_t lines = data[1 - axis], dim = data[static_cast<size_t>(axis)];
    const Ints idx = axis == 0 ? Ints{1, lines} : Ints{lines, 1};
    Ints values;
    for (int64_t i = 0; i < lines; ++i) values.push_back(rng->Int(0, static_cast<int>(dim) - 1));
    Case c("scatterelements18_" + std::string(reduction) + "_axis" + std::to_string(axis) + "_" + ShapeTag(data), 18, rng);
    c.Output(c.Node("ScatterElements", {c.Input(data), c.Int64Constant(idx, values), c.Input(idx)},
                    {AttrInt("axis", axis), AttrString("reduction", reduction)}));
    suite->Add("ScatterElements", c);
  }
}

}  // namespace

void AddMovementCases(Rng* rng, Suite* suite) {
  for (const char* mode : {"DCR", "CRD"}) {
    for (int k = 0; k < 2; ++k) {
      const int64_t b = rng->Int(2, 3);
      const Ints dims = {rng->Int(1, 2), b * b * rng->Int(1, 3), rng->Int(1, 5), rng->Int(1, 6)};
      Case c("depthtospace13_" + std::string(mode) + "_b" + std::to_string(b) + "_" + ShapeTag(dims), 13, rng);
      c.Output(c.Node("DepthToSpace", {c.Input(dims)}, {AttrInt("blocksize", b), AttrString("mode", mode)}));
      suite->Add("DepthToSpace", c);
    }
  }
  for (int k = 0; k < 3; ++k) {
    const int64_t b = rng->Int(2, 3);
    const Ints dims = {rng->Int(1, 2), rng->Int(1, 4), b * rng->Int(1, 4), b * rng->Int(1, 5)};
    Case c("spacetodepth13_b" + std::to_string(b) + "_" + ShapeTag(dims), 13, rng);
    c.Output(c.Node("SpaceToDepth", {c.Input(dims)}, {AttrInt("blocksize", b)}));
    suite->Add("SpaceToDepth", c);
  }
  for (int k = 0; k < 3; ++k) {
    const Ints dims = {rng->Int(1, 3), rng->Int(1, 4), rng->Int(1, 5)};
    const Ints repeats = {rng->Int(1, 3), rng->Int(0, 2) == 0 ? 1 : rng->Int(1, 3), rng->Int(1, 4)};
    Case c("tile13_r" + Join(repeats) + "_" + ShapeTag(dims), 13, rng);
    c.Output(c.Node("Tile", {c.Input(dims), c.Int64Constant({3}, repeats)}));
    suite->Add("Tile", c);
  }
  AddGatherScatter(rng, suite);
}

}  // namespace random_ops
