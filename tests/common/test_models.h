// Small models built through the compiler's IR + emitter (the one path that
// writes model files), for unit, API and fuzz tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/emit/emitter.h"
#include "compiler/ir/graph.h"

namespace npurt {
namespace testing {

// x[1,3,4,4] -> Conv(3->2, 3x3, pad 1, known weights) -> Relu -> y[1,2,4,4]
//            \-> GlobalAveragePool -> z[1,3,1,1]
// Weights: w[o][c][kh][kw] = (o + 1) * 0.1 for the centre tap, 0 elsewhere;
// bias = {0.5, -100}. So y[0] = relu(0.1 * sum_c x[c] + 0.5), y[1] = 0 for small x.
compiler::Graph ConvReluPoolGraph();
// The same with x[1,3,h,w], y[1,2,h,w].
compiler::Graph ConvReluPoolGraph(int64_t h, int64_t w);

// ConvReluPoolGraph as a dynamic-shape model with the shape sets x[1,3,4,4],
// x[1,3,8,6] (the largest: the graph a context starts with) and x[1,3,2,2].
std::vector<uint8_t> DynamicConvReluPoolModel();

// a[2,3] + b[2,3] -> sum[2,3]; sum * a -> prod[2,3]. Two inputs, two outputs.
compiler::Graph AddMulGraph();

// x[1,4,2,2] -> Relu a -> Flatten f -> Relu b -> Reshape r (back to [1,4,2,2]) -> Add(a, r) -> y:
// y = 2 * relu(x), with views (Flatten, Reshape) planned on their inputs' bytes and `a` read after its view.
compiler::Graph ViewChainGraph();

// ConvReluPoolGraph quantized to int8 without calibration, from hand-set ranges
// that cover the API tests' inputs (x in [0, 255]: scale 1, zero point -128,
// so uint8 images are exact codes), emitted for `platform`.
std::vector<uint8_t> ConvReluPoolInt8Model(const std::string& platform = "rk3588");

// Emits `graph` for `platform`; aborts the test on failure via the returned flag.
std::vector<uint8_t> EmitOrDie(const compiler::Graph& graph, const std::string& platform = "rk3588",
                               const std::string& custom_string = "");

}  // namespace testing
}  // namespace npurt
