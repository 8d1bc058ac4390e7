// Data movement: DepthToSpace (DCR, CRD), SpaceToDepth and Tile on random shapes.
#include <string>

#include "tests/ort/random_ops/random_case.h"

namespace random_ops {

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
}

}  // namespace random_ops
