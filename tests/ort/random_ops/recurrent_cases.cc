// RNN, GRU and LSTM: forward, reverse and bidirectional, initial states, peepholes (layout 1, which
// ONNX Runtime refuses, is left to the conformance cases: *_batchwise),
// GRU's linear_before_reset (PyTorch's form) and clip.
#include <string>

#include "tests/ort/random_ops/random_case.h"

namespace random_ops {
namespace {

void AddRecurrent(Rng* rng, Suite* suite, const std::string& op, const std::string& direction, int layout,
                  const Attrs& extra, const std::string& tag) {
  const int gates = op == "LSTM" ? 4 : op == "GRU" ? 3 : 1;
  const int64_t seq = rng->Int(1, 6), batch = rng->Int(1, 3), input = rng->Int(1, 7), hidden = rng->Int(1, 6);
  const int64_t dirs = direction == "bidirectional" ? 2 : 1;
  Case c(Lower(op) + "14_" + direction + "_layout" + std::to_string(layout) + tag + "_s" + std::to_string(seq) + "b" +
             std::to_string(batch) + "i" + std::to_string(input) + "h" + std::to_string(hidden),
         14, rng);
  const Ints x = layout == 0 ? Ints{seq, batch, input} : Ints{batch, seq, input};
  const Ints state = layout == 0 ? Ints{dirs, batch, hidden} : Ints{batch, dirs, hidden};
  std::vector<std::string> inputs = {c.Input(x, -2.0f, 2.0f), c.Weight({dirs, gates * hidden, input}, 0.8f),
                                     c.Weight({dirs, gates * hidden, hidden}, 0.8f),
                                     c.Weight({dirs, 2 * gates * hidden}, 0.5f), "", c.Input(state)};
  if (op == "LSTM") {
    inputs.push_back(c.Input(state));
    inputs.push_back(c.Weight({dirs, 3 * hidden}, 0.5f));
  }
  Attrs attrs = {AttrInt("hidden_size", hidden), AttrString("direction", direction), AttrInt("layout", layout)};
  attrs.insert(attrs.end(), extra.begin(), extra.end());
  c.Output(c.Node(op, inputs, attrs));  // Y
  suite->Add(op, c);
}

}  // namespace

void AddRecurrentCases(Rng* rng, Suite* suite) {
  AddRecurrent(rng, suite, "LSTM", "forward", 0, {}, "");
  AddRecurrent(rng, suite, "LSTM", "bidirectional", 0, {}, "");
  AddRecurrent(rng, suite, "LSTM", "reverse", 0, {AttrFloat("clip", 1.5f)}, "_clip");
  AddRecurrent(rng, suite, "GRU", "forward", 0, {AttrInt("linear_before_reset", 1)}, "_lbr");
  AddRecurrent(rng, suite, "GRU", "bidirectional", 0, {}, "");
  AddRecurrent(rng, suite, "GRU", "reverse", 0, {AttrInt("linear_before_reset", 1)}, "_lbr");
  AddRecurrent(rng, suite, "RNN", "forward", 0, {}, "");
  AddRecurrent(rng, suite, "RNN", "bidirectional", 0, {}, "");
}

}  // namespace random_ops
